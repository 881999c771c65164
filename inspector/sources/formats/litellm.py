"""LiteLLM logs: the `StandardLoggingPayload` of each model call (`kwargs["standard_logging_object"]`,
as a custom logger or callback writes it), one per line (or a JSON list of them).

A payload holds `messages` (the whole history the call was sent, OpenAI-shaped), `response` (the
ChatCompletion as a dict), `model`, `id`, `trace_id`, `session_id`, `metadata`, `startTime` (epoch
seconds), `call_type`, `stream`, `response_cost`, `model_parameters` (with `tools`). The calls of
one conversation are read as one session (`repeated_history`), so each problem is reported once,
at its turn: the calls of one session id, when one is set, or of one `trace_id` several calls
share. LiteLLM 1.106 sets no session id, and gives each call a trace of its own unless the app
passes `litellm_trace_id`: such calls are put in the conversation whose history so far (inputs and
outputs) a call's input repeats (`repeated_history.by_thread`).

A log is read-only (the format has no writer): its sessions can be scanned, not repaired in place. A payload of
another call type (an embedding, a text completion) is counted in the problems of the file's first
session; an unparseable line is reported there too.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

from inspector.catalogue import parse_tool_definitions
from inspector.errors import InspectorError
from inspector.model import Session, Turn
from inspector.sources.files.document import Document, records_with_errors
from inspector.sources.formats.contract import FileFormat
from inspector.sources.messages.openai_messages import openai_turn, read_openai_messages
from inspector.sources.messages.repeated_history import (
    ModelCall,
    by_thread,
    conversation,
    grouped,
)
from inspector.support.counted_words import counted
from inspector.support.safe_text import shown_name

NAME = "litellm"

MARKERS = ("call_type", "response_cost", "stream", "messages")
CHAT_CALLS = ("completion", "acompletion")
_UNREAD = Turn(0, "", "")  # what a message without a known role is compared as


def claims(document: Document) -> bool:
    """Records most of which carry the payload's own keys (`call_type`, `response_cost`, `stream`
    and `messages`)."""
    dicts = [r for r in _records(document)[:50] if type(r) is dict]
    return sum(all(key in r for key in MARKERS) for r in dicts) * 2 > len(dicts) > 0


def read(document: Document) -> list[Session]:
    """One session per conversation, in the order they first appear."""
    records = _records(document)
    calls: list[ModelCall] = []
    named: list[bool] = []
    skipped: Counter[str] = Counter()
    tools: dict[str, Any] = {}
    for number, record in enumerate(records, start=1):
        if type(record) is not dict:
            continue
        if record.get("call_type") not in CHAT_CALLS or not isinstance(record.get("messages"), list):
            skipped[str(record.get("call_type"))] += 1
            continue
        group, is_session = _conversation_id(record)
        start = record.get("startTime")
        calls.append(
            ModelCall(
                group,
                start if type(start) in (int, float) else 0.0,
                record["messages"],
                _outputs(record.get("response")),
                f"line {number}",
            )
        )
        named.append(is_session)
        parameters = record.get("model_parameters")
        if isinstance(parameters, dict) and isinstance(parameters.get("tools"), list):
            tools[calls[-1].label] = parameters["tools"]
    first_problems = records_with_errors(records) + [
        counted(
            count,
            f"payload of call type {kind!r} not read as turns",
            f"payloads of call type {kind!r} not read as turns",
        )
        for kind, count in skipped.items()
    ]
    sessions = []
    for index, (group, group_calls) in enumerate(grouped(_regrouped(calls, named)).items()):
        messages, problems = conversation(group_calls, _role)
        turns, unread = read_openai_messages(messages)
        listed = next((tools[call.label] for call in reversed(group_calls) if call.label in tools), None)
        sessions.append(
            Session(
                NAME,
                document.path,
                tuple(turns),
                tuple(parse_tool_definitions(listed)),
                document,
                index,
                group,
                tuple((first_problems if index == 0 else []) + problems + unread),
            )
        )
    if not sessions:
        raise InspectorError(f"{shown_name(document.path)}: a LiteLLM log without a chat completion call")
    return sessions


def _records(document: Document) -> list[Any]:
    value = document.value
    return value if isinstance(value, list) else []


def _conversation_id(record: dict[str, Any]) -> tuple[str, bool]:
    """The session id (the payload's, or its metadata's) and True, else the trace id, else the
    call's id, and False."""
    metadata = record.get("metadata")
    if not isinstance(metadata, dict):
        metadata = {}
    for value in (record.get("session_id"), metadata.get("session_id")):
        if type(value) is str and value:
            return value, True
    for value in (record.get("trace_id"), metadata.get("trace_id"), record.get("id")):
        if type(value) is str and value:
            return value, False
    return "", False


def _regrouped(calls: list[ModelCall], named: list[bool]) -> list[ModelCall]:
    """The calls, each of a session or of a trace shared with another call in its conversation;
    every other call (LiteLLM gives each call a trace of its own unless the app passes
    `litellm_trace_id`) in the conversation whose history its input repeats (`by_thread`), named
    after that conversation's first call."""
    shared = Counter(call.group for call, is_session in zip(calls, named) if not is_session)
    loose = [call for call, is_session in zip(calls, named) if not is_session and shared[call.group] == 1]
    if len(loose) < 2:
        return calls
    group_of: dict[str, str] = {}
    for thread in by_thread(loose, lambda message: openai_turn(0, message, {}) or _UNREAD):
        group_of.update((call.label, thread[0].group) for call in thread)
    return [replace(call, group=group_of.get(call.label, call.group)) for call in calls]


def _outputs(response: Any) -> list[Any]:
    """The message of the response's first choice (a ChatCompletion dict), if any."""
    choices = response.get("choices") if isinstance(response, dict) else None
    first = choices[0] if isinstance(choices, list) and choices and isinstance(choices[0], dict) else {}
    message = first.get("message")
    return [message] if isinstance(message, dict) else []


def _role(message: Any) -> Any:
    return message.get("role") if type(message) is dict else None


FORMAT = FileFormat(NAME, claims, read)
