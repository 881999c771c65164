"""The Hermes markup of a ShareGPT dataset's turns: `<tool_call>{"name", "arguments"}</tool_call>`
spans in a `gpt` turn (the dataset's real calls) and `<tool_response>{"name", "content"}
</tool_response>` spans in a `tool` turn, split out of a turn's value and rendered back.

A value splits into `Piece`s: the text between the calls, and for each call its span and the
body between its tags. Splitting is one left-to-right pass of `str.find`, linear in the value. A
body is JSON; Hermes' first datasets wrote it as a Python dict (single quotes), read as it is. A
body that does not parse is still a call when its name can be found: its arguments are the raw
text after `"arguments":` (less the body's own closing brace), so `malformed-arguments` reports
it; a block without a name stays in the text.
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple

import msgspec

from inspector.model import ToolCall, ToolResult
from inspector.sources.messages.arguments import parse_arguments
from inspector.support.lenient_json import loads_lenient

CALL_OPEN, CALL_CLOSE = "<tool_call>", "</tool_call>"
RESPONSE_OPEN, RESPONSE_CLOSE = "<tool_response>", "</tool_response>"
_SINGLE_QUOTES = ("single-quoted strings",)  # the one repair that is the dataset's own dialect
_ARGUMENT_KEYS = ('"arguments"', "'arguments'", '"parameters"')
_NAME_KEYS = ('"name"', "'name'")
_DECODE = msgspec.json.Decoder().decode  # the same values as `json`, some 3 times faster on small bodies


class Split(NamedTuple):
    """A `gpt` value split at its calls: `texts` (one more than the calls), each call's `body`
    as written (white space included) and the call read from it. A named tuple: one is made for
    each `gpt` turn with calls, and a (frozen) dataclass takes several times longer to make."""

    texts: list[str]
    bodies: list[str]
    calls: list[ToolCall]


def split_calls(value: str) -> Split:
    """The value's text pieces and calls; a block that names no tool stays in the text."""
    texts, bodies, calls = [], [], []
    cursor = start = 0
    while (opening := value.find(CALL_OPEN, start)) >= 0:
        body_start = opening + len(CALL_OPEN)
        closing = value.find(CALL_CLOSE, body_start)
        if closing < 0:
            break
        body = value[body_start:closing]
        call = call_of(body)
        start = closing + len(CALL_CLOSE)
        if call is None:
            continue
        texts.append(value[cursor:opening])
        bodies.append(body)
        calls.append(call)
        cursor = start
    texts.append(value[cursor:])
    return Split(texts, bodies, calls)


def call_of(body: str) -> ToolCall | None:
    """The call a `<tool_call>` body holds, or None when it names no tool."""
    parsed = _parsed(body)
    name = parsed.get("name") if isinstance(parsed, dict) else None
    if isinstance(name, str):
        raw = parsed["arguments"] if "arguments" in parsed else parsed.get("parameters")
        return ToolCall(None, name, raw, parse_arguments(raw))
    if parsed is not None:
        return None
    name = _name_in(body)
    if name is None:
        return None
    raw = _raw_arguments(body)
    return ToolCall(None, name, raw, parse_arguments(raw))


def render_body(call: ToolCall, old_body: str = "\n") -> str:
    """A `<tool_call>` body for `call`, inside the white space the old body had around it."""
    stripped = old_body.strip()
    lead = old_body[: len(old_body) - len(old_body.lstrip())]
    trail = old_body[len(old_body.rstrip()) :] if stripped else ""
    arguments = call.arguments if call.arguments is not None else call.arguments_raw
    return lead + json.dumps({"name": call.name, "arguments": arguments}, ensure_ascii=False) + trail


def join_calls(texts: list[str], bodies: list[str]) -> str:
    """A `gpt` value from its text pieces and call bodies, interleaved."""
    out = [texts[0]]
    for body, text in zip(bodies, texts[1:]):
        out += [CALL_OPEN, body, CALL_CLOSE, text]
    return "".join(out)


def split_results(value: str) -> list[ToolResult]:
    """The results of a `tool` value's `<tool_response>` spans (none when it has no markup)."""
    return [result for _, _, result in _responses(value)]


def with_results(value: str, results: tuple[ToolResult, ...]) -> str:
    """A `tool` value with the body of each response whose result a repair renamed rewritten (in
    the white space it had); the others are kept as they were."""
    out, cursor = [], 0
    for (start, end, old), new in zip(_responses(value), results):
        if new.name != old.name:
            body = value[start:end]
            lead = body[: len(body) - len(body.lstrip())]
            trail = body[len(body.rstrip()) :]
            out += [
                value[cursor:start],
                lead,
                json.dumps({"name": new.name, "content": new.content}, ensure_ascii=False),
                trail,
            ]
            cursor = end
    return "".join(out) + value[cursor:]


def _responses(value: str) -> list[tuple[int, int, ToolResult]]:
    """Each `<tool_response>` body's start, end and result."""
    found = []
    start = 0
    while (opening := value.find(RESPONSE_OPEN, start)) >= 0:
        closing = value.find(RESPONSE_CLOSE, opening)
        if closing < 0:
            break
        body_start = opening + len(RESPONSE_OPEN)
        body = value[body_start:closing]
        parsed = _parsed(body)
        if isinstance(parsed, dict) and "content" in parsed:
            name = parsed.get("name")
            found.append(
                (body_start, closing, ToolResult(None, name if isinstance(name, str) else None, parsed["content"]))
            )
        else:
            found.append((body_start, closing, ToolResult(None, None, body.strip())))
        start = closing + len(RESPONSE_CLOSE)
    return found


def render_response(result: ToolResult) -> str:
    """A `<tool_response>` span for `result`."""
    body = json.dumps({"name": result.name, "content": result.content}, ensure_ascii=False)
    return f"{RESPONSE_OPEN}\n{body}\n{RESPONSE_CLOSE}"


def _parsed(body: str) -> Any:
    """The body's JSON value (or Python-dict value); None when it does not parse."""
    text = body.strip()
    try:
        return _DECODE(text)
    except (msgspec.DecodeError, ValueError, RecursionError):
        lenient = loads_lenient(text) if "'" in text else None
        return lenient[0] if lenient is not None and lenient[1] == _SINGLE_QUOTES else None


def _name_in(body: str) -> str | None:
    """The tool name a body that does not parse still shows (`"name": "..."`)."""
    for key in _NAME_KEYS:
        at = body.find(key)
        if at < 0:
            continue
        rest = body[at + len(key) :].lstrip()
        if rest.startswith(":"):
            rest = rest[1:].lstrip()
            quote = rest[:1]
            end = rest.find(quote, 1) if quote in ("'", '"') else -1
            if end > 1:
                return rest[1:end]
    return None


def _raw_arguments(body: str) -> str:
    """The raw text of a broken body's arguments: what follows `"arguments":`, less the closing
    brace of the body itself; the whole body when it names no arguments."""
    text = body.strip()
    for key in _ARGUMENT_KEYS:
        at = text.find(key)
        colon = text.find(":", at + len(key)) if at >= 0 else -1
        if colon >= 0 and not text[at + len(key) : colon].strip():
            raw = text[colon + 1 :].strip()
            return raw[:-1].rstrip() if text.startswith("{") and raw.endswith("}") else raw
    return text
