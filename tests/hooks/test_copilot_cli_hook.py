"""`inspector hook copilot-cli` (GitHub Copilot CLI's Stop hook), run as Copilot CLI runs it (the
input as JSON on stdin, the decision read from stdout) on the events file Copilot CLI 1.0.102 wrote
with the hook installed (`sessions/hooks/copilot-cli-hook-block.jsonl`: a fake result, the hook's
`hook.start`, then the reason as the next prompt, the real call and the closing reply); the wait
for an events file Copilot CLI writes after it starts the hook; and `hook install copilot-cli`."""

from __future__ import annotations

import io
import json
import threading
import time
from pathlib import Path
from typing import Any

from inspector.cli.main import main
from tests.helpers.samples import TOOL_SAMPLES

BLOCK_RUN = (TOOL_SAMPLES / "hooks" / "copilot-cli-hook-block.jsonl").read_bytes().splitlines(keepends=True)
FAKE_RESULT_END = 8  # the lines up to the hook's first `hook.start`, as the hook finds them
CLEAN_RUN = TOOL_SAMPLES / "hooks" / "copilot-cli-hook-clean.jsonl"
REASON_START = "Your reply contains a tool result you wrote yourself; no tool ran. (result-prefix: "


def _call_time(line: bytes) -> str:
    """The ISO 8601 time Copilot CLI gives the Stop hook whose `hook.start` event is `line`."""
    milliseconds = json.loads(line)["data"]["input"]["timestamp"]
    seconds, rest = divmod(milliseconds, 1000)
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds)) + f".{rest:03d}Z"


def stop_input(events: Path, when: str, active: bool = False) -> dict[str, Any]:
    """The input Copilot CLI gives a Stop hook (the event named as Claude Code names it)."""
    return {
        "hook_event_name": "Stop",
        "session_id": "6fb83df4-efa9-416c-9509-0fb4e8d12706",
        "timestamp": when,
        "cwd": str(events.parent),
        "transcript_path": str(events),
        "stop_reason": "end_turn",
        "stop_hook_active": active,
    }


def run_hook(monkeypatch, capsys, hook_input: dict[str, Any]) -> tuple[int, dict[str, Any] | None, str]:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(json.dumps(hook_input).encode())))
    code = main(["hook", "copilot-cli"])
    out, err = capsys.readouterr()
    return code, json.loads(out) if out.strip() else None, err


def test_a_fake_result_is_blocked_and_the_reply_after_the_block_is_left(tmp_path, monkeypatch, capsys):
    events = tmp_path / "events.jsonl"
    events.write_bytes(b"".join(BLOCK_RUN[:FAKE_RESULT_END]))
    code, answer, err = run_hook(monkeypatch, capsys, stop_input(events, _call_time(BLOCK_RUN[FAKE_RESULT_END - 1])))
    assert (code, err) == (0, "")
    assert answer is not None and answer["decision"] == "block" and answer["reason"].startswith(REASON_START)
    events.write_bytes(b"".join(BLOCK_RUN))  # the reason sent as the next prompt, the real call, the closing reply
    second = next(line for line in reversed(BLOCK_RUN) if b'"hook.start"' in line)
    assert run_hook(monkeypatch, capsys, stop_input(events, _call_time(second), active=True)) == (0, None, "")


def test_the_hook_waits_for_the_events_copilot_writes_after_starting_it(tmp_path, monkeypatch, capsys):
    events = tmp_path / "events.jsonl"  # not there yet when the hook starts: Copilot CLI writes it a moment later
    writer = threading.Timer(0.3, events.write_bytes, (b"".join(BLOCK_RUN[:FAKE_RESULT_END]),))
    writer.start()
    try:
        code, answer, err = run_hook(
            monkeypatch, capsys, stop_input(events, _call_time(BLOCK_RUN[FAKE_RESULT_END - 1]))
        )
    finally:
        writer.join()
    assert (code, err) == (0, "")
    assert answer is not None and answer["decision"] == "block"


def test_a_clean_reply_is_left_alone(monkeypatch, capsys):
    last_call = next(line for line in reversed(CLEAN_RUN.read_bytes().splitlines()) if b'"hook.start"' in line)
    assert run_hook(monkeypatch, capsys, stop_input(CLEAN_RUN, _call_time(last_call))) == (0, None, "")


def test_install_writes_a_hooks_file_of_its_own_and_uninstall_removes_it(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("COPILOT_HOME", str(tmp_path / "copilot"))
    hooks = tmp_path / "copilot" / "hooks"
    hooks.mkdir(parents=True)
    theirs = hooks / "theirs.json"
    theirs.write_text('{"version": 1, "hooks": {"sessionEnd": [{"type": "command", "bash": "notify-send done"}]}}\n')
    assert main(["hook", "install", "copilot-cli"]) == 0
    (entry,) = json.loads((hooks / "inspector.json").read_text())["hooks"]["Stop"]
    assert entry["type"] == "command" and entry["bash"].endswith(" -m inspector.hooks copilot-cli")
    assert main(["hook", "install", "copilot-cli"]) == 0
    assert "already installed" in capsys.readouterr().out
    assert main(["hook", "status"]) == 0
    assert f"copilot-cli user: {hooks / 'inspector.json'}: installed" in capsys.readouterr().out
    assert main(["hook", "uninstall", "copilot-cli"]) == 0
    assert sorted(path.name for path in hooks.iterdir()) == ["theirs.json"]
    assert theirs.read_text().startswith('{"version": 1')


def test_install_in_the_project_and_uninstall_leave_the_folder_as_it_was(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["hook", "install", "copilot-cli", "--project"]) == 0
    assert (tmp_path / ".github" / "hooks" / "inspector.json").exists()
    assert main(["hook", "uninstall", "copilot-cli", "--project"]) == 0
    assert not (tmp_path / ".github" / "hooks").exists()


def test_a_file_of_that_name_that_is_not_the_inspectors_is_left_alone(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("COPILOT_HOME", str(tmp_path))
    (tmp_path / "hooks").mkdir()
    mine = tmp_path / "hooks" / "inspector.json"
    mine.write_text('{"version": 1, "hooks": {"Stop": [{"type": "command", "bash": "echo mine"}]}}')
    assert main(["hook", "install", "copilot-cli"]) == 2
    assert "not the inspector's hooks file" in capsys.readouterr().err
    assert main(["hook", "uninstall", "copilot-cli"]) == 0
    assert "not installed there" in capsys.readouterr().out
    assert mine.read_text().endswith('"echo mine"}]}}')
