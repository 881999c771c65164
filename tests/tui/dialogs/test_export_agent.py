"""The export of a session an agent keeps in its own folder: the notice says where it went (the
whole path) and how to resume it with that agent; and the dialog's boxes read ticked or not
without colour ("X" in the box or an empty box)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Checkbox

from inspector.cli.main import main
from inspector.tui.dialogs.export import ExportDialog
from tests.helpers.app import drive, reviewed
from tests.helpers.pilot import press, until
from tests.helpers.samples import TOOL_SAMPLES

pytestmark = pytest.mark.slow  # drives the app with Pilot

SESSION_ID = "75be298c-69f7-4eae-9118-77047fde8a3b"  # the session Claude Code wrote


async def decided_and_exported(pilot: Pilot, notes: list[str], key: str = "a") -> str:
    """Decide the first finding with `key` (`a` approves, `s` skips), export with the dialog's
    defaults, and give the note saying where."""
    await reviewed(pilot)
    await press(pilot, key, "x")
    await until(pilot, lambda: isinstance(pilot.app.screen, ExportDialog), "the export dialog")
    await press(pilot, "enter")
    await until(pilot, lambda: any(note.startswith("Wrote ") for note in notes), "the export")
    (note,) = [note for note in notes if note.startswith("Wrote ")]
    return note


def test_the_export_of_a_claude_code_session_says_where_it_went_and_how_to_resume_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    project = Path.home() / ".claude" / "projects" / "-work-notes"
    project.mkdir(parents=True)
    path = Path(shutil.copy(TOOL_SAMPLES / "claude-code.jsonl", project / f"{SESSION_ID}.jsonl"))
    monkeypatch.chdir(tmp_path)  # the export of a file an agent keeps goes to the current folder

    async def scenario(pilot: Pilot, notes: list[str]) -> None:
        lines = (await decided_and_exported(pilot, notes)).splitlines()
        assert lines[0] == f"Wrote {tmp_path.resolve() / f'{SESSION_ID}.fixed.jsonl'}"
        assert lines[-1] == (
            f"Claude Code reads only its own file: copy the export over {path} (or export again with "
            f"“overwrite the input”, which keeps a backup), then `claude --resume {SESSION_ID}`"
        )

    drive(path, scenario)


def test_the_export_of_a_subagent_s_transcript_names_no_command_to_resume_it(tmp_path: Path, monkeypatch):
    project = Path.home() / ".claude" / "projects" / "-tmp-cc-work"
    shutil.copytree(TOOL_SAMPLES / "claude-code-subagent", project)
    path = next(project.glob("*/subagents/agent-*.jsonl"))
    monkeypatch.chdir(tmp_path)

    async def scenario(pilot: Pilot, notes: list[str]) -> None:
        lines = (await decided_and_exported(pilot, notes)).splitlines()
        assert lines[0] == f"Wrote {tmp_path.resolve() / path.name.replace('.jsonl', '.fixed.jsonl')}"
        assert lines[-1] == (
            f"Claude Code reads only its own file: copy the export over {path} (or export again with "
            "“overwrite the input”, which keeps a backup)"
        )

    drive(path, scenario)


def test_the_export_of_an_opencode_storage_session_is_a_storage_folder_and_says_how_to_resume_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    storage = Path(shutil.copytree(TOOL_SAMPLES / "opencode-storage", Path.home() / ".local/share/opencode/storage"))
    session_id = "ses_ddf1b63fdffeOYSmew4lIfLk5j"
    path = storage / "session" / "global" / f"{session_id}.json"
    monkeypatch.chdir(tmp_path)

    async def scenario(pilot: Pilot, notes: list[str]) -> None:
        lines = (await decided_and_exported(pilot, notes)).splitlines()
        assert lines[0] == f"Wrote {tmp_path.resolve() / 'storage.fixed'}"
        assert (tmp_path / "storage.fixed" / "session" / "global" / path.name).is_file()
        assert lines[-1] == (
            f"OpenCode (JSON storage) reads only its own file: copy the export's files into {storage} (or export "
            f"again with “overwrite the input”, which keeps a backup), then `opencode --session {session_id}`"
        )

    drive(path, scenario)


def test_the_boxes_of_the_export_dialog_read_ticked_or_not_without_colour(tmp_path: Path):
    path = Path(shutil.copy(TOOL_SAMPLES / "claude-code.jsonl", tmp_path / "claude-code.jsonl"))

    async def scenario(pilot: Pilot, notes: list[str]) -> None:
        await reviewed(pilot)
        await press(pilot, "x")
        await until(pilot, lambda: isinstance(pilot.app.screen, ExportDialog), "the export dialog")
        overwrite, openai = pilot.app.screen.query(Checkbox)
        assert overwrite.render().plain.startswith("▐ ▌ overwrite the input")
        overwrite.focus()
        await press(pilot, "space")
        assert overwrite.value and overwrite.render().plain.startswith("▐X▌ overwrite the input")
        assert openai.render().plain.startswith("▐ ▌ as OpenAI")

    drive(path, scenario)


def test_the_export_says_where_it_kept_the_findings_skipped(session_copy: Path):
    async def scenario(pilot: Pilot, notes: list[str]) -> None:
        note = await decided_and_exported(pilot, notes, "s")
        out = Path(note.splitlines()[0].removeprefix("Wrote "))
        baseline = out.with_name(out.name + ".baseline.ndjson")
        assert f"the findings you skipped: {baseline} (`inspector scan` leaves them out)" in note.splitlines()
        assert baseline.is_file()

    drive(session_copy, scenario)


def test_an_export_over_the_input_says_how_to_undo_it_and_undo_puts_the_input_back(tmp_path: Path, capsys):
    path = Path(shutil.copy(TOOL_SAMPLES / "claude-code.jsonl", tmp_path / "claude-code.jsonl"))
    original = path.read_bytes()

    async def scenario(pilot: Pilot, notes: list[str]) -> None:
        await reviewed(pilot)
        await press(pilot, "a", "x")
        await until(pilot, lambda: isinstance(pilot.app.screen, ExportDialog), "the export dialog")
        overwrite, _ = pilot.app.screen.query(Checkbox)
        overwrite.focus()
        await press(pilot, "space", "enter")
        await until(pilot, lambda: any(note.startswith("Wrote ") for note in notes), "the export")
        (note,) = [note for note in notes if note.startswith("Wrote ")]
        lines = note.splitlines()
        assert lines[0] == f"Wrote {path.resolve()}" and f"backup of the input: {path}.bak" in lines
        assert f"`inspector undo {path.resolve()}` reverts it" in lines

    drive(path, scenario)
    assert path.read_bytes() != original
    assert main(["undo", str(path)]) == 0
    assert path.read_bytes() == original and "put back" in capsys.readouterr().out
