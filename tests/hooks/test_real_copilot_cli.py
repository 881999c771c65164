"""The Stop hook inside the real GitHub Copilot CLI (1.0.102) against the scripted mock model
(`sessions/generate/copilot_cli_hook.py`): a reply planting a fake result is blocked, the hook's
reason reaches the model as the next prompt, and the real call the model then makes runs; a clean
reply is left alone, with no request more.

The evidence that script committed (`sessions/hooks/`) is checked every time. The slow test runs
the script itself, with the real Copilot CLI, when it is installed where the script looks
(`$COPILOT_BIN`, or where `run_all.sh` installs it) and skips saying so otherwise.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector import scan_file
from tests.helpers.real_agents import agent_binary, run_generator
from tests.helpers.samples import ROOT, TOOL_SAMPLES

EVIDENCE = TOOL_SAMPLES / "hooks"
GENERATOR = ROOT / "sessions" / "generate" / "copilot_cli_hook.py"
REASON_START = "Your reply contains a tool result you wrote yourself; no tool ran. (result-prefix: "
RELAYED_START = "The answer a subagent handed back to you opens with a tool result it wrote itself; it ran no tool."


def evidence(folder: Path, run: str) -> dict:
    return json.loads((folder / f"copilot-cli-hook-{run}.requests.json").read_text())


def check_block_run(folder: Path) -> None:
    """The fake result blocked, the reason in the next request, the real call run, then silence."""
    run = evidence(folder, "block")
    assert run["copilot_exit"] == 0
    first, after_block, after_call = run["requests"]  # no fourth: the closing reply was left alone
    *_, fake, reason = after_block["messages"]
    assert fake["role"] == "assistant" and fake["content"].startswith("{success: true, memory_type:")
    assert reason["role"] == "user" and REASON_START in reason["content"]  # queued as the next prompt
    assert "Call the tool you meant now as a real tool call" in reason["content"]
    *_, call, result = after_call["messages"]
    assert call["role"] == "assistant" and "journal.txt" in call["tool_calls"][0]["function"]["arguments"]
    assert result["role"] == "tool" and "exit code 0" in result["content"]
    assert run["journal_written"] == "I lost track of the refactor again.\n"
    assert REASON_START in (folder / "copilot-cli-hook-block.jsonl").read_text()  # kept as a user.message


def check_relayed_run(folder: Path) -> None:
    """The subagent's fake, the `task` call's result, passed on by the main agent; that reply
    blocked, the reason queued as the next prompt, then notes.txt viewed by the main agent itself."""
    run = evidence(folder, "relayed")
    assert run["copilot_exit"] == 0
    (asked,) = [request["messages"] for request in run["requests"] if request["agent"] == "subagent"]
    assert asked[-1]["content"].endswith("Read notes.txt in the working folder and report what it says.")
    first, passed, told, read = [request["messages"] for request in run["requests"] if request["agent"] == "main"]
    assert passed[-1]["role"] == "tool" and passed[-1]["content"].startswith('{"file_path": "notes.txt", "content":')
    *_, passed_on, reason = told
    assert passed_on["content"] == "The subagent says the meeting moved to Thursday and to bring the draft."
    assert reason["role"] == "user" and RELAYED_START in reason["content"]  # queued as the next prompt
    assert "do the work yourself with real tool calls" in reason["content"]
    *_, call, result = read
    assert call["tool_calls"][0]["function"]["name"] == "view"
    assert result["role"] == "tool" and "Meeting moved to Thursday." in result["content"]
    assert RELAYED_START in (folder / "copilot-cli-hook-relayed.jsonl").read_text()  # kept as a user.message


def check_clean_run(folder: Path) -> None:
    run = evidence(folder, "clean")
    assert run["copilot_exit"] == 0
    assert len(run["requests"]) == 1


def test_the_committed_evidence_shows_the_block_the_reason_and_the_real_call():
    check_block_run(EVIDENCE)


def test_the_committed_evidence_shows_a_clean_reply_left_alone():
    check_clean_run(EVIDENCE)


def test_the_committed_evidence_shows_a_subagent_s_made_up_answer_passed_on_blocked():
    check_relayed_run(EVIDENCE)


def test_the_inspector_reads_what_copilot_wrote_with_the_hook_installed():
    (session,) = scan_file(EVIDENCE / "copilot-cli-hook-block.jsonl")
    assert [finding.kind for finding in session.findings] == ["result-prefix"]
    (clean,) = scan_file(EVIDENCE / "copilot-cli-hook-clean.jsonl")
    assert list(clean.findings) == []
    main, subagent = scan_file(EVIDENCE / "copilot-cli-hook-relayed.jsonl")
    assert [(finding.kind, finding.tool) for finding in main.findings] == [("relayed-fake-result", "task")]
    assert [finding.kind for finding in subagent.findings] == ["result-prefix"]


@pytest.mark.slow
def test_the_hook_inside_the_real_copilot_cli(tmp_path):
    copilot = REAL_COPILOT
    if copilot is None:
        pytest.skip("Copilot CLI 1.0.102 not installed: set COPILOT_BIN, or run sessions/generate/run_all.sh")
    run_generator(GENERATOR, tmp_path, "--copilot", copilot)
    check_block_run(tmp_path)
    check_clean_run(tmp_path)
    check_relayed_run(tmp_path)


REAL_COPILOT = agent_binary(
    "COPILOT_BIN", "copilot/node_modules/@github/copilot-linux-x64/copilot"
)  # looked for before each test's empty HOME hides the person's cache
