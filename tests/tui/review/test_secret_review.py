"""A `secret` finding through the app's review flow (Pilot): the finding panel names the secret's
kind, never the secret; one approved and one skipped, the export masks only the approved one, and
neither its audit nor the review file the decisions are kept in holds either; a mask edited in
the fix editor is what the export writes, in the text and the call's arguments alike."""

from __future__ import annotations

import json
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Input

from inspector.review.review_file import review_path_for
from inspector.tui.dialogs.export import ExportDialog
from inspector.tui.review.editor import FixEditor
from tests.helpers.app import drive, finding_text, reviewed, selected
from tests.helpers.pilot import press, until

GITHUB = "ghp_1234567890abcdefghijABCDEFGHIJ123456"
OPENAI = "sk-proj-Abc123def456GHI789jkl012MNO345pqr678"


def test_a_secret_approved_is_masked_and_one_skipped_is_kept(tmp_path: Path):
    path = tmp_path / "session.json"
    messages = [
        {"role": "user", "content": f"my token is {GITHUB}"},
        {"role": "assistant", "content": "Noted."},
        {"role": "user", "content": f"and my key is {OPENAI}"},
        {"role": "assistant", "content": "Noted too."},
    ]
    path.write_text(json.dumps({"messages": messages}), encoding="utf-8")
    out = tmp_path / "out.json"

    async def scenario(pilot: Pilot, notes: list[str]) -> None:
        screen = await reviewed(pilot)
        assert selected(pilot) == 0
        shown = finding_text(pilot)
        assert "secret" in shown and "GitHub token" in shown and GITHUB not in shown
        await press(pilot, "a")  # approve the token, which moves on to the key
        assert screen.review.status(0, 0) == "approved" and selected(pilot) == 2
        await press(pilot, "s")
        assert screen.review.status(0, 1) == "skipped"
        await _export_to(pilot, out)
        assert notes[-1].startswith(f"Wrote {out}") and "1 fix applied" in notes[-1]

    drive(path, scenario)
    written = out.read_text(encoding="utf-8")
    assert GITHUB not in written and "[REDACTED:github-token]" in written
    assert OPENAI in written  # skipped: kept as it was
    audit = (tmp_path / "out.json.audit.ndjson").read_text(encoding="utf-8")
    assert GITHUB not in audit and OPENAI not in audit
    decisions = review_path_for(path).read_text(encoding="utf-8")
    assert GITHUB not in decisions and OPENAI not in decisions


def test_the_mask_edited_in_the_editor_is_what_the_export_writes_everywhere(tmp_path: Path):
    path = tmp_path / "session.json"
    call = {"id": "c1", "type": "function", "function": {"name": "login", "arguments": json.dumps({"token": GITHUB})}}
    messages = [
        {"role": "user", "content": "log in"},
        {"role": "assistant", "content": f"Logging in with {GITHUB}.", "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "c1", "content": "ok"},
        {"role": "assistant", "content": "Done."},
    ]
    path.write_text(json.dumps({"messages": messages}), encoding="utf-8")
    out = tmp_path / "out.json"

    async def scenario(pilot: Pilot, notes: list[str]) -> None:
        screen = await reviewed(pilot)
        assert "secret" in finding_text(pilot)
        await press(pilot, "e")
        await until(pilot, lambda: isinstance(pilot.app.screen, FixEditor), "the fix editor")
        mask = pilot.app.screen.query_one("#mask", Input)
        assert mask.value == "[REDACTED:github-token]"
        mask.value = "[REDACTED:my-key]"
        await press(pilot, "ctrl+s")
        await until(pilot, lambda: not isinstance(pilot.app.screen, FixEditor), "the editor closed")
        assert screen.review.status(0, 0) == "edited"
        await _export_to(pilot, out)
        assert notes[-1].startswith(f"Wrote {out}")

    drive(path, scenario)
    written = json.loads(out.read_text(encoding="utf-8"))
    reply = written["messages"][1]
    assert reply["content"] == "Logging in with [REDACTED:my-key]."
    assert json.loads(reply["tool_calls"][0]["function"]["arguments"]) == {"token": "[REDACTED:my-key]"}
    assert GITHUB not in out.read_text(encoding="utf-8")
    assert "github-token" not in out.read_text(encoding="utf-8")
    audit = (tmp_path / "out.json.audit.ndjson").read_text(encoding="utf-8")
    assert GITHUB not in audit and "[REDACTED:my-key]" in audit
    decisions = review_path_for(path).read_text(encoding="utf-8")
    assert GITHUB not in decisions and "[REDACTED:my-key]" in decisions


async def _export_to(pilot: Pilot, out: Path) -> None:
    """Export the review into `out` through the dialog, and wait until it is written."""
    await press(pilot, "x")
    await until(pilot, lambda: isinstance(pilot.app.screen, ExportDialog), "the export dialog")
    pilot.app.screen.query_one("#path", Input).value = str(out)
    await press(pilot, "enter")
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
