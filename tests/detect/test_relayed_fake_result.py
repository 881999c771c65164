"""Detector `relayed-fake-result` on the sessions the real agents wrote when their subagent answered
with a fake read result (Claude Code 2.0.77's `Task` result, Claude Code 2.1.332's background
`Agent` notification, Kimi Code 2.1.0's `Agent` result), each answer flagged in the main session;
Gemini CLI's subagent answer (its fake left out of the response) and the other shapes an answer
takes are not."""

from __future__ import annotations

import html
import json
from pathlib import Path

import pytest

from inspector.model import WARNING
from inspector.scan.scanner import scan_file
from tests.helpers.samples import TOOL_SAMPLES
from tests.helpers.scanning import findings_of

KIND = "relayed-fake-result"
FAKE = {"file_path": "notes.txt", "content": "Meeting moved to Thursday.\nBring the draft."}
TASK = TOOL_SAMPLES / "claude-code-side-chains" / "65474567-12cf-4b70-a498-fd1867ce67ee.jsonl"
NOTIFIED = TOOL_SAMPLES / "claude-code-subagent" / "96771fa5-273c-4ee7-9ace-b7f1e823acb7.jsonl"
KIMI = TOOL_SAMPLES / "kimi-code.delegating.wire.jsonl"
GEMINI = TOOL_SAMPLES / "gemini-cli-subagent" / "session-2026-11-29T08-38-e4c7a54b.jsonl"
# Qwen Code 0.24.4 ran its subagent in the background and handed back its answer in a notification,
# the result escaped as XML text (`sessions/generate/qwen_code_subagent.py`)
QWEN = TOOL_SAMPLES / "qwen-code-subagent" / "chats" / "e9fb8225-76b3-413e-a70a-894689cbfd63.jsonl"
# Codex 0.169.0's main thread: the answer came back from `wait_agent` and again in a notice (the
# "relayed" run inside the real Codex, `sessions/generate/codex_hook.py`)
CODEX = TOOL_SAMPLES / "hooks" / "codex-hook-relayed.jsonl"


@pytest.mark.parametrize(
    ("path", "turn", "tool", "said"),
    [
        (TASK, 4, "Task", "its own transcript tells whether a tool ran"),
        (NOTIFIED, 30, "Agent", "it ran no tool (tool_uses: 0)"),
        (KIMI, 30, "Agent", "its own transcript tells whether a tool ran"),
        (QWEN, 9, "agent", "it ran no tool (tool_uses: 0)"),
    ],
)
def test_the_answer_of_a_subagent_that_faked_its_read_is_flagged_where_its_agent_got_it(path, turn, tool, said):
    (finding,) = findings_of(path, KIND)
    assert (finding.turn, finding.tool, finding.severity, finding.fix) == (turn, tool, WARNING, None)
    assert finding.payload == FAKE
    assert f"The answer the {tool} subagent handed back opens with an object that looks like a fake tool result" in (
        finding.message
    )
    assert f"(file_path, content) before its text; {said}." in finding.message


def test_the_notification_s_span_is_the_object_in_the_turn_s_text():
    (finding,) = findings_of(NOTIFIED, KIND)
    (result,) = scan_file(NOTIFIED)
    text = result.session.turn_at(finding.turn).text
    start, end = finding.span
    assert json.loads(text[start:end]) == FAKE and text[end:].startswith("notes.txt says")


def test_an_escaped_notification_s_span_is_the_object_as_written():
    (finding,) = findings_of(QWEN, KIND)
    (result,) = scan_file(QWEN)
    text = result.session.turn_at(finding.turn).text
    start, end = finding.span
    assert text[start:end].startswith("{&quot;file_path&quot;: &quot;notes.txt&quot;")
    assert json.loads(html.unescape(text[start:end])) == FAKE and text[end:].startswith("notes.txt says")


def test_codex_s_answer_is_flagged_at_the_wait_s_result_once_and_at_the_notice_when_nothing_waited(tmp_path):
    (finding,) = findings_of(CODEX, KIND)
    (result,) = scan_file(CODEX)
    turn = result.session.turn_at(finding.turn)
    assert (finding.tool, finding.payload, turn.tool_results[0].name) == ("spawn_agent", FAKE, "wait_agent")
    assert "its own transcript tells whether a tool ran" in finding.message
    lines = CODEX.read_text(encoding="utf-8").splitlines(keepends=True)
    unwaited = tmp_path / "rollout.jsonl"  # the wait call and its result left out: the notice alone
    unwaited.write_text("".join(line for line in lines if "call_wait" not in line), encoding="utf-8")
    (noticed,) = findings_of(unwaited, KIND)
    (result,) = scan_file(unwaited)
    assert result.session.turn_at(noticed.turn).text.startswith("<subagent_notification>")
    assert (noticed.tool, noticed.payload) == ("spawn_agent", FAKE)


@pytest.mark.parametrize("database", ["opencode.subagent.db", "kilo.subagent.db"])
def test_opencode_s_task_result_is_flagged_in_the_main_session_and_the_fake_in_the_child_s(database):
    """OpenCode 1.18.33 (and Kilo CLI 7.7.7, its fork) ran the subagent as a child session and
    handed back its answer in the `task` call's `<task_result>` (`sessions/generate/opencode_subagent.py`)."""
    main, child = scan_file(TOOL_SAMPLES / database)
    (finding,) = main.findings
    assert (finding.kind, finding.tool, finding.payload) == (KIND, "task", FAKE)
    assert [finding.kind for finding in child.findings] == ["result-prefix"]


def test_gemini_s_answer_without_the_fake_is_not_flagged():
    assert findings_of(GEMINI, KIND) == []


def _notified_copy(tmp_path: Path, result: str, tool_uses: int = 0) -> Path:
    """The Claude Code sample whose notification holds `result` from a subagent that used
    `tool_uses` tools."""
    lines = NOTIFIED.read_text(encoding="utf-8").splitlines(keepends=True)
    for number, line in enumerate(lines):
        record = json.loads(line)
        content = record.get("message", {}).get("content") if record.get("type") == "user" else None
        if isinstance(content, str) and content.startswith("<task-notification>"):
            head, _, rest = content.partition("<result>")
            _, _, tail = rest.partition("</result>")
            tail = tail.replace("<tool_uses>0</tool_uses>", f"<tool_uses>{tool_uses}</tool_uses>")
            record["message"]["content"] = f"{head}<result>{result}</result>{tail}"
            lines[number] = json.dumps(record) + "\n"
    path = tmp_path / NOTIFIED.name
    path.write_text("".join(lines), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("result", "tool_uses"),
    [
        ('{"file_path": "notes.txt", "content": "Meeting moved."}notes.txt says the meeting moved.', 2),
        ('{"file_path": "notes.txt", "content": "Meeting moved."}', 0),  # a JSON answer
        ('[{"file_path": "notes.txt"}] is what I found.', 0),
        ('The file says: {"content": "Meeting moved."}', 0),  # text before the object
        ('{"a": 1}{"b": 2} run together', 0),
        ("{not an object at all and no end", 0),
        ("notes.txt says the meeting moved to Thursday.", 0),
    ],
)
def test_an_answer_that_is_no_fake_result_or_of_a_subagent_that_ran_tools_is_not_flagged(tmp_path, result, tool_uses):
    assert findings_of(_notified_copy(tmp_path, result, tool_uses), KIND) == []


def test_a_notification_of_nested_braces_is_read_once(tmp_path):
    hostile = "{" * 100_000 + "x" + "}" * 100_000 + " trailing words"
    assert findings_of(_notified_copy(tmp_path, hostile), KIND) == []


@pytest.mark.parametrize("notes", ["", "\\n<usage>total_tokens: 9\\ntool_uses: 0</usage>"])
def test_a_task_result_that_is_only_json_is_not_flagged(tmp_path, notes):
    """Whatever notes follow Claude Code's `agentId: ... (for resuming ...)` after the answer."""
    lines = TASK.read_text(encoding="utf-8").splitlines(keepends=True)
    fake = json.dumps(json.dumps(FAKE))[1:-1]  # the object as the sample's JSON string holds it
    resuming = "(for resuming to continue this agent's work if needed)"
    edited = "".join(
        line.replace(fake + "notes.txt says the meeting moved to Thursday and to bring the draft.", fake).replace(
            resuming, resuming + notes
        )
        for line in lines
    )
    assert edited != "".join(lines)
    path = tmp_path / TASK.name
    path.write_text(edited, encoding="utf-8")
    assert findings_of(path, KIND) == []


def test_a_tool_named_task_in_another_framework_s_session_is_no_subagent(write_session):
    path = write_session(
        [
            {"role": "user", "content": "Plan my week."},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {"id": "call_1", "type": "function", "function": {"name": "Task", "arguments": '{"title": "plan"}'}}
                ],
            },
            {"role": "tool", "tool_call_id": "call_1", "content": '{"id": 7, "title": "plan"} created.'},
            {"role": "assistant", "content": "Your task is created."},
        ],
        [],
    )
    assert findings_of(path, KIND) == []


def test_a_notification_is_read_without_the_call_that_started_its_subagent(tmp_path):
    """As a hook reads a transcript: only the lines it gained since the reply that made the call."""
    lines = NOTIFIED.read_text(encoding="utf-8").splitlines(keepends=True)
    called = max(number for number, line in enumerate(lines) if '"name":"Agent"' in line.replace(" ", ""))
    tail = tmp_path / NOTIFIED.name
    tail.write_text("".join(lines[called + 1 :]), encoding="utf-8")
    (finding,) = findings_of(tail, KIND)
    assert "<task-notification>" in lines[called + 1 + finding.turn]
