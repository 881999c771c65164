"""MiniMax-M3: every tag written after the namespace marker `]<]minimax[>[`.

A block is `]<]minimax[>[<tool_call>` ... `]<]minimax[>[</tool_call>` holding one or more
`]<]minimax[>[<invoke name="NAME">` ... `]<]minimax[>[</invoke>` calls; each parameter is an element
named by its key, `]<]minimax[>[<city>Paris]<]minimax[>[</city>`, and one holding elements is an
object of them (nested parameters; a key written twice gives a list). Values are text as written,
typed when the call is recovered by the tool's schema. The block is read with one cursor that only
moves forward (linear time); nesting deeper than `_MAX_DEPTH` or a tag that does not close leaves
the call's arguments unparsed.
"""

from __future__ import annotations

from typing import Any

from inspector.catalogue import Catalogue
from inspector.detect.markup.blocks import CALLS_CAPPED, MAX_CALLS, UNPARSED, Block, Call, Reader, find_literal
from inspector.support.lazy_pattern import lazy_pattern

NS = "]<]minimax[>["
START, END = NS + "<tool_call>", NS + "</tool_call>"
_INVOKE, _INVOKE_END = NS + "<invoke", NS + "</invoke>"
_NAME = lazy_pattern(r"""\s+name\s*=\s*(?:"(?P<double>[^"]*)"|'(?P<single>[^']*)')\s*>""")
_MAX_DEPTH = 8


class _Unparsed(ValueError):
    """A parameter element that does not parse."""


def _block(text: str, start: int, after: int, catalogue: Catalogue) -> Block | None:
    """The block of `<invoke>` calls from `after` to the block's end (or the next block, or the
    end of the text when it never closes); None when it holds no call."""
    following = find_literal(text, START, after)
    limit = len(text) if following < 0 else following
    closed = find_literal(text, END, after, limit)
    body_end, end = (limit, limit) if closed < 0 else (closed, closed + len(END))
    calls: list[Call] = []
    at = text.find(_INVOKE, after, body_end)
    while at >= 0:
        named = _NAME.match(text, at + len(_INVOKE), body_end)
        if named is None:
            break
        if len(calls) == MAX_CALLS:
            return Block(start, at, "minimax-m3", tuple(calls), CALLS_CAPPED)
        invoke_end = text.find(_INVOKE_END, named.end(), body_end)
        inner_end = body_end if invoke_end < 0 else invoke_end
        calls.append(
            Call(named.group("double") or named.group("single"), _arguments(text, named.end(), inner_end), True)
        )
        at = text.find(_INVOKE, inner_end, body_end)
    if not calls:
        return None
    note = UNPARSED if any(call.arguments is None for call in calls) else ""
    return Block(start, end, "minimax-m3", tuple(calls), note)


def _arguments(text: str, position: int, end: int) -> dict[str, Any] | None:
    """The parameter elements of an invoke's body, `text[position:end]`, as an object; None when
    one does not parse."""
    try:
        elements, position = _elements(text, position, end, 0)
    except _Unparsed:
        return None
    return elements if not text[position:end].strip() else None


def _elements(text: str, position: int, end: int, depth: int) -> tuple[dict[str, Any], int]:
    """The elements one after another from `position` (white space between them aside), as an
    object, and where they stop: at the first text or tag that opens none."""
    found: dict[str, Any] = {}
    while True:
        at = position
        while at < end and text[at].isspace():
            at += 1
        if not text.startswith(NS + "<", at) or text.startswith(NS + "</", at):
            return found, position
        key, value, position = _element(text, at + len(NS) + 1, end, depth)
        existing = found.get(key)
        if key not in found:
            found[key] = value
        elif isinstance(existing, list):
            existing.append(value)
        else:
            found[key] = [existing, value]


def _element(text: str, position: int, end: int, depth: int) -> tuple[str, Any, int]:
    """One element whose name starts at `position`: its key, its value (text as written, or an
    object of the elements it holds) and where its closing tag ends."""
    if depth > _MAX_DEPTH:
        raise _Unparsed
    name_end = text.find(">", position, end)
    key = text[position:name_end] if name_end >= 0 else ""
    if not key.strip() or "<" in key or key.startswith("/"):
        raise _Unparsed
    value_start = name_end + 1
    close = f"{NS}</{key}>"
    value: Any
    if text.startswith(NS + "<", _after_space(text, value_start, end)) and not text.startswith(
        NS + "</", _after_space(text, value_start, end)
    ):
        value, after = _elements(text, value_start, end, depth + 1)
        after = _after_space(text, after, end)
    else:
        after = text.find(NS, value_start, end)
        value = text[value_start:after] if after >= 0 else ""
    if after < 0 or not text.startswith(close, after):
        raise _Unparsed
    return key, value, after + len(close)


def _after_space(text: str, position: int, end: int) -> int:
    """`position` moved past white space, no further than `end`."""
    while position < end and text[position].isspace():
        position += 1
    return position


READERS: dict[str, Reader] = {START: _block}
