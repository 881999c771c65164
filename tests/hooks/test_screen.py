"""The quick look that spares the hook the readers and detectors passes every reply the
detectors flag: on the Claude Code samples, each reply holding a finding of a kind the hook
checks passes it, cut where the hook would read it (just after that reply)."""

from __future__ import annotations

import json

import pytest

from inspector import scan_file
from inspector.hooks.hook_settings import HOOK_KINDS
from inspector.hooks.reply_findings import reply_findings
from inspector.hooks.screen import may_hold
from tests.helpers.samples import SESSIONS, TOOL_SAMPLES

# (and the main sessions of the folders whose subagents' answers, one made up, came back to them)
CLAUDE_CODE_SAMPLES = (
    sorted(TOOL_SAMPLES.glob("claude-code*.jsonl"))
    + sorted(SESSIONS.glob("*.claude-code.jsonl"))
    + sorted(path for folder in TOOL_SAMPLES.glob("claude-code-s*") for path in folder.glob("*-*-*-*-*.jsonl"))
)


@pytest.mark.parametrize("path", CLAUDE_CODE_SAMPLES, ids=lambda path: path.name)
def test_every_reply_flagged_passes_the_quick_look(path):
    lines = path.read_bytes().splitlines(keepends=True)
    flagged = [f for result in scan_file(path) for f in result.findings if f.kind in HOOK_KINDS]
    assert flagged
    for finding in flagged:
        assert may_hold(b"".join(lines[: finding.turn + 1]), (finding.kind,)), (finding.kind, finding.turn)


def test_plain_prose_is_passed_over():
    line = b'{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"The meeting moved to Thursday."}]}}\n'
    assert not may_hold(line, HOOK_KINDS)


def test_an_announcement_after_the_reply_s_calls_passes_the_quick_look():
    def event(kind: str, content: object, uuid: str) -> str:
        message = {"role": kind, "content": content}
        return json.dumps({"type": kind, "isSidechain": False, "uuid": uuid, "sessionId": "s", "message": message})

    lines = [
        event("user", "Please save a journal memory.", "1"),
        event("assistant", [{"type": "tool_use", "id": "t1", "name": "Read", "input": {"file_path": "a"}}], "2"),
        event("user", [{"type": "tool_result", "tool_use_id": "t1", "content": "ok"}], "3"),
        event("assistant", [{"type": "text", "text": "I read it. Now I'll save the entry to your journal."}], "4"),
    ]
    data = "\n".join(lines).encode() + b"\n"
    assert [f.kind for f in reply_findings("transcript.jsonl", data, HOOK_KINDS, None)] == ["narrated-action"]
    assert may_hold(data, HOOK_KINDS)


def test_the_quick_look_knows_what_the_detector_knows_of_a_subagent_s_answer():
    from inspector.detect import handed_back
    from inspector.hooks import screen

    assert screen.NOTIFICATION == handed_back.NOTIFICATION
    assert handed_back.DELEGATING_TOOLS["claude-code"] == screen.DELEGATING_TOOLS
