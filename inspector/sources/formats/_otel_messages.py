"""The messages of one model-call span, in each attribute convention a GenAI trace uses.

- OpenTelemetry GenAI semantic conventions 1.37+: `gen_ai.input.messages` / `gen_ai.output.messages`
  (JSON strings, or already structured values) of `[{role, parts: [...]}]`, whose parts are
  `{type: text, content}`, `{type: tool_call, id, name, arguments}`, `{type: tool_call_response,
  id, response}` (and `reasoning`, not text); `gen_ai.system_instructions` is a list of parts.
- The older GenAI attributes: `gen_ai.prompt.N.role|content|tool_call_id|tool_calls.M.id|name|arguments`
  and `gen_ai.completion.N.*`; or span events `gen_ai.content.prompt` / `gen_ai.content.completion`
  holding OpenAI-style message lists in `gen_ai.prompt` / `gen_ai.completion`.
- OpenInference (Phoenix): `llm.input_messages.N.message.role|content|tool_call_id|
  tool_calls.M.tool_call.id|function.name|function.arguments` (and `contents.K.message_content.text`)
  and `llm.output_messages.N.message.*`.

Each convention gives lists of raw messages (semconv dicts, or OpenAI-style dicts); `MessageReader`
makes a `Turn` of one of them only when the conversation rebuild needs it (`_otel_history` decodes
the `gen_ai.input.messages` texts).
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any, NamedTuple

import msgspec

from inspector.model import ASSISTANT, SYSTEM, TOOL, USER, ToolCall, ToolResult, Turn
from inspector.sources.messages.arguments import parse_arguments

_DECODE = msgspec.json.Decoder().decode
ROLES = frozenset({SYSTEM, USER, ASSISTANT, TOOL, "developer"})
FLAT_PREFIXES = {
    "llm.input_messages.": "input",
    "llm.output_messages.": "output",
    "gen_ai.prompt.": "input",
    "gen_ai.completion.": "output",
}
PROMPT_EVENTS = {
    "gen_ai.content.prompt": ("gen_ai.prompt", "input"),
    "gen_ai.content.completion": ("gen_ai.completion", "output"),
}
NOT_TEXT_PARTS = frozenset({"reasoning", "thinking"})


def json_value(value: Any) -> Any:
    """An attribute that holds JSON as a string, decoded (None when it does not decode)."""
    if not isinstance(value, str):
        return value
    try:
        return _DECODE(value)
    except (msgspec.DecodeError, UnicodeError):
        try:
            return json.loads(value)
        except (ValueError, RecursionError):
            return None


class CallMessages(NamedTuple):
    """A model call's messages as the span holds them: `inputs` may still be the undecoded
    `gen_ai.input.messages` text (`HistoryDecoder` decodes it in conversation order);
    `instructions` are system parts that go before them."""

    inputs: Any
    instructions: list[Any]
    outputs: list[Any]


def span_messages(attributes: dict[str, Any], events: list[Any]) -> CallMessages | None:
    """A span's input and output messages, raw, in whichever convention it carries them; None when
    it carries none (not a model call). `attributes` maps each key to its OTLP `AnyValue`."""
    if "gen_ai.input.messages" in attributes or "gen_ai.output.messages" in attributes:
        return CallMessages(
            any_value(attributes.get("gen_ai.input.messages")),
            listed(json_value(any_value(attributes.get("gen_ai.system_instructions")))),
            listed(json_value(any_value(attributes.get("gen_ai.output.messages")))),
        )
    flat = _flattened(attributes)
    if flat is not None:
        return CallMessages(*flat)
    return _from_events(events)


def listed(value: Any) -> list[Any]:
    """`value` when it is a list, else an empty one."""
    return value if isinstance(value, list) else []


def _flattened(attributes: dict[str, Any]) -> tuple[list[Any], list[Any], list[Any]] | None:
    """OpenInference's or the older GenAI flattened attributes, as OpenAI-style message dicts."""
    found: dict[str, dict[int, dict[str, Any]]] = {"input": {}, "output": {}}
    seen = False
    for key, value in attributes.items():
        if not key.startswith(("llm.", "gen_ai.")):
            continue
        prefix = key[: key.find("messages.") + 9] if key.startswith("llm.") else key[: key.find(".", 7) + 1]
        side = FLAT_PREFIXES.get(prefix)
        if side is None:
            continue
        index, _, field = key[len(prefix) :].partition(".")
        if not index.isdigit():
            continue
        seen = True
        message = found[side].setdefault(int(index), {"fields": {}, "calls": {}, "texts": {}})
        _set_field(message, field.removeprefix("message."), any_value(value))
    if not seen:
        return None
    return (
        [_as_openai(found["input"][i]) for i in sorted(found["input"])],
        [],
        [_as_openai(found["output"][i]) for i in sorted(found["output"])],
    )


def _set_field(message: dict[str, dict[Any, Any]], field: str, value: Any) -> None:
    """One flattened field into its message (`fields`, `calls` by number, content `texts` by number):
    role, content, tool_call_id, name, a call's id / name / arguments, a content part's text."""
    if field.startswith("tool_calls."):
        number, _, rest = field[11:].partition(".")
        if number.isdigit():
            rest = rest.removeprefix("tool_call.").removeprefix("function.")
            message["calls"].setdefault(int(number), {})[rest] = value
    elif field.startswith("contents."):
        number, _, rest = field[9:].partition(".")
        if number.isdigit() and rest == "message_content.text":
            message["texts"][int(number)] = value
    else:
        message["fields"][field] = value


def _as_openai(flat: dict[str, dict[Any, Any]]) -> dict[str, Any]:
    fields, texts, calls = flat["fields"], flat["texts"], flat["calls"]
    message = {key: fields[key] for key in ("role", "content", "tool_call_id") if key in fields}
    if texts and "content" not in fields:
        message["content"] = [{"type": "text", "text": texts[k]} for k in sorted(texts)]
    if calls:
        message["tool_calls"] = [
            {"id": call.get("id"), "function": {"name": call.get("name"), "arguments": call.get("arguments")}}
            for _, call in sorted(calls.items())
        ]
    return message


def _from_events(events: list[Any]) -> CallMessages | None:
    """Prompt and completion span events holding OpenAI-style message lists."""
    sides: dict[str, list[Any]] = {"input": [], "output": []}
    seen = False
    for event in events:
        known = PROMPT_EVENTS.get(str(event.get("name"))) if isinstance(event, dict) else None
        if known is None:
            continue
        key, side = known
        attributes = event.get("attributes")
        value = (
            next((a.get("value") for a in attributes if isinstance(a, dict) and a.get("key") == key), None)
            if isinstance(attributes, list)
            else None
        )
        seen = True
        sides[side].extend(listed(json_value(any_value(value))))
    return CallMessages(sides["input"], [], sides["output"]) if seen else None


def any_value(value: Any) -> Any:
    """An OTLP `AnyValue` (`{stringValue: ...}`, `{intValue: "3"}`, arrays, key-value lists) as a
    plain value."""
    if not isinstance(value, dict):
        return None
    if "stringValue" in value:
        return value["stringValue"]
    if "intValue" in value:
        try:
            return int(value["intValue"])
        except (TypeError, ValueError):
            return None
    if "arrayValue" in value:
        values = value["arrayValue"].get("values") if isinstance(value["arrayValue"], dict) else None
        return [any_value(item) for item in values] if isinstance(values, list) else []
    if "kvlistValue" in value:
        pairs = value["kvlistValue"].get("values") if isinstance(value["kvlistValue"], dict) else None
        return (
            {p.get("key"): any_value(p.get("value")) for p in pairs if isinstance(p, dict)}
            if isinstance(pairs, list)
            else {}
        )
    for key in ("boolValue", "doubleValue", "bytesValue"):
        if key in value:
            return value[key]
    return None


class MessageReader:
    """Makes turns of raw messages of either shape (semconv parts, OpenAI-style), remembering call
    names by id for the results that follow, and counting what it could not read."""

    def __init__(self) -> None:
        self.names: dict[str, str] = {}
        self.unread: Counter[tuple[str, str]] = Counter()  # (one of them, several): how many
        self._counting = True

    def _count(self, one: str, many: str) -> None:
        if self._counting:
            self.unread[one, many] += 1

    def turn(self, message: Any, where: dict[str, Any], taken: bool = True) -> Turn:
        """The turn of one raw message; `where` (its span and place) becomes the turn's `raw`.
        What it cannot read is counted only when the turn is `taken` (not for a mere comparison)."""
        self._counting = taken
        if not isinstance(message, dict):
            self._count("message that is not an object", "messages that are not objects")
            return Turn(0, USER, "", raw=where)
        role = stated if isinstance(stated := message.get("role"), str) and stated in ROLES else USER
        role = SYSTEM if role == "developer" else role
        if isinstance(message.get("parts"), list):
            text, calls, results = self._parts(message["parts"])
        else:
            text, calls, results = self._openai(message)
        return Turn(0, role, text, None, calls, results, where)

    def _parts(self, parts: list[Any]) -> tuple[str, tuple[ToolCall, ...], tuple[ToolResult, ...]]:
        texts, calls, results = [], [], []
        for part in parts:
            kind = part.get("type") if isinstance(part, dict) and isinstance(part.get("type"), str) else None
            if kind == "text" and isinstance(part.get("content"), str):
                texts.append(part["content"])
            elif kind == "tool_call" and isinstance(part.get("name"), str):
                calls.append(self._call(part.get("id"), part["name"], part.get("arguments")))
            elif kind == "tool_call_response":
                results.append(self._result(part.get("id"), part.get("response")))
            elif kind not in NOT_TEXT_PARTS:
                self._count(f"message part of type {kind!r}", f"message parts of type {kind!r}")
        return "".join(texts), tuple(calls), tuple(results)

    def _openai(self, message: dict[str, Any]) -> tuple[str, tuple[ToolCall, ...], tuple[ToolResult, ...]]:
        content = message.get("content")
        if isinstance(content, list):
            text = "".join(p["text"] for p in content if isinstance(p, dict) and isinstance(p.get("text"), str))
        else:
            text = content if isinstance(content, str) else ""
        calls = []
        for call in stored if isinstance(stored := message.get("tool_calls"), list) else ():
            function = call.get("function") if isinstance(call, dict) else None
            if isinstance(function, dict) and isinstance(function.get("name"), str):
                calls.append(self._call(call.get("id"), function["name"], function.get("arguments")))
        if message.get("role") == TOOL:
            return "", tuple(calls), (self._result(message.get("tool_call_id"), content),)
        return text, tuple(calls), ()

    def _call(self, call_id: Any, name: str, arguments: Any) -> ToolCall:
        call_id = call_id if isinstance(call_id, str) else None
        if call_id is not None:
            self.names[call_id] = name
        return ToolCall(call_id, name, arguments, parse_arguments(arguments))

    def _result(self, call_id: Any, content: Any) -> ToolResult:
        call_id = call_id if isinstance(call_id, str) else None
        return ToolResult(call_id, self.names.get(call_id) if call_id else None, content)
