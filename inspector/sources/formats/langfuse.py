"""Langfuse observation exports: a page of `GET /api/public/observations`,
`{data: [observation...], meta: {page, limit, totalItems, ...}}` (or the bare `data` list is not
read: `meta` is the marker).

An observation is `{id, traceId, type: GENERATION | SPAN | EVENT, name, startTime, input, output,
model, metadata, ...}`. A GENERATION is one model call: `input` the messages sent (a list of
OpenAI-shaped messages, or `{messages, tools}`), `output` the reply (a message `{role, content,
tool_calls}`, a list of messages, or a plain string: the assistant's text). The generations of
one trace are read as one session (`repeated_history`), so each problem is reported once, at its
turn. SPANs and EVENTs (tool runs, chains, marks) are no model calls: counted in the problems, as
is a generation whose input holds no message list.

An export is read-only (the format has no writer).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from inspector.catalogue import parse_tool_definitions
from inspector.errors import InspectorError
from inspector.model import Session
from inspector.sources.files.document import Document
from inspector.sources.formats.contract import FileFormat
from inspector.sources.messages.openai_messages import read_openai_messages
from inspector.sources.messages.repeated_history import ModelCall, conversation, grouped
from inspector.sources.messages.turn_models import with_models
from inspector.support.counted_words import counted
from inspector.support.safe_text import shown_name

NAME = "langfuse"

TYPES = ("GENERATION", "SPAN", "EVENT", "AGENT", "TOOL", "CHAIN", "RETRIEVER", "EVALUATOR", "EMBEDDING", "GUARDRAIL")


def claims(document: Document) -> bool:
    """An object with a `data` list and `meta.totalItems`, most of whose entries are observations
    (a `traceId` and a known observation `type`)."""
    value = document.value
    if document.is_jsonl or type(value) is not dict or not isinstance(value.get("data"), list):
        return False
    meta = value.get("meta")
    if type(meta) is not dict or "totalItems" not in meta:
        return False
    dicts = [r for r in value["data"][:50] if type(r) is dict]
    return sum(r.get("type") in TYPES and "traceId" in r for r in dicts) * 2 > len(dicts) > 0


def read(document: Document) -> list[Session]:
    """One session per trace, in the order the traces first appear."""
    calls = []
    skipped: Counter[str] = Counter()
    tools: dict[str, Any] = {}
    models: dict[int, Any] = {}  # id of a reply message -> the model of its generation
    for number, observation in enumerate(document.value["data"]):
        kind = observation.get("type") if type(observation) is dict else None
        messages, listed_tools = _input(observation.get("input")) if kind == "GENERATION" else (None, None)
        if messages is None:
            skipped[str(kind)] += 1
            continue
        trace = observation.get("traceId") if type(observation.get("traceId")) is str else ""
        if listed_tools is not None:
            tools[trace] = listed_tools
        start = observation.get("startTime")
        outputs = _outputs(observation.get("output"))
        models.update((id(message), observation.get("model")) for message in outputs)
        calls.append(
            ModelCall(
                trace,
                start if type(start) is str else "",
                messages,
                outputs,
                f"observation {observation.get('id', number)}",
            )
        )
    unread = [
        counted(
            count,
            f"observation of type {kind!r}{_without_input(kind)} not read as turns",
            f"observations of type {kind!r}{_without_input(kind)} not read as turns",
        )
        for kind, count in skipped.items()
    ]
    sessions = []
    for index, (trace, trace_calls) in enumerate(grouped(calls).items()):
        messages, problems = conversation(trace_calls, _role)
        read, odd = read_openai_messages(messages)
        turns = with_models(read, lambda turn: models.get(id(turn.raw)))
        sessions.append(
            Session(
                NAME,
                document.path,
                tuple(turns),
                tuple(parse_tool_definitions(tools.get(trace))),
                document,
                index,
                trace,
                tuple((unread if index == 0 else []) + problems + odd),
            )
        )
    if not sessions:
        raise InspectorError(f"{shown_name(document.path)}: a Langfuse export without a generation holding messages")
    return sessions


def _without_input(kind: str) -> str:
    """What a skipped observation of `kind` lacks: a GENERATION, its input messages."""
    return " without input messages" if kind == "GENERATION" else ""


def _input(value: Any) -> tuple[list[Any] | None, Any]:
    """A generation's messages and tools: a message list, or `{messages, tools}`."""
    if isinstance(value, list):
        return value, None
    if type(value) is dict and isinstance(value.get("messages"), list):
        return value["messages"], value.get("tools")
    return None, None


def _outputs(value: Any) -> list[Any]:
    """A generation's reply as messages: a message, a list of them, or text."""
    if type(value) is dict:
        return [value if "role" in value else {"role": "assistant", **value}]
    if isinstance(value, list):
        return value
    if type(value) is str:
        return [{"role": "assistant", "content": value}]
    return []


def _role(message: Any) -> Any:
    return message.get("role") if type(message) is dict else None


FORMAT = FileFormat(NAME, claims, read)
