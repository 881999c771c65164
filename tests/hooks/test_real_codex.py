"""The Stop hook inside the real Codex CLI (0.169.0) against the scripted mock model
(`sessions/generate/codex_hook.py`): a reply planting a fake result is blocked, the hook's
reason reaches the model in the next request, and the real call the model then makes runs; a
clean reply is left alone, with no request more; a subagent's fake result is blocked by the
SubagentStop hook, its reason sent to the subagent.

The evidence that script committed (`sessions/hooks/`) is checked every time. The slow test runs
the script itself, with the real Codex, when it is installed where the script looks
(`$CODEX_BIN`, or where `run_all.sh` installs it) and skips saying so otherwise.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector import scan_file
from tests.helpers.real_agents import agent_binary, run_generator
from tests.helpers.samples import ROOT, TOOL_SAMPLES

EVIDENCE = TOOL_SAMPLES / "hooks"
GENERATOR = ROOT / "sessions" / "generate" / "codex_hook.py"
REASON_START = "Your reply contains a tool result you wrote yourself; no tool ran. (result-prefix: "
RELAYED_START = "The answer a subagent handed back to you opens with a tool result it wrote itself; it ran no tool."


def evidence(folder: Path, run: str) -> dict:
    return json.loads((folder / f"codex-hook-{run}.requests.json").read_text())


def texts(item: dict) -> str:
    """The text of an input item: a message's parts, a call's arguments, a result's output."""
    if item.get("type") == "message":
        return "\n".join(part.get("text", "") for part in item["content"])
    return str(item.get("arguments") or item.get("output") or "")


def check_block_run(folder: Path) -> None:
    """The fake result blocked, the reason in the next request, the real call run, then silence."""
    run = evidence(folder, "block")
    assert run["codex_exit"] == 0
    first, after_block, after_call = run["requests"]  # no fourth: the closing reply was left alone
    *_, fake, reason = after_block["input"]
    assert fake["role"] == "assistant" and texts(fake).startswith("{success: true, memory_type:")
    said = texts(reason)
    assert reason["role"] == "user" and said.startswith("<hook_prompt hook_run_id=")  # how Codex sends it
    assert REASON_START in said and "Call the tool you meant now as a real tool call" in said
    *_, call, result = after_call["input"]
    assert call["type"] == "function_call" and "journal.txt" in texts(call)
    assert result["type"] == "function_call_output" and "Process exited with code 0" in texts(result)
    assert run["journal_written"] == "I lost track of the refactor again.\n"
    assert REASON_START in (folder / "codex-hook-block.jsonl").read_text()  # Codex keeps it in the rollout


def check_subagent_run(folder: Path) -> None:
    """The subagent's fake result blocked by its SubagentStop hook, the reason sent to the subagent,
    its next reply left; the main thread's own reply left too."""
    run = evidence(folder, "subagent")
    assert run["codex_exit"] == 0
    subagent = [request["input"] for request in run["requests"] if request["thread"] == "subagent"]
    first, after_block = subagent  # no third: the subagent's second reply was left alone
    *_, fake, reason = after_block
    assert fake["role"] == "assistant" and texts(fake).startswith("{success: true, memory_type:")
    said = texts(reason)
    assert reason["role"] == "user" and said.startswith('<hook_prompt hook_run_id="subagent-stop:')
    assert REASON_START in said
    main_thread = [request for request in run["requests"] if request["thread"] == "main"]
    assert len(main_thread) == 3  # the spawn, the wait, the closing reply: the Stop hook left it
    assert REASON_START in (folder / "codex-hook-subagent.jsonl").read_text()  # in the subagent's rollout


def check_relayed_run(folder: Path) -> None:
    """The subagent's fake blocked once, written again and handed back (the wait's result, then a
    notice); the main thread's reply passing it on blocked, the reason in its next request, then
    notes.txt read by the main thread itself, and its answer left."""
    run = evidence(folder, "relayed")
    assert run["codex_exit"] == 0
    first, after_block = [request["input"] for request in run["requests"] if request["thread"] == "subagent"]
    assert texts(after_block[-2]).startswith('{"file_path": "notes.txt", "content":')
    assert REASON_START in texts(after_block[-1])
    *_, told, read, answered = [request["input"] for request in run["requests"] if request["thread"] == "main"]
    waited = next(
        item for item in told if item.get("call_id") == "call_wait" and item["type"] == "function_call_output"
    )
    assert '"completed":"{\\"file_path\\": \\"notes.txt\\"' in texts(waited)
    *_, passed_on, reason = read
    assert texts(passed_on) == "The subagent says the meeting moved to Thursday and to bring the draft."
    said = texts(reason)
    assert said.startswith('<hook_prompt hook_run_id="stop:') and RELAYED_START in said
    assert "do the work yourself with real tool calls" in said
    *_, call, result = answered
    assert call["type"] == "function_call" and "cat notes.txt" in texts(call)
    assert "Meeting moved to Thursday.\nBring the draft." in texts(result)
    assert RELAYED_START in (folder / "codex-hook-relayed.jsonl").read_text()  # in the main thread's rollout


def check_clean_run(folder: Path) -> None:
    run = evidence(folder, "clean")
    assert run["codex_exit"] == 0
    assert len(run["requests"]) == 1


def test_the_committed_evidence_shows_the_block_the_reason_and_the_real_call():
    check_block_run(EVIDENCE)


def test_the_committed_evidence_shows_a_subagent_s_fake_result_blocked_in_the_subagent():
    check_subagent_run(EVIDENCE)


def test_the_committed_evidence_shows_a_clean_reply_left_alone():
    check_clean_run(EVIDENCE)


def test_the_committed_evidence_shows_a_subagent_s_made_up_answer_passed_on_blocked():
    check_relayed_run(EVIDENCE)


def test_the_inspector_reads_what_codex_wrote_with_the_hook_installed():
    (session,) = scan_file(EVIDENCE / "codex-hook-block.jsonl")
    assert [finding.kind for finding in session.findings] == ["result-prefix"]
    (clean,) = scan_file(EVIDENCE / "codex-hook-clean.jsonl")
    assert list(clean.findings) == []
    (relayed,) = scan_file(EVIDENCE / "codex-hook-relayed.jsonl")
    assert [finding.kind for finding in relayed.findings] == ["relayed-fake-result"]  # once, not for the notice too
    (faked,) = scan_file(EVIDENCE / "codex-hook-relayed.agent.jsonl")
    assert [finding.kind for finding in faked.findings] == ["result-prefix", "result-prefix"]


@pytest.mark.slow
def test_the_hook_inside_the_real_codex(tmp_path):
    codex = REAL_CODEX
    if codex is None:
        pytest.skip("Codex 0.169.0 not installed: set CODEX_BIN, or run sessions/generate/run_all.sh")
    run_generator(GENERATOR, tmp_path, "--codex", codex)
    check_block_run(tmp_path)
    check_clean_run(tmp_path)
    check_subagent_run(tmp_path)
    check_relayed_run(tmp_path)


REAL_CODEX = agent_binary(
    "CODEX_BIN", "codex/node_modules/.bin/codex"
)  # looked for before each test's empty HOME hides the person's cache
