"""The quick look of the Gemini CLI, Qwen Code, Codex and Copilot CLI hooks passes every reply the detectors
flag: each chat file those agents wrote (`sessions/`, `sessions/hooks/`), cut after each of its
lines, is read by the agent's reader and the hook's detectors, and wherever they find something
in the last reply, the quick look lets it through. It passes over the clean runs' last replies."""

from __future__ import annotations

from importlib import import_module
from pathlib import Path

import pytest

from inspector.hooks.chat_screen import CODEX_CONTEXT, GEMINI_CLI_CONTEXT, may_hold_chat
from inspector.hooks.hook_settings import HOOK_KINDS
from inspector.hooks.reply_findings import last_reply_findings
from inspector.sources.files.document import parse_document
from inspector.sources.formats import _gemini_cli_messages, codex
from tests.helpers.samples import TOOL_SAMPLES

HOOKS = TOOL_SAMPLES / "hooks"
CHAT_FILES = {
    "gemini-cli": [TOOL_SAMPLES / "gemini-cli.session.jsonl", *sorted(HOOKS.glob("gemini-cli-hook-*.jsonl"))],
    "qwen-code": [
        TOOL_SAMPLES / "qwen-code.jsonl",
        TOOL_SAMPLES / "clean.qwen-code.resumed.jsonl",
        *sorted((TOOL_SAMPLES / "qwen-code-subagent" / "chats").glob("*.jsonl")),
        *sorted(HOOKS.glob("qwen-code-hook-*.jsonl")),
    ],
    "codex": [TOOL_SAMPLES / "codex.rollout.jsonl", *sorted(HOOKS.glob("codex-hook-*.jsonl"))],
    "copilot-cli": [
        TOOL_SAMPLES / "copilot-cli.events.jsonl",
        TOOL_SAMPLES / "copilot-cli.resumed.events.jsonl",
        *sorted(HOOKS.glob("copilot-cli-hook-*.jsonl")),
    ],
}
READERS = {"gemini-cli": "gemini_cli", "qwen-code": "qwen_code", "codex": "codex", "copilot-cli": "copilot_cli"}
CASES = [(agent, path) for agent, paths in CHAT_FILES.items() for path in paths]


def _flagged(agent: str, path: Path, data: bytes) -> list[str]:
    """The kinds the hook's detectors find in the last reply of this chat file's `data`."""
    reader = import_module(f"inspector.sources.formats.{READERS[agent]}")
    sessions = reader.read(parse_document(str(path), data))
    return [finding.kind for finding in last_reply_findings(sessions[0], HOOK_KINDS)] if sessions else []


@pytest.mark.parametrize(("agent", "path"), CASES, ids=lambda case: getattr(case, "name", case))
def test_every_reply_flagged_passes_the_quick_look(agent, path):
    lines = path.read_bytes().splitlines(keepends=True)
    flagged_cuts = 0
    for end in range(2, len(lines) + 1):  # a chat file of one line is no JSON Lines yet
        data = b"".join(lines[:end])
        kinds = _flagged(agent, path, data)
        if kinds:
            flagged_cuts += 1
            assert may_hold_chat(agent, data, HOOK_KINDS), (kinds, end)
            assert all(may_hold_chat(agent, data, (kind,)) for kind in kinds), (kinds, end)
    if "clean" not in path.name and "resumed" not in path.name:  # a resumed session was repaired first
        assert flagged_cuts, "the sample's planted findings are found"


@pytest.mark.parametrize("agent", sorted(CHAT_FILES))
def test_the_clean_runs_last_reply_is_passed_over(agent):
    data = (HOOKS / f"{agent}-hook-clean.jsonl").read_bytes()
    assert not _flagged(agent, HOOKS / f"{agent}-hook-clean.jsonl", data)
    assert not may_hold_chat(agent, data, HOOK_KINDS)


def test_a_planted_fake_result_is_let_through():
    data = b"".join((HOOKS / "codex-hook-block.jsonl").read_bytes().splitlines(keepends=True)[:13])
    assert may_hold_chat("codex", data, HOOK_KINDS)
    assert not may_hold_chat("codex", data, ("narrated-action",))


def test_the_context_messages_are_the_readers():
    assert CODEX_CONTEXT == codex.CONTEXT_TAGS
    assert GEMINI_CLI_CONTEXT == _gemini_cli_messages.SESSION_CONTEXT


def test_the_quick_look_skips_the_same_injected_messages_as_the_readers():
    """The quick look keeps its own copy of the messages the agents inject (it loads no reader):
    they must stay the readers' lists."""
    from inspector.hooks import chat_screen
    from inspector.sources.formats import _gemini_cli_messages, codex

    assert chat_screen.CODEX_CONTEXT == codex.CONTEXT_TAGS
    assert chat_screen.GEMINI_CLI_CONTEXT == _gemini_cli_messages.SESSION_CONTEXT
