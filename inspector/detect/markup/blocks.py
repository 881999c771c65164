"""The values every markup parser returns, and the readers they share.

A `Block` is one leaked block: where it is in the text, its family, and the `Call`s it holds. The
readers here turn call-shaped JSON (`{"name"|"tool", "arguments"|"parameters"}`, a list of them,
objects joined by a separator) into calls.
"""

from __future__ import annotations

import re
import textwrap
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, NamedTuple, TypeGuard, TypeVar

from inspector.catalogue import Catalogue
from inspector.support.cut_off_json import complete_cut_off, describe
from inspector.support.lazy_pattern import lazy_pattern
from inspector.support.leading_space import SPACE, AlwaysMatching
from inspector.support.lenient_json import loads_lenient, parse_array_at, parse_object_at

NAME_KEYS = ("name", "tool", "tool_name", "function")
ARGUMENT_KEYS = ("arguments", "parameters", "args", "input")
NAME_IN_TEXT = lazy_pattern(r"[\"'](?:name|tool)[\"']\s*:\s*[\"'](?P<name>[\w.\-]+)[\"']")
UNPARSED = "arguments that do not parse"
PLACEHOLDER = lazy_pattern(r"\{\s*(?:\.\.\.|…)\s*\}")  # `{...}`: an example's arguments, nothing to recover
PLACEHOLDER_ARGUMENTS = "placeholder arguments"
# Calls read one after another in a block at most (objects joined by a separator, Mistral's
# `NAME{json}`, a section of special-token calls): each may need json5 (some 150 µs an object), and
# 125,000 of them in 1 MB took 30 s. The rest is left as text, and the block's note says so.
MAX_CALLS = 20
CALLS_CAPPED = (
    f"more calls one after another than the {MAX_CALLS} read (a bound against hostile text): the rest is left as text"
)
_CALL_SHAPE_EXTRA = {"id", "type", "tool_call_id"}
_Item = TypeVar("_Item")


@dataclass(slots=True, unsafe_hash=True)
class Call:
    """One call read from markup: its tool name and arguments (None when they do not parse), and
    whether its values are text as written (XML-style elements), to be typed when it is recovered.
    Treated as an immutable value, as `Block` is (not frozen: quicker to build)."""

    name: str | None
    arguments: dict[str, Any] | None
    text_values: bool = False


@dataclass(slots=True, unsafe_hash=True)
class Block:
    """A leaked block: `[start, end)` in the text, its family, and the calls it holds; `guessed`
    when its calls were completed (cut off at the end of the reply), which the note says how.
    Treated as an immutable value (change one with `dataclasses.replace`), not frozen: quicker
    to build, and a reply may hold thousands."""

    start: int
    end: int
    family: str
    calls: tuple[Call, ...]
    note: str = ""
    guessed: bool = False


# A family's reader: given the text, where its start marker begins and ends, and the catalogue,
# the block the marker opens, or None when the marker is prose (nothing call-like follows it).
Reader = Callable[[str, int, int, Catalogue], "Block | None"]
# What may join call objects one after another (`json_calls`): a pattern matched after each.
Separator = re.Pattern[str] | AlwaysMatching


def all_read(items: list[_Item | None]) -> TypeGuard[list[_Item]]:
    """Whether every one of `items` was read (none is None)."""
    return None not in items


def call_from_object(obj: Any) -> Call | None:
    """The call an object describes (`name`/`tool` plus `arguments`/`parameters`), or None."""
    if not isinstance(obj, dict):
        return None
    name = next((obj[k] for k in NAME_KEYS if k in obj), None)
    if isinstance(name, dict):  # OpenAI shape {"function": {"name", "arguments"}}
        return call_from_object(name)
    if not isinstance(name, str) or not name:
        return None
    key = next((k for k in ARGUMENT_KEYS if k in obj), None)
    return Call(name, arguments_object(obj.get(key, {}) if key else {}))


def arguments_object(arguments: Any) -> dict[str, Any] | None:
    """Arguments as an object: a JSON string holding one is unwrapped; None for anything else."""
    if isinstance(arguments, str):
        loaded = loads_lenient(arguments) if arguments.strip() else ({}, ())
        arguments = loaded[0] if loaded else None
    return arguments if isinstance(arguments, dict) else None


def cut_off_block(text: str, start: int, position: int, family: str) -> Block | None:
    """The block of call JSON at `position` that the end of the text cuts off (a stream stopped
    at max tokens), its calls completed by closing the open string and brackets, marked guessed;
    None unless that completes it, the cut falls in the arguments (each call has its arguments
    key, and no name is cut short) and nothing but white space is left to close."""
    completion = complete_cut_off(text[position:])
    if completion is None:
        return None
    value, opening = completion
    items = value if isinstance(value, list) else [value]
    calls = [call_from_object(item) for item in items]
    if not calls or not all_read(calls) or any(call.arguments is None for call in calls):
        return None
    if not all(any(key in item for key in ARGUMENT_KEYS) for item in items):
        return None  # cut before the arguments: what the call was to do is unknown
    if opening.cut_string is not None and text[position + opening.cut_string + 1 :] == calls[-1].name:
        return None  # the name itself is cut short
    note = cut_off_note(describe(opening))
    return Block(start, len(text.rstrip()), family, tuple(calls), note, guessed=True)


class CutOff(NamedTuple):
    """Arguments that the end of the reply cuts off, completed: the object, the note that says how,
    and where the block ends (the end of the reply, white space aside)."""

    arguments: dict[str, Any]
    note: str
    end: int


def cut_off_arguments(text: str, position: int) -> CutOff | None:
    """The arguments object at `position` that the end of the text cuts off, completed by closing
    the open string and brackets; None unless that completes it."""
    completion = complete_cut_off(text[position:])
    if completion is None or not isinstance(completion[0], dict):
        return None
    return CutOff(completion[0], cut_off_note(describe(completion[1])), len(text.rstrip()))


def cut_off_note(closed: str) -> str:
    """What a block cut off at the end of the reply holds, and how it was completed."""
    return f"arguments cut off at the end of the reply, completed by closing {closed} (the last value may be cut short)"


def is_call_shape(obj: dict[str, Any], catalogue: Catalogue) -> bool:
    """Whether a fenced or bare object is a call: a known tool with arguments, or exactly a call's
    keys; either way it names a tool (an empty name is none)."""
    name_key = next((k for k in ("name", "tool") if k in obj), None)
    args_key = next((k for k in ("arguments", "parameters") if k in obj), None)
    if name_key is None or args_key is None or not isinstance(obj[name_key], str) or not obj[name_key]:
        return False
    if obj[name_key] in catalogue:
        return True
    return not (set(obj) - {name_key, args_key} - _CALL_SHAPE_EXTRA)


def is_example(text: str, start: int, spans: list[tuple[int, int]]) -> bool:
    """Whether a marker at `start` is an example, not a call: in inline code (a backtick just
    before it) or inside one of `spans` (code fences that do not hold a call, in order, apart).
    The span is looked up by bisection: trying each, for each marker, was quadratic."""
    if start > 0 and text[start - 1] == "`":
        return True
    return inside(spans, start)


def inside(spans: list[tuple[int, int]], position: int) -> bool:
    """Whether `position` falls in one of `spans` (in order, apart), looked up by bisection."""
    index = bisect_right(spans, position, key=lambda span: span[0]) - 1  # the last span starting at or before it
    return index >= 0 and position < spans[index][1]


def json_calls(text: str, position: int, separator: Separator | None = None) -> tuple[list[Call] | None, int, bool]:
    """Calls in the JSON object or array at `position` (objects joined by what `separator`
    matches too), where they end, and whether reading stopped at `MAX_CALLS` with more joined on;
    None when something there is not a call."""
    calls: list[Call] = []
    while True:
        if text.startswith("[", position):
            parsed = parse_array_at(text, position)
            if parsed is None:
                return None, position, False
            items, end = parsed.value, parsed.end
        else:
            parsed = parse_object_at(text, position)
            if parsed is None:
                return None, position, False
            items, end = [parsed.value], parsed.end
        for item in items:
            call = call_from_object(item)
            if call is None:
                return None, position, False
            calls.append(call)
        joint = separator.match(text, end) if separator else None
        if joint is None or not text.startswith("{", joint.end()):
            return calls, end, False
        if len(calls) >= MAX_CALLS:
            return calls, end, True
        position = joint.end()


def close_after(text: str, position: int, close: str | None) -> int:
    """`position` moved past white space and `close`, when `close` comes next; else `position`."""
    after = SPACE.match(text, position).end()
    return after + len(close) if close and text.startswith(close, after) else position


def end_of(text: str, close: str, position: int, opener: str | None = None) -> tuple[int, int]:
    """Where the body that starts at `position` ends (before `close`, or at the end of the text)
    and where the block ends (after `close`). With `opener`, a body never runs past the next
    `opener`: a block left open ends where the next one begins. Looked up in an index of each
    literal's places, not by searching the text: a reader that gives up after this is asked again
    at the next marker, and searching to the end from each was quadratic."""
    found = find_literal(text, close, position)
    body_end = len(text) if found < 0 else found
    following = find_literal(text, opener, position, body_end) if opener else -1
    if following >= 0:
        return following, following
    return (body_end, body_end) if found < 0 else (found, found + len(close))


_places: dict[str, tuple[str, list[int]]] = {}  # literal -> (the last text asked about, its places in it)


def find_literal(text: str, literal: str, start: int, end: int | None = None) -> int:
    """`text.find(literal, start, end)`, answered from an index of the places of `literal` in `text`
    (built in one pass the first time a text is asked about)."""
    cached = _places.get(literal)
    if cached is None or cached[0] is not text:
        places, at = [], text.find(literal)
        while at >= 0:
            places.append(at)
            at = text.find(literal, at + 1)
        cached = _places[literal] = (text, places)
    places = cached[1]
    index = bisect_left(places, start)
    limit = len(text) if end is None else end
    if index < len(places) and places[index] + len(literal) <= limit:
        return places[index]
    return -1


def xml_text(value: str) -> str:
    """An XML parameter value as written, its layout dropped as the servers' parsers drop it: one
    leading and one trailing newline. When the closing tag is indented (the markup laid out with
    indentation), the white space before it goes with that newline, and the indentation the
    value's lines share goes too (`textwrap.dedent`); under a closing tag that is not indented, a
    value's indentation is its own (code for an edit that must match exactly)."""
    if value.startswith("\n"):
        value = value[1:]
    last = value.rfind("\n")
    if last < 0 or value[last + 1 :].strip(" \t"):
        return value
    indented = last + 1 < len(value)
    return textwrap.dedent(value[:last]) if indented else value[:last]


def element_values(
    text: str, opener: str, head: re.Pattern[str], close: str, start: int, end: int
) -> Iterator[tuple[re.Match[str], str]]:
    """Each element of `text[start:end]` that begins with `opener` and whose head (`<parameter=K>`)
    `head` matches, with its value as written: up to the LAST `close` before the next `opener`, so
    a closing tag written inside a value (code holding `</parameter>`) does not cut it, or up to the
    next `opener` when none closes it. Each stretch between openers is read once: linear time."""
    at = text.find(opener, start, end)
    while at >= 0:
        following = text.find(opener, at + len(opener), end)
        limit = end if following < 0 else following
        match = head.match(text, at, limit)
        if match is not None:
            closed = text.rfind(close, match.end(), limit)
            yield match, text[match.end() : closed if closed >= 0 else limit]
        at = following


def well_formed_end(text: str, close: str, start: int, limit: int, after: tuple[str, ...]) -> int:
    """Where a block's body from `start` ends: the last `close` before `limit` (the next block)
    that comes, white space aside, right after one of `after` (how its last element ends), so a
    closing tag inside a value does not end the block; else the first `close`; -1 when none.
    Reads `text[start:limit]` a bounded number of times."""
    at = text.rfind(close, start, limit)
    while at >= 0:
        before = at
        while before > start and text[before - 1].isspace():
            before -= 1
        if text.endswith(after, start, before):
            return at
        at = text.rfind(close, start, before)
    return text.find(close, start, limit)
