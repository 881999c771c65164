"""The app takes `scan`'s options on how to read the input: `--tools FILE` (the review checks the
calls against them, as `scan` does) and `--format NAME`, beside `--table/--map`; a bad one is
`scan`'s own one-line error and exit 2, before any screen."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.pilot import Pilot

from inspector.cli.main import main
from inspector.sources import load_sessions
from inspector.tui.app import InspectorApp
from inspector.tui.dialogs.export import ExportDialog
from inspector.tui.review.screen import ReviewScreen
from tests.helpers.pilot import play
from tests.helpers.tools import SAVE_MEMORY

pytestmark = pytest.mark.slow  # drives the app with Pilot

# a call of a tool the session does not define (it defines none): only --tools can tell it is misnamed
TYPO_CALL = [
    {"role": "user", "content": "Remember that I take the 7:40 train."},
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "c1",
                "type": "function",
                "function": {
                    "name": "save_memroy",
                    "arguments": json.dumps({"memory_type": "fact", "content": "Takes the 7:40 train."}),
                },
            }
        ],
    },
    {"role": "tool", "tool_call_id": "c1", "content": "saved"},
    {"role": "assistant", "content": "Noted: the 7:40 train."},
]
# a file that two formats claim: `scan` refuses it, asking for --format
BOTH = {
    "session_id": "s1",
    "entries": [{"role": "user", "content": "hi"}],
    "contents": [
        {"role": "user", "parts": [{"text": "hi"}]},
        {"role": "model", "parts": [{"text": '{success: true, saved: "hi"}Saved it.'}]},
    ],
}


def write(path: Path, document) -> Path:
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def test_tools_given_to_the_app_are_checked_against_in_the_review(tmp_path: Path, opened: list[InspectorApp]):
    session = write(tmp_path / "train.openai.json", {"messages": TYPO_CALL})
    tools = write(tmp_path / "tools.json", [SAVE_MEMORY])
    out = tmp_path / "train.fixed.openai.json"

    assert main([str(session)]) == 0
    kinds: list[str] = []

    async def without_tools(pilot: Pilot) -> None:
        kinds.extend(finding.kind for finding in pilot.app.screen.review.findings(0))

    play(opened[-1], without_tools, settled=True)
    assert "unknown-tool" not in kinds  # nothing defines a tool: nothing to check the call against

    assert main([str(session), "--tools", str(tools)]) == 0

    async def with_tools(pilot: Pilot) -> None:
        screen = pilot.app.screen
        assert isinstance(screen, ReviewScreen)
        assert [finding.kind for finding in screen.review.findings(0)] == ["unknown-tool"]
        assert screen.review.tool(0, "save_memory") is not None  # what the editor checks arguments against
        await pilot.press("a", "x")
        assert isinstance(pilot.app.screen, ExportDialog)
        await pilot.press("enter")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()

    play(opened[-1], with_tools, settled=True)
    calls = [call.name for turn in load_sessions(out)[0].turns for call in turn.tool_calls]
    assert calls == ["save_memory"]


def test_format_given_to_the_app_reads_a_file_two_formats_claim(tmp_path: Path, capsys, opened: list[InspectorApp]):
    both = write(tmp_path / "both.json", BOTH)
    assert main(["scan", str(both)]) == 2
    scanned = capsys.readouterr().err
    assert main([str(both)]) == 2 and not opened  # refused before any screen, as scan refuses it
    assert capsys.readouterr().err == scanned and "name one with --format" in scanned

    assert main([str(both), "--format", "gemini"]) == 0

    async def as_gemini(pilot: Pilot) -> None:
        screen = pilot.app.screen
        assert isinstance(screen, ReviewScreen) and screen.session.format == "gemini"
        assert [finding.kind for finding in screen.review.findings(0)] == ["result-prefix"]

    play(opened[-1], as_gemini, settled=True)


@pytest.mark.parametrize(
    "options",
    [
        ["--tools", "{tmp}/missing.json"],
        ["--tools", "{tmp}/no-tools.json"],
        ["--format", "anthropic"],
    ],
    ids=["no-such-tools-file", "no-tool-definitions", "not-that-format"],
)
def test_bad_tools_or_format_fail_as_scan_does_before_the_app_starts(tmp_path: Path, capsys, opened, options):
    session = write(tmp_path / "train.openai.json", {"messages": TYPO_CALL})
    write(tmp_path / "no-tools.json", [{"note": "not a tool"}])
    options = [option.format(tmp=tmp_path) for option in options]
    assert main(["scan", str(session), *options]) == 2
    scanned = capsys.readouterr().err
    assert main([str(session), *options]) == 2 and not opened
    error = capsys.readouterr().err
    assert error == scanned and error.startswith("inspector: error: ") and error.count("\n") == 1


def test_format_without_a_path_is_refused_in_one_line(capsys, opened):
    assert main(["--format", "openai"]) == 2 and not opened
    assert capsys.readouterr().err == (
        "inspector: error: --format can only be used with the path of a file or database\n"
    )


def test_the_apps_help_names_scans_reading_options(capsys):
    with pytest.raises(SystemExit):
        main(["x.json", "--help"])
    usage = " ".join(capsys.readouterr().out.split())
    assert "[--tools FILE] [--format NAME]" in usage
    assert "--format NAME read the input as this format instead of detecting it: session-dump, gemini," in usage
