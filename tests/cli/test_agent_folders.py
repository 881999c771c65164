"""A folder given by its path that is one of the agents' own, or holds one, stands for the sessions
they keep there (the real tools' files, under a temporary home folder): `inspector scan ~/.claude`
reads each project's sessions and their subagents' transcripts and not the settings or the prompt
history beside them, which are no sessions; `~/.codex` its rollouts; the home folder both; a folder
inside an agent's place (`~/.codex/sessions/2026`) the sessions under it alone. A copy of an agent's
folder elsewhere (a Codex `sessions` tree, OpenCode's `storage`, a home folder's `.claude`) is read
as its agent lays its sessions out. The app and `search` read such a folder alike. A folder holding
neither session files nor an agent's sessions is refused in one line, which names the folders
below it that hold session files."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable, Static

from inspector.cli.main import main
from inspector.tui.app import InspectorApp
from inspector.tui.picker.found import FoundPicker
from inspector.tui.picker.screen import PickerScreen
from tests.helpers.pilot import play, rows
from tests.helpers.samples import TOOL_SAMPLES

SESSION = "96771fa5-273c-4ee7-9ace-b7f1e823acb7"
SUBAGENT = "agent-a2e34ec84a76856d1.jsonl"
ROLLOUT = "rollout-2026-11-20T10-00-00-01a20b89-3790-7752-a0ad-e1b340dd9094.jsonl"
OLDER_ROLLOUT = "rollout-2025-03-02T09-00-00-01a20b89-3790-7752-a0ad-e1b340dd9094.jsonl"


@pytest.fixture
def agents_home(empty_home: Path) -> Path:
    """The home folder with a Claude Code project (a session that ran a subagent, beside Claude
    Code's settings and prompt history) and two Codex rollouts, one in 2025, one in 2026."""
    claude = empty_home / ".claude"
    shutil.copytree(TOOL_SAMPLES / "claude-code-subagent", claude / "projects" / "-home-me-work")
    (claude / "settings.json").write_text('{"theme": "dark", "model": "opus"}\n', encoding="utf-8")
    (claude / "history.jsonl").write_text('{"display": "fix the tests", "timestamp": 1}\n', encoding="utf-8")
    sessions = empty_home / ".codex" / "sessions"
    for day, name in (("2026/11/20", ROLLOUT), ("2025/03/02", OLDER_ROLLOUT)):
        (sessions / day).mkdir(parents=True)
        shutil.copy(TOOL_SAMPLES / "codex.rollout.jsonl", sessions / day / name)
    return empty_home


def _scanned(folder: Path, capsys) -> list[str]:
    """The names of the files `scan --json FOLDER` reports a session of, sorted; no error said."""
    code = main(["scan", "--json", "--no-cache", str(folder)])
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert code == 1 and report["errors"] == [] and captured.err == ""  # every sample holds findings
    return sorted(Path(session["path"]).name for session in report["sessions"])


def test_an_agents_own_folder_stands_for_its_sessions_and_not_its_other_files(agents_home: Path, capsys):
    claude = [f"{SESSION}.jsonl", SUBAGENT]
    assert _scanned(agents_home / ".claude", capsys) == claude
    assert _scanned(agents_home / ".claude" / "projects", capsys) == claude
    assert _scanned(agents_home / ".codex", capsys) == sorted([ROLLOUT, OLDER_ROLLOUT])
    assert _scanned(agents_home, capsys) == sorted([*claude, ROLLOUT, OLDER_ROLLOUT])


def test_a_folder_inside_an_agents_place_stands_for_the_sessions_under_it(agents_home: Path, capsys):
    assert _scanned(agents_home / ".codex" / "sessions" / "2026", capsys) == [ROLLOUT]
    assert _scanned(agents_home / ".codex" / "sessions" / "2025" / "03", capsys) == [OLDER_ROLLOUT]


def test_a_folder_holding_agents_places_that_keep_nothing_stands_for_its_own_session_files(empty_home: Path, capsys):
    shutil.copy(TOOL_SAMPLES / "codex.rollout.jsonl", empty_home / "saved.jsonl")  # no agent's folder in it
    assert _scanned(empty_home, capsys) == ["saved.jsonl"]


def test_a_folder_with_neither_session_files_nor_an_agents_sessions_is_refused_in_one_line(
    agents_home: Path, tmp_path: Path, capsys
):
    (tmp_path / "empty" / "nested").mkdir(parents=True)
    assert main(["scan", str(tmp_path / "empty")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no session files" in err and "nor an agent's sessions" in err


def test_a_copy_of_an_agents_folder_is_read_as_the_agent_lays_it_out(agents_home: Path, tmp_path: Path, capsys):
    shutil.copytree(agents_home / ".codex" / "sessions", tmp_path / "laptop" / "sessions")
    assert _scanned(tmp_path / "laptop" / "sessions", capsys) == sorted([ROLLOUT, OLDER_ROLLOUT])
    shutil.copytree(agents_home / ".claude", tmp_path / "backup" / ".claude")
    assert _scanned(tmp_path / "backup", capsys) == [f"{SESSION}.jsonl"]  # a copy's subagents are not looked for
    shutil.copytree(TOOL_SAMPLES / "opencode-storage", tmp_path / "opencode-storage")
    assert _scanned(tmp_path / "opencode-storage", capsys) == ["ses_ddf1b63fdffeOYSmew4lIfLk5j.json"]


def test_the_line_refusing_a_folder_names_the_folders_below_it_that_hold_session_files(tmp_path: Path, capsys):
    runs = tmp_path / "eval runs"
    for day in ("monday", "tuesday"):
        (runs / "batch" / day).mkdir(parents=True)
        shutil.copy(TOOL_SAMPLES / "codex.rollout.jsonl", runs / "batch" / day / "run.jsonl")
    assert main(["scan", str(runs)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"give those folders, as '{runs}'/*/*/" in err
    assert main(["scan", "--json", *map(str, sorted(runs.glob("*/*/")))]) == 1  # the folders it names
    assert len(json.loads(capsys.readouterr().out)["sessions"]) == 2


def test_search_reads_an_agents_folder_as_scan_does(agents_home: Path, capsys):
    assert main(["search", "--json", "", str(agents_home / ".claude")]) == 0
    captured = capsys.readouterr()
    index = json.loads(captured.out)["index"]
    assert (index["files"], index["errors"], captured.err) == (4, [], "")  # the settings and history left out


def test_search_refuses_a_folder_holding_no_session_in_one_line(agents_home: Path, tmp_path: Path, capsys):
    (tmp_path / "empty").mkdir()
    assert main(["search", "hello", str(tmp_path / "empty")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "empty: no session files" in err


def test_the_app_lists_the_sessions_of_an_agents_folder_as_it_lists_yours(agents_home: Path):
    async def scenario(pilot: Pilot) -> None:
        screen = pilot.app.screen
        assert isinstance(screen, FoundPicker)
        title = str(screen.query_one("#title", Static).visual)
        assert title == f"Your sessions in {agents_home / '.claude'}, newest first (1 Claude Code) · Enter opens one"
        assert [row[:2] for row in rows(screen.query_one(DataTable))] == [["Claude Code", "/tmp/cc-work"]]

    play(InspectorApp(agents_home / ".claude"), scenario, settled=True)


def test_the_app_lists_any_other_folder_by_its_files(agents_home: Path, tmp_path: Path):
    shutil.copytree(agents_home / ".codex" / "sessions" / "2026" / "11" / "20", tmp_path / "saved")

    async def scenario(pilot: Pilot) -> None:
        screen = pilot.app.screen
        assert isinstance(screen, PickerScreen) and not isinstance(screen, FoundPicker)
        assert [row[0] for row in rows(screen.query_one(DataTable))] == [ROLLOUT]

    play(InspectorApp(tmp_path / "saved"), scenario, settled=True)


def test_a_copy_of_an_agents_folder_under_another_name_is_read_as_the_agent_lays_it_out_not_by_its_settings(
    agents_home: Path, tmp_path: Path, capsys
):
    shutil.copytree(agents_home / ".claude", tmp_path / "claude from the laptop")  # settings.json, history.jsonl
    assert _scanned(tmp_path / "claude from the laptop", capsys) == [f"{SESSION}.jsonl"]
    shutil.copytree(agents_home / ".codex", tmp_path / "codex-backup")
    (tmp_path / "codex-backup" / "history.jsonl").write_text('{"session_id": "s", "text": "hi"}\n', encoding="utf-8")
    assert _scanned(tmp_path / "codex-backup", capsys) == sorted([ROLLOUT, OLDER_ROLLOUT])


def test_a_folder_with_a_session_file_of_its_own_beside_a_copied_place_is_read_by_its_files(
    agents_home: Path, tmp_path: Path, capsys
):
    shutil.copytree(agents_home / ".claude", tmp_path / "mixed")
    (tmp_path / "mixed" / "settings.json").unlink()
    (tmp_path / "mixed" / "history.jsonl").unlink()
    shutil.copy(TOOL_SAMPLES / "codex.rollout.jsonl", tmp_path / "mixed" / "saved.jsonl")
    assert _scanned(tmp_path / "mixed", capsys) == ["saved.jsonl"]
