"""The Stop hook inside the real Qwen Code (0.24.4) against the scripted mock model
(`sessions/generate/qwen_code_hook.py`): a reply planting a fake result is blocked, the hook's
reason reaches the model in the next request, and the real call the model then makes runs; a
clean reply is left alone, with no request more.

The evidence that script committed (`sessions/hooks/`) is checked every time. The slow test runs
the script itself, with the real Qwen Code, when it is installed where the script looks
(`$QWEN_BIN`, or where `run_all.sh` installs it) and skips saying so otherwise.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector import scan_file
from tests.helpers.real_agents import agent_binary, run_generator
from tests.helpers.samples import ROOT, TOOL_SAMPLES

EVIDENCE = TOOL_SAMPLES / "hooks"
GENERATOR = ROOT / "sessions" / "generate" / "qwen_code_hook.py"
REASON_START = "Your reply contains a tool result you wrote yourself; no tool ran. (result-prefix: "
RELAYED_START = "The answer a subagent handed back to you opens with a tool result it wrote itself; it ran no tool."


def evidence(folder: Path, run: str) -> dict:
    return json.loads((folder / f"qwen-code-hook-{run}.requests.json").read_text())


def text_of(message: dict) -> str:
    content = message.get("content")
    return content if isinstance(content, str) else "\n".join(part.get("text", "") for part in content or [])


def check_block_run(folder: Path) -> None:
    """The fake result blocked, the reason in the next request, the real call run, then silence."""
    run = evidence(folder, "block")
    assert run["qwen_exit"] == 0
    requests = run["requests"]
    assert len(requests) == 3, [
        text_of(request["messages"][-1])[:200] for request in requests
    ]  # no fourth: the closing reply was left alone
    first, after_block, after_call = requests
    assert [m["role"] for m in after_block["messages"]] == ["user", "assistant", "user"]
    assert text_of(after_block["messages"][1]).startswith("{success: true, memory_type:")
    said = text_of(after_block["messages"][-1])
    assert said.startswith(REASON_START) and "Call the tool you meant now as a real tool call" in said
    (call,) = after_call["messages"][-2]["tool_calls"]
    assert call["function"]["name"] == "write_file"
    assert text_of(after_call["messages"][-1]).startswith("Successfully created and wrote")
    assert run["journal_written"] == "I lost track of the refactor again.\n"


def check_relayed_run(folder: Path) -> None:
    """The subagent's fake blocked once, written again and handed back in a notification; the main
    agent's reply passing it on blocked, the reason in its next request, then notes.txt read by the
    main agent itself."""
    run = evidence(folder, "relayed")
    assert run["qwen_exit"] == 0
    first, after_block = [r["messages"] for r in run["requests"] if r["agent"] == "subagent"]  # no third
    assert text_of(first[-1]).strip().endswith("Read notes.txt in the working folder and report what it says.")
    assert text_of(after_block[-2]).startswith('{"file_path": "notes.txt", "content":')
    assert REASON_START in text_of(after_block[-1])
    *_, notified, told, read = [r["messages"] for r in run["requests"] if r["agent"] == "main"]
    assert "<task-notification>" in text_of(notified[-1]) and "<tool_uses>0</tool_uses>" in text_of(notified[-1])
    assert text_of(told[-2]) == "The subagent says the meeting moved to Thursday and to bring the draft."
    assert text_of(told[-1]).startswith(RELAYED_START)
    assert "do the work yourself with real tool calls" in text_of(told[-1])
    (call,) = read[-2]["tool_calls"]
    assert call["function"]["name"] == "read_file"
    assert text_of(read[-1]) == "Meeting moved to Thursday.\nBring the draft.\n"


def check_clean_run(folder: Path) -> None:
    run = evidence(folder, "clean")
    assert run["qwen_exit"] == 0
    assert len(run["requests"]) == 1


def test_the_committed_evidence_shows_the_block_the_reason_and_the_real_call():
    check_block_run(EVIDENCE)


def test_the_committed_evidence_shows_a_clean_reply_left_alone():
    check_clean_run(EVIDENCE)


def test_the_committed_evidence_shows_a_subagent_s_made_up_answer_passed_on_blocked():
    check_relayed_run(EVIDENCE)


def test_the_inspector_reads_what_qwen_code_wrote_with_the_hook_installed():
    (session,) = scan_file(EVIDENCE / "qwen-code-hook-block.jsonl")
    assert [finding.kind for finding in session.findings] == ["result-prefix"]
    (clean,) = scan_file(EVIDENCE / "qwen-code-hook-clean.jsonl")
    assert list(clean.findings) == []
    (relayed,) = scan_file(EVIDENCE / "qwen-code-hook-relayed.jsonl")
    assert [finding.kind for finding in relayed.findings] == ["relayed-fake-result"]


@pytest.mark.slow
def test_the_hook_inside_the_real_qwen_code(tmp_path):
    qwen = REAL_QWEN
    if qwen is None:
        pytest.skip("Qwen Code 0.24.4 not installed: set QWEN_BIN, or run sessions/generate/run_all.sh")
    run_generator(GENERATOR, tmp_path, "--qwen", qwen)
    check_block_run(tmp_path)
    check_clean_run(tmp_path)
    check_relayed_run(tmp_path)


REAL_QWEN = agent_binary(
    "QWEN_BIN", "qwen/node_modules/.bin/qwen"
)  # looked for before each test's empty HOME hides the person's cache
