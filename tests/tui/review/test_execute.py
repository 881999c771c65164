"""The execute key (X): only with `inspector PATH --execute CMD`, only on an approved fix, after
asking; the executor's answer is shown, kept in the review file and recorded by the export."""

from __future__ import annotations

import json
import shlex
import shutil
import sys
from pathlib import Path

import pytest
from textual.message import Message
from textual.notifications import Notify
from textual.widgets import Input, Static

from inspector.review.review_file import review_path_for
from inspector.tui.app import InspectorApp
from inspector.tui.dialogs.confirm import Confirm
from inspector.tui.dialogs.export import ExportDialog
from tests.helpers.app import finding_text, play_loaded, selected
from tests.helpers.pilot import press
from tests.helpers.samples import SESSIONS

pytestmark = pytest.mark.slow  # drives the app with Pilot

EXECUTOR = "import json, sys\nrequest = json.load(sys.stdin)\nprint(json.dumps({'saved': request['turn']}))\n"


def run_executing(path: Path, execute: str | None, scenario) -> list[str]:
    """Open `path` at 120x40 with the executor `execute`, play `scenario`; the notifications shown."""
    notes: list[str] = []

    def hook(message: Message) -> None:
        if isinstance(message, Notify):
            notes.append(message.notification.message)

    play_loaded(InspectorApp(path, execute), scenario, message_hook=hook)
    return notes


def test_nothing_runs_without_an_executor(tmp_path: Path):
    path = Path(shutil.copy(SESSIONS / "memory-agent.openai.json", tmp_path / "memory.json"))

    async def scenario(pilot) -> None:
        await press(pilot, "a", "N", "X")
        assert not isinstance(pilot.app.screen, Confirm)

    notes = run_executing(path, None, scenario)
    assert notes[-1].startswith("Nothing runs unless you start the app with an executor: inspector PATH --execute CMD")


def test_an_approved_fix_runs_after_asking_and_the_export_records_the_answer(tmp_path: Path):
    path = Path(shutil.copy(SESSIONS / "memory-agent.openai.json", tmp_path / "memory.json"))
    (tmp_path / "save.py").write_text(EXECUTOR, encoding="utf-8")
    command = shlex.join([sys.executable, str(tmp_path / "save.py")])
    out = tmp_path / "out.json"

    async def scenario(pilot) -> None:
        await press(pilot, "X")
        assert not isinstance(pilot.app.screen, Confirm)  # pending: approve first
        await press(pilot, "a", "N")
        assert selected(pilot) == 6
        await press(pilot, "X")
        question = pilot.app.screen
        assert isinstance(question, Confirm) and "save_memory" in question.question and command in question.question
        await press(pilot, "n")
        assert "ran:" not in finding_text(pilot) and not pilot.app.screen.review.executions(0, 0)
        await press(pilot, "X", "y")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        assert "ran: execute save_memory (turn 6): ok" in finding_text(pilot)
        assert 'result: {"saved": 6}' in finding_text(pilot)

        await press(pilot, "x")
        assert isinstance(pilot.app.screen, ExportDialog)
        pilot.app.screen.query_one("#path", Input).value = str(out)
        await press(pilot, "enter")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()

    notes = run_executing(path, command, scenario)
    assert "execute save_memory (turn 6): ok" in notes
    messages = json.loads(out.read_text())["messages"]
    answers = {m["tool_call_id"]: m["content"] for m in messages if m["role"] == "tool"}
    assert json.loads(answers["call_inspector_6_0"]) == {"saved": 6}
    (entry,) = [json.loads(line) for line in out.with_name("out.json.audit.ndjson").read_text().splitlines()]
    assert [(e["call_id"], e["ok"], e["result"]) for e in entry["executions"]] == [
        ("call_inspector_6_0", True, {"saved": 6})
    ]


def test_while_the_calls_run_the_screen_stays_open_and_the_export_waits(tmp_path: Path):
    path = Path(shutil.copy(SESSIONS / "memory-agent.openai.json", tmp_path / "memory.json"))
    go = tmp_path / "go"
    (tmp_path / "slow.py").write_text(
        f"import pathlib, time\nwhile not pathlib.Path({str(go)!r}).exists():\n    time.sleep(0.02)\n" + EXECUTOR,
        encoding="utf-8",
    )
    command = shlex.join([sys.executable, str(tmp_path / "slow.py")])
    screen = None

    async def scenario(pilot) -> None:
        nonlocal screen
        screen = pilot.app.screen
        await press(pilot, "a", "N", "X", "y")  # the executor now waits for `go`
        await press(pilot, "escape", "x")
        assert pilot.app.screen is screen  # not left, and no export dialog: the answers would land on a closed screen
        go.write_text("")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        assert "ran: execute save_memory (turn 6): ok" in finding_text(pilot)
        await press(pilot, "escape")
        assert pilot.app.screen is not screen

    notes = run_executing(path, command, scenario)
    assert notes.count("The recovered calls are running: wait for their answers") == 2
    saved = json.loads(review_path_for(path).read_text())
    assert [run["output"] for entry in saved["executions"] for run in entry["runs"]] == [{"saved": 6}]


def repair_text(pilot) -> str:
    return str(pilot.app.screen.query_one("#repair", Static).visual)


def test_after_running_the_repair_pane_shows_the_result_not_not_executed(tmp_path: Path):
    path = Path(shutil.copy(SESSIONS / "memory-agent.openai.json", tmp_path / "memory.json"))
    (tmp_path / "save.py").write_text(EXECUTOR, encoding="utf-8")
    (tmp_path / "fail.py").write_text("import sys\nsys.exit(3)\n", encoding="utf-8")

    async def scenario(pilot) -> None:
        await press(pilot, "a", "N")
        assert "Recovered call, not executed save_memory" in repair_text(pilot)
        await press(pilot, "X", "y")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        assert "not executed" not in repair_text(pilot)
        assert "Recovered call, executed save_memory" in repair_text(pilot)
        assert 'Result from your executor\n{"saved": 6}' in repair_text(pilot)

    run_executing(path, shlex.join([sys.executable, str(tmp_path / "save.py")]), scenario)

    async def failing(pilot) -> None:
        assert selected(pilot) == 8  # resumed on the first pending finding
        await press(pilot, "a", "N")  # approved, and selected again
        assert selected(pilot) == 8 and "Recovered call, not executed" in repair_text(pilot)
        await press(pilot, "X", "y")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        assert "Recovered call, run with an error" in repair_text(pilot) and "not executed" not in repair_text(pilot)
        assert "exit" in repair_text(pilot).split("Result from your executor\n")[1]

    run_executing(path, shlex.join([sys.executable, str(tmp_path / "fail.py")]), failing)
