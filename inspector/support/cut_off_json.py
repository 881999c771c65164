"""JSON that a text cuts off (a reply or an argument string that stopped at max tokens): what is
left open, and the value completed by closing it.

One pass over the tokens (strings and comments skipped whole, as in `lenient_json`): the brackets
still open when the text ends, and whether it ends inside a string. Completing closes that string
and those brackets, in order, and nothing else: when the result is not then plain JSON (a key
without its value, a word or a number cut short), no completion is offered.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from inspector.support.lazy_pattern import lazy_pattern
from inspector.support.lenient_json import STRING_OR_COMMENT, loads_json, scannable

_TOKENS = lazy_pattern(STRING_OR_COMMENT + r"""| [\[{](?P<open>) | [\]}](?P<close>) | ["'](?P<cut>)""", re.S | re.X)
_CLOSERS = {"[": "]", "{": "}"}
_NOUNS = (("[", "list"), ("{", "object"))
_DANGLING_COMMA = lazy_pattern(r",\s*\Z")


class Opening(NamedTuple):
    """How the value that opens a text ends: `end`, just past its closing bracket, or None when the
    text cuts it off; then the brackets still open, outermost first, and where the string the text
    stops in begins (None when it stops outside a string)."""

    end: int | None
    still_open: tuple[str, ...] = ()
    cut_string: int | None = None


def opening_value(text: str) -> Opening:
    """Where the object or array opening `text` (after white space) closes, or what is still open
    where the text ends; positions are in `text`."""
    brackets: list[str] = []
    for match in _TOKENS.finditer(scannable(text, len(text), strings=False)):
        kind = match.lastgroup
        if kind == "open":
            brackets.append(match.group())
        elif kind == "close":
            if brackets:
                brackets.pop()
            if not brackets:
                return Opening(match.end())
        elif kind == "cut":  # a quote that never closes: the text stops inside this string
            return Opening(None, tuple(brackets), match.start())
    return Opening(None, tuple(brackets))


def describe(opening: Opening) -> str:
    """What completing an opening closes, in words: `an unfinished string and 2 objects`."""
    parts = ["an unfinished string"] if opening.cut_string is not None else []
    for bracket, noun in _NOUNS:
        if count := opening.still_open.count(bracket):
            parts.append(f"{count} {noun}{'s' if count > 1 else ''}")
    return " and ".join(parts)


def complete_cut_off(text: str) -> tuple[Any, Opening] | None:
    """The value of JSON that `text` cuts off (it opens with `{` or `[` that never close), completed
    by closing the double-quoted string it stops in and its open brackets (a comma left dangling
    before the cut is dropped), with what was open; None when the text is not cut off JSON, or
    when more than closing would be needed."""
    if not text.lstrip().startswith(("{", "[")):
        return None
    opening = opening_value(text)
    if opening.end is not None or not opening.still_open:
        return None
    body = text
    if opening.cut_string is None:
        body = _DANGLING_COMMA.sub("", text.rstrip())
    elif text[opening.cut_string] != '"':
        return None
    closing = ('"' if opening.cut_string is not None else "") + "".join(
        _CLOSERS[bracket] for bracket in reversed(opening.still_open)
    )
    try:
        return loads_json(body + closing), opening
    except (ValueError, RecursionError):
        return None
