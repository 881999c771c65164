"""OpenTelemetry traces of model calls, as OTLP JSON: `{resourceSpans: [{resource, scopeSpans:
[{scope, spans: [...]}]}]}` (one export request), or JSON Lines of export requests (what a
collector's file exporter writes). Read-only: a trace is a record of what happened, not a history
an application loads back, so the format has no writer and `fix` refuses it.

A span is a model call when it carries messages in one of the conventions `_otel_messages` reads
(OpenTelemetry GenAI, its older prompt/completion attributes or events, OpenInference); other spans
(an agent's own span, tool spans) are counted in the problems, by name. The calls are grouped by
their `session.id` or `gen_ai.conversation.id` attribute when they have one, else by trace, and
each group is rebuilt into one conversation (`otel_conversation`); tools come from
`gen_ai.tool.definitions` or `llm.tools.N.tool.json_schema`. A trace with no model call is refused
with one line naming what it holds.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from inspector.errors import InspectorError
from inspector.model import Session, ToolSpec
from inspector.sources.files.document import BadLine, Document
from inspector.sources.formats._otel_history import HistoryDecoder
from inspector.sources.formats._otel_messages import (
    PROMPT_EVENTS,
    CallMessages,
    MessageReader,
    any_value,
    json_value,
    span_messages,
)
from inspector.sources.formats.contract import FileFormat
from inspector.sources.messages.otel_conversation import ModelCall, rebuild
from inspector.sources.messages.turn_models import with_models
from inspector.support.counted_words import counted
from inspector.support.safe_text import shown_name

NAME = "otel"
GROUP_KEYS = ("session.id", "gen_ai.conversation.id")
MODEL_KEYS = ("gen_ai.response.model", "gen_ai.request.model", "llm.model_name")  # the first a span has


def claims(document: Document) -> bool:
    """An OTLP JSON export request (`resourceSpans`), or JSON Lines whose records mostly are."""
    value = document.value
    if not document.is_jsonl:
        return isinstance(value, dict) and isinstance(value.get("resourceSpans"), list)
    records = [r for r in value[:50] if r is not None and not isinstance(r, BadLine)]
    return bool(records) and sum(
        isinstance(r, dict) and isinstance(r.get("resourceSpans"), list) for r in records
    ) * 2 > len(records)


def read(document: Document) -> list[Session]:
    """One session per conversation: per `session.id` / `gen_ai.conversation.id`, else per trace
    (and one more for each call in it that continues no history seen before)."""
    reader = MessageReader()
    groups: dict[str, list[tuple[int, str, CallMessages]]] = {}
    tools: dict[str, dict[str, ToolSpec]] = {}
    other: Counter[str] = Counter()
    problems: list[str] = []
    unread_events: Counter[str] = Counter()
    seen_definitions: dict[str, set[str]] = {}
    models: dict[str, Any] = {}  # span id -> the model it names
    for span in _spans(document, problems):
        attributes = {
            a["key"]: a.get("value")
            for a in span.get("attributes") or ()
            if isinstance(a, dict) and isinstance(a.get("key"), str)
        }
        events = [e for e in span.get("events") or () if isinstance(e, dict)]
        messages = span_messages(attributes, events)
        if messages is None:
            other[str(span.get("name"))] += 1
            continue
        unread_events.update(name for name in map(str, (e.get("name") for e in events)) if name not in PROMPT_EVENTS)
        group = _group(attributes, span)
        models[str(span.get("spanId"))] = next(
            (any_value(attributes[key]) for key in MODEL_KEYS if key in attributes), None
        )
        groups.setdefault(group, []).append((_start(span), str(span.get("spanId")), messages))
        _add_tools(tools.setdefault(group, {}), attributes, seen_definitions.setdefault(group, set()))
    if not groups:
        raise InspectorError(
            f"{shown_name(document.path)}: an OpenTelemetry trace of {sum(other.values())} spans "
            f"({_names(other)}) with no GenAI (gen_ai.*) or OpenInference (llm.*) messages: "
            f"not a recognised session format"
        )
    sessions: list[Session] = []
    for group, calls in sorted(groups.items(), key=lambda item: min(start for start, _, _ in item[1])):
        calls.sort(key=lambda item: item[0])
        decoder = HistoryDecoder()
        threads = rebuild(
            (ModelCall(span_id, decoder.history(messages), messages.outputs) for _, span_id, messages in calls),
            reader.turn,
        )
        for number, turns in enumerate(threads, 1):
            session_id = group if number == 1 else f"{group}#{number}"
            sessions.append(
                Session(
                    NAME,
                    document.path,
                    tuple(with_models(turns, lambda turn: models.get(turn.raw.get("span")))),
                    tuple(tools[group].values()),
                    document,
                    len(sessions),
                    session_id,
                    (),
                )
            )
    if other:
        spans = counted(
            sum(other.values()),
            "span without model messages not read as turns",
            "spans without model messages not read as turns",
        )
        problems.append(f"{spans} ({_names(other)})")
    problems.extend(
        counted(count, f"span event named {name!r} not read", f"span events named {name!r} not read")
        for name, count in unread_events.items()
    )
    problems.extend(f"{counted(count, one, many)} not read" for (one, many), count in reader.unread.items())
    sessions[0] = replace(sessions[0], problems=tuple(problems))
    return sessions


def _spans(document: Document, problems: list[str]) -> Iterator[dict[str, Any]]:
    """Every span of the file, in file order; lines that are not JSON noted in `problems`."""
    requests = document.value if document.is_jsonl else [document.value]
    for number, request in enumerate(requests, 1):
        if isinstance(request, BadLine):
            problems.append(
                f"line {request.number}: not valid JSON ({request.error}), not read"
                + (" (the last line, cut off)" if number == len(requests) else "")
            )
            continue
        if not isinstance(request, dict):
            continue
        for resource_spans in _dicts(request.get("resourceSpans")):
            scopes = resource_spans.get("scopeSpans") or resource_spans.get("instrumentationLibrarySpans")
            for scope_spans in _dicts(scopes):
                yield from _dicts(scope_spans.get("spans"))


def _dicts(value: Any) -> list[dict[str, Any]]:
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def _group(attributes: dict[str, Any], span: dict[str, Any]) -> str:
    for key in GROUP_KEYS:
        value = any_value(attributes.get(key))
        if isinstance(value, str) and value:
            return value
    return str(span.get("traceId"))


def _start(span: dict[str, Any]) -> int:
    try:
        return int(span.get("startTimeUnixNano") or 0)
    except (TypeError, ValueError):
        return 0


def _add_tools(tools: dict[str, ToolSpec], attributes: dict[str, Any], seen: set[str]) -> None:
    """The tools a span declares, each definition text decoded once per group (`seen`)."""
    texts = [any_value(attributes.get("gen_ai.tool.definitions"))]
    texts += [
        any_value(value)
        for key, value in attributes.items()
        if key.startswith("llm.tools.") and key.endswith(".tool.json_schema")
    ]
    for text in texts:
        if text is None or (isinstance(text, str) and text in seen):
            continue
        if isinstance(text, str):
            seen.add(text)
        definitions = json_value(text)
        for definition in definitions if isinstance(definitions, list) else [definitions]:
            spec = _tool_spec(definition)
            if spec is not None:
                tools.setdefault(spec.name, spec)


def _tool_spec(definition: Any) -> ToolSpec | None:
    """A tool from `{type: function, name, parameters}` or OpenAI's `{type: function, function: {...}}`."""
    if not isinstance(definition, dict):
        return None
    function = definition.get("function")
    if not isinstance(function, dict):
        function = definition
    name, parameters = function.get("name"), function.get("parameters")
    if not isinstance(name, str):
        return None
    description = function.get("description")
    return ToolSpec(
        name, parameters if isinstance(parameters, dict) else {}, description if isinstance(description, str) else ""
    )


def _names(counts: Counter[str]) -> str:
    named = ", ".join(repr(name) for name, _ in counts.most_common(5))
    return named + (", ..." if len(counts) > 5 else "") if named else "none"


FORMAT = FileFormat(NAME, claims, read)
