"""Kimi Code (2.x, the Node.js CLI that replaced the Python Kimi CLI) wire files:
`~/.kimi-code/sessions/<work dir>/session_<uuid>/agents/<agent>/wire.jsonl` (`$KIMI_CODE_HOME`
moves `~/.kimi-code`), the log `kimi -r` resumes a session from.

Shape read (checked against files Kimi Code 2.1.0 wrote): one JSON record per line, each with a
`type`, the first `{"type": "metadata", "protocol_version"}`. The conversation is the
`agent.message.appended` events (`"kind": "event"`), each `{"message": {"message": MESSAGE,
"meta"}}`: MESSAGE `{role, content, toolCalls, toolCallId}`, `role` `user`, `assistant` or `tool`,
`content` a list of parts (`text`; `think` is not text), `toolCalls` of `{"type": "function", id,
name, arguments}` with the arguments as the model wrote them (a JSON string, cut or broken ones
included: Kimi Code ran such a call with `{}` and answered it with an error). A tool message's
result is an error when the loop's `tool.result` event of its call says so (`result.isError`).
The other records (the model's context as sent, `context.append_message`; the loop's steps,
`context.append_loop_event`; the tools offered, `llm.tools_snapshot`, whose last one is the
session's tools; requests, usage, turns, permissions, bindings, the subagents it started) are
Kimi Code's own (the record types its source writes to the wire file), kept in place, not turns; a
record of another type, or a message of another role, is counted in the session's problems. A
subagent (the `Agent` tool) runs with a wire file of its own, `agents/agent-N/wire.jsonl`, whose
records name it (`agentId`): a session of its own, `session_<uuid>/agent-N`.

Positive marker: the `metadata` first record with a `protocol_version`, and an
`agent.message.appended` or `context.append_loop_event` record among the first. The format is
read-only: nothing here shows Kimi Code resuming a repaired wire file.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from inspector.catalogue import parse_tool_definitions
from inspector.errors import InspectorError
from inspector.model import TOOL, Session, ToolResult, Turn
from inspector.sources.files.document import Document, records_with_errors
from inspector.sources.formats.contract import FileFormat
from inspector.sources.messages.openai_messages import openai_turn
from inspector.sources.unread_records import Unread, UnreadTally
from inspector.support.counted_words import counted
from inspector.support.safe_text import shown_name

NAME = "kimi-code"
MESSAGE = "agent.message.appended"
LOOP_EVENT = "context.append_loop_event"
# Kimi Code's other records (those its source marks durable, written to the wire file), kept in
# place, not turns
OWN_TYPES = frozenset(
    [
        "metadata",
        "agent.switched",
        "agent.turn.started",
        "agent.turn.ended",
        "config.update",
        "context.append_loop_event",
        "context.append_message",
        "context.apply_compaction",
        "context.clear",
        "context.undo",
        "cron.add",
        "cron.cursor",
        "cron.delete",
        "file_history.checkpoint",
        "file_history.tracked",
        "forked",
        "full_compaction.begin",
        "full_compaction.cancel",
        "full_compaction.complete",
        "goal.clear",
        "goal.create",
        "goal.update",
        "interaction.request",
        "interaction.resolved",
        "interruptionReminder.recorded",
        "llm.request",
        "llm.tools_snapshot",
        "mcp.tools_discovered",
        "permission.record_approval_result",
        "permission.set_mode",
        "plan.revision",
        "plan_mode.cancel",
        "plan_mode.enter",
        "plan_mode.exit",
        "plugin.session_start",
        "profile.bind",
        "prompt.aborted",
        "prompt.completed",
        "prompt.steered",
        "runtime.set_binding",
        "subagent.cancelled",
        "subagent.completed",
        "subagent.failed",
        "subagent.spawned",
        "subagent.started",
        "swarm_mode.enter",
        "swarm_mode.exit",
        "task.started",
        "task.terminated",
        "task.waitDelivered",
        "token_counting.measured",
        "token_counting.rebased",
        "token_counting.truncated",
        "token_counting.turn_recorded",
        "tools.register_user_tool",
        "tools.reset_active_tools",
        "tools.set_active_tools",
        "tools.unregister_user_tool",
        "tools.update_store",
        "tower_mode.enter",
        "tower_mode.exit",
        "turn.cancel",
        "turn.ended",
        "turn.prompt",
        "turn.steer",
        "turn.step.interrupted",
        "turn.step.retrying",
        "usage.record",
    ]
)
MAIN_AGENT = "main"
ROLES = frozenset({"user", "assistant", "tool"})
# the keys read or known on a message event and on the message it carries
KNOWN_KEYS = {
    MESSAGE: frozenset({"type", "message", "time", "kind"}),
    "message": frozenset({"role", "content", "toolCalls", "toolCallId"}),
}


def claims(document: Document) -> bool:
    """JSON Lines whose first record is Kimi Code's `metadata` (with a `protocol_version`) and whose
    first records hold one of its messages or loop events."""
    records = _records(document)
    if not records or not _is_metadata(records[0]):
        return False
    return any(type(r) is dict and r.get("type") in (MESSAGE, LOOP_EVENT) for r in records[:200])


def read(document: Document) -> list[Session]:
    """The wire file as one conversation: its appended messages, in order."""
    records = _records(document)
    failed = _failed_calls(records)
    turns: list[Turn] = []
    names: dict[Any, str] = {}
    unknown_types = unknown_roles = 0
    for position, record in enumerate(records):
        if type(record) is not dict:
            continue
        kind = record.get("type")
        if kind != MESSAGE:
            unknown_types += kind not in OWN_TYPES
            continue
        message = _message(record)
        if message is None or message.get("role") not in ROLES:
            unknown_roles += 1
            continue
        turn = openai_turn(position, _as_openai(message), names)
        if turn is not None:
            turns.append(_with_error(replace(turn, raw=record), failed))
    if not turns:
        raise InspectorError(f"{shown_name(document.path)}: a Kimi Code wire file without a message")
    problems = records_with_errors(records)
    if unknown_types:
        problems.append(counted(unknown_types, "record of a type not known, kept", "records of types not known, kept"))
    if unknown_roles:
        problems.append(
            counted(
                unknown_roles,
                "message of an unknown role not read as a turn",
                "messages of an unknown role not read as turns",
            )
        )
    tools = tuple(parse_tool_definitions(_tools_offered(records)))
    session_id = _session_id(document, records)
    return [Session(NAME, document.path, tuple(turns), tools, document, 0, session_id, tuple(problems))]


def survey(document: Document) -> tuple[Unread, ...]:
    """The record types the reader does not know, and the keys it does not know on the message
    events and their messages, under the wire protocol version the first record states."""
    records = _records(document)
    stated = records[0].get("protocol_version") if records and _is_metadata(records[0]) else None
    version = f"wire protocol {stated}" if type(stated) is str else None
    tally = UnreadTally(KNOWN_KEYS)
    for record in records:
        if type(record) is not dict:
            continue
        kind = record.get("type")
        if kind == MESSAGE:
            tally.keys(MESSAGE, record, version)
            message = _message(record)
            if message is not None:
                tally.keys("message", message, version)
        elif kind not in OWN_TYPES:
            tally.unknown_type(kind, version)
    return tally.unread()


def _records(document: Document) -> list[Any]:
    value = document.value
    return value if document.is_jsonl and isinstance(value, list) else []


def _tools_offered(records: list[Any]) -> list[Any]:
    """The tools of the last `llm.tools_snapshot` (name, description, JSON Schema parameters)."""
    for record in reversed(records):
        if (
            type(record) is dict
            and record.get("type") == "llm.tools_snapshot"
            and isinstance(tools := record.get("tools"), list)
        ):
            return tools
    return []


def _session_id(document: Document, records: list[Any]) -> str | None:
    """The session's id: the name of its folder (`session_<uuid>`, what `kimi -r` takes), above
    `agents/<agent>/`; a subagent's wire file (its records' `agentId` is not `main`) adds
    `/<agent>` (`session_<uuid>/agent-0`)."""
    path = document.path
    folder = path.parents[2].name if isinstance(path, Path) and len(path.parents) > 2 else ""
    if not folder.startswith("session_"):
        return None
    agent = next((r["agentId"] for r in records[:50] if type(r) is dict and type(r.get("agentId")) is str), MAIN_AGENT)
    return folder if agent == MAIN_AGENT else f"{folder}/{agent}"


def _is_metadata(record: Any) -> bool:
    return type(record) is dict and record.get("type") == "metadata" and "protocol_version" in record


def _message(record: dict[str, Any]) -> dict[str, Any] | None:
    """The message an `agent.message.appended` event carries, if it is one."""
    outer = record.get("message")
    inner = outer.get("message") if type(outer) is dict else None
    return inner if type(inner) is dict else None


def _as_openai(message: dict[str, Any]) -> dict[str, Any]:
    """The message in OpenAI Chat Completions' shape, which `openai_turn` reads."""
    calls, content = message.get("toolCalls"), message.get("content")
    if isinstance(content, list) and all(type(p) is dict and p.get("type") == "text" for p in content):
        content = "".join(p["text"] for p in content if type(p.get("text")) is str)  # a result's text as one string
    shaped: dict[str, Any] = {"role": message["role"], "content": content}
    if isinstance(calls, list) and calls:
        shaped["tool_calls"] = [
            {
                "type": "function",
                "id": c.get("id"),
                "function": {"name": c.get("name"), "arguments": c.get("arguments")},
            }
            if type(c) is dict
            else c
            for c in calls
        ]
    if "toolCallId" in message:
        shaped["tool_call_id"] = message["toolCallId"]
    return shaped


def _failed_calls(records: list[Any]) -> set[str]:
    """The ids of the calls whose `tool.result` loop event says they failed."""
    failed = set()
    for record in records:
        if type(record) is dict and record.get("type") == LOOP_EVENT:
            event = record.get("event")
            if type(event) is dict and event.get("type") == "tool.result":
                result = event.get("result")
                if type(result) is dict and result.get("isError") is True and type(event.get("toolCallId")) is str:
                    failed.add(event["toolCallId"])
    return failed


def _with_error(turn: Turn, failed: set[str]) -> Turn:
    """A tool turn whose call Kimi Code reported failed, with its result marked as an error."""
    if turn.role != TOOL or not any(r.call_id in failed for r in turn.tool_results):
        return turn
    results = tuple(ToolResult(r.call_id, r.name, r.content, r.call_id in failed) for r in turn.tool_results)
    return replace(turn, tool_results=results)


FORMAT = FileFormat(NAME, claims, read, survey=survey)
