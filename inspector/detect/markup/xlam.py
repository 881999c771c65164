"""Salesforce xLAM: a JSON list of `{"name", "arguments"}` objects that is the whole reply.

An xLAM model answers a tool request with the list alone, or after a `<think>...</think>` block;
its other shapes (the list in a ```` ```json ```` fence, after `[TOOL_CALLS]`, inside
`<tool_call>`) are read by `fences` and `json_tags`. As vLLM's xLAM parser requires, each object
has a `name` and `arguments`; here also nothing else but an `id`, arguments that are an object
(not a JSON schema), and a name that is a tool of the catalogue or reads as a function name (a
known tool may also take `parameters`). So a JSON answer that is a list of records, of tool
definitions, or of people with their "arguments", is not a call. A list of more than `MAX_CALLS`
objects is not read (a bound: it is data more likely than a reply of parallel calls).
"""

from __future__ import annotations

from typing import Any

from inspector.catalogue import Catalogue
from inspector.detect.markup.blocks import MAX_CALLS, Block, Call, all_read, arguments_object
from inspector.support.lazy_pattern import lazy_pattern
from inspector.support.leading_space import SPACE
from inspector.support.lenient_json import parse_array_at

THINK_OPEN, THINK_CLOSE = "<think>", "</think>"
_CALL_KEYS = {"name", "arguments", "parameters", "id"}
_FUNCTION_NAME = lazy_pattern(r"[A-Za-z_][\w.\-]*\Z")


def may_be_call_list(text: str) -> bool:
    """Whether `text` is shaped like an xLAM reply (a list, after a thinking block or not), known
    without parsing it: the detector's prefilter."""
    return _list_start(text) is not None


def call_list_block(text: str, catalogue: Catalogue) -> Block | None:
    """The block of calls of a reply that is a list of call objects (after a thinking block or
    not), or None."""
    start = _list_start(text)
    if start is None:
        return None
    parsed = parse_array_at(text, start)
    if parsed is None or text[parsed.end :].strip() or not parsed.value or len(parsed.value) > MAX_CALLS:
        return None
    calls = [_call(item, catalogue) for item in parsed.value]
    if not all_read(calls):
        return None
    return Block(start, parsed.end, "xlam", tuple(calls))


def _list_start(text: str) -> int | None:
    """Where the list that fills `text` begins (after a leading `<think>...</think>` block and
    white space), or None when the rest of `text` is not `[...]`."""
    if not _ends_with_bracket(text):  # the cheap test first: most replies end in prose
        return None
    position = SPACE.match(text).end()
    if text.startswith(THINK_OPEN, position):
        closed = text.find(THINK_CLOSE, position)
        if closed < 0:
            return None
        position = SPACE.match(text, closed + len(THINK_CLOSE)).end()
    if not text.startswith("[", position):
        return None
    return position


def _ends_with_bracket(text: str) -> bool:
    """Whether `text` ends with `]` and white space (only its tail copied, as a rule)."""
    last = text[-1:]
    if last == "]" or not last.isspace():  # the common case: one character looked at
        return last == "]"
    tail = text[-64:].rstrip()
    if not tail and len(text) > 64:  # a tail of white space only: look further back
        tail = text.rstrip()
    return tail.endswith("]")


def _call(item: Any, catalogue: Catalogue) -> Call | None:
    """The call an item of the list is, or None when it is not one (see the module's rule)."""
    if not isinstance(item, dict) or set(item) - _CALL_KEYS or not isinstance(item.get("name"), str):
        return None
    name = item["name"]
    known = name in catalogue
    key = "arguments" if "arguments" in item else "parameters" if "parameters" in item and known else None
    arguments = arguments_object(item[key]) if key else None
    if arguments is None or _is_schema(arguments) or not (known or _FUNCTION_NAME.match(name)):
        return None
    return Call(name, arguments)


def _is_schema(arguments: dict[str, Any]) -> bool:
    """Whether arguments are a tool's JSON schema (a definition), not values."""
    return arguments.get("type") == "object" and isinstance(arguments.get("properties"), dict)
