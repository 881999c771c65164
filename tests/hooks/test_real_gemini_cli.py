"""The AfterAgent hook inside the real Gemini CLI (0.61.0) against the scripted mock model
(`sessions/generate/gemini_cli_hook.py`): a reply planting a fake result is blocked, the hook's
reason reaches the model in the next request, and the real call the model then makes runs; a
clean reply is left alone, with no request more.

The evidence that script committed (`sessions/hooks/`) is checked every time. The slow test runs
the script itself, with the real Gemini CLI, when it is installed where the script looks
(`$GEMINI_BIN`, or where `run_all.sh` installs it) and skips saying so otherwise.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector import scan_file
from tests.helpers.real_agents import agent_binary, run_generator
from tests.helpers.samples import ROOT, TOOL_SAMPLES

EVIDENCE = TOOL_SAMPLES / "hooks"
GENERATOR = ROOT / "sessions" / "generate" / "gemini_cli_hook.py"
REASON_START = "Your reply contains a tool result you wrote yourself; no tool ran. (result-prefix: "
RELAYED_START = "The answer a subagent handed back to you opens with a tool result it wrote itself; it ran no tool."


def evidence(folder: Path, run: str) -> dict:
    return json.loads((folder / f"gemini-cli-hook-{run}.requests.json").read_text())


def text_of(content: dict) -> str:
    return "\n".join(part.get("text") or json.dumps(part) for part in content["parts"])


def check_block_run(folder: Path) -> None:
    """The fake result blocked, the reason in the next request, the real call run, then silence."""
    run = evidence(folder, "block")
    assert run["gemini_exit"] == 0
    first, after_block, after_call = run["requests"]  # no fourth: the closing reply was left alone
    assert [c["role"] for c in after_block["contents"]] == ["user", "model", "user"]
    assert text_of(after_block["contents"][1]).startswith("{success: true, memory_type:")
    said = text_of(after_block["contents"][-1])
    assert said.startswith(REASON_START) and "Call the tool you meant now as a real tool call" in said
    (call,) = after_call["contents"][-2]["parts"]
    assert call["functionCall"]["name"] == "write_file"
    (answer,) = after_call["contents"][-1]["parts"]
    assert answer["functionResponse"]["response"]["output"].startswith("Successfully created and wrote")
    assert run["journal_written"] == "I lost track of the refactor again.\n"
    chat = folder / "gemini-cli-hook-block.jsonl"
    assert REASON_START in chat.read_text()  # Gemini CLI keeps the reason in the session as a user message


def check_relayed_run(folder: Path) -> None:
    """The subagent's made-up read, its summary, handed back as `invoke_agent`'s result and passed
    on; that reply blocked, the reason in the next request, then notes.txt read by the main agent."""
    run = evidence(folder, "relayed")
    assert run["gemini_exit"] == 0
    (asked,) = [request["contents"] for request in run["requests"] if request["agent"] == "subagent"]
    assert text_of(asked[-1]) == "Read notes.txt in the working folder and report what it says."
    first, handed, told, read = [request["contents"] for request in run["requests"] if request["agent"] == "main"]
    (summary,) = handed[-1]["parts"]
    assert summary["functionResponse"]["name"] == "invoke_agent"
    assert '"response": "{\\"file_path\\": \\"notes.txt\\"' in summary["functionResponse"]["response"]["output"]
    assert text_of(told[-2]) == "The subagent says the meeting moved to Thursday and to bring the draft."
    said = text_of(told[-1])
    assert said.startswith(RELAYED_START) and "do the work yourself with real tool calls" in said
    (call,) = read[-2]["parts"]
    assert call["functionCall"]["name"] == "read_file"
    (answer,) = read[-1]["parts"]
    assert answer["functionResponse"]["response"]["output"] == "Meeting moved to Thursday.\nBring the draft.\n"
    assert RELAYED_START in (folder / "gemini-cli-hook-relayed.jsonl").read_text()


def check_clean_run(folder: Path) -> None:
    run = evidence(folder, "clean")
    assert run["gemini_exit"] == 0
    assert len(run["requests"]) == 1
    assert "Your reply" not in (folder / "gemini-cli-hook-clean.jsonl").read_text()


def test_the_committed_evidence_shows_the_block_the_reason_and_the_real_call():
    check_block_run(EVIDENCE)


def test_the_committed_evidence_shows_a_clean_reply_left_alone():
    check_clean_run(EVIDENCE)


def test_the_committed_evidence_shows_a_subagent_s_made_up_summary_passed_on_blocked():
    check_relayed_run(EVIDENCE)


def test_the_inspector_reads_what_gemini_cli_wrote_with_the_hook_installed():
    (session,) = scan_file(EVIDENCE / "gemini-cli-hook-block.jsonl")
    assert [finding.kind for finding in session.findings] == ["result-prefix"]
    (clean,) = scan_file(EVIDENCE / "gemini-cli-hook-clean.jsonl")
    assert list(clean.findings) == []
    (relayed,) = scan_file(EVIDENCE / "gemini-cli-hook-relayed.jsonl")
    assert [(finding.kind, finding.tool) for finding in relayed.findings] == [("relayed-fake-result", "invoke_agent")]


@pytest.mark.slow
def test_the_hook_inside_the_real_gemini_cli(tmp_path):
    gemini = REAL_GEMINI
    if gemini is None:
        pytest.skip("Gemini CLI 0.61.0 not installed: set GEMINI_BIN, or run sessions/generate/run_all.sh")
    run_generator(GENERATOR, tmp_path, "--gemini", gemini)
    check_block_run(tmp_path)
    check_clean_run(tmp_path)
    check_relayed_run(tmp_path)


REAL_GEMINI = agent_binary(
    "GEMINI_BIN", "gemini/node_modules/.bin/gemini"
)  # looked for before each test's empty HOME hides the person's cache
