"""GLM-4.5 / 4.6 / 4.7: `<tool_call>NAME<arg_key>k</arg_key><arg_value>v</arg_value>...</tool_call>`.

GLM-4.5 and 4.6 put a newline after the name and between the tags, GLM-4.7 nothing. Some outputs
reach a session escaped once more, as the text of a JSON string: a literal `\\n` (backslash, n)
between the tags and `\\"` inside values. That layout is recognised, as SGLang recognises it, by a
literal `\\n` after the name or between a key and its value; the values of such a block are then
read back as the JSON string text they are (`\\"` is `"`, `\\n` a newline), when they read as one.
Values are kept as text, typed when the call is recovered by the tool's schema (`schema_values`).
"""

from __future__ import annotations

import json
import re

from inspector.catalogue import Catalogue
from inspector.detect.markup.blocks import Block, Call, element_values, find_literal, well_formed_end

ESCAPED_NEWLINE = "\\n"  # a backslash then `n`: a newline escaped once more
# Between the name and the first key, and between a key and its value: white space or escaped newlines.
_GAP = r"(?P<gap>(?:\s|\\n)*)"
_NAME = re.compile(rf"(?P<name>[^\W\d][\w.\-]*){_GAP}(?=<arg_key>|</tool_call>)")
_PAIR_HEAD = re.compile(rf"<arg_key>(?P<key>.*?)</arg_key>{_GAP}<arg_value>", re.S)
_STRING_TEXT = json.JSONDecoder(strict=False)


def glm_block(text: str, start: int, position: int, catalogue: Catalogue) -> Block | None:
    """The GLM call whose name is at `position`, in the block that begins at `start`; None when
    it is prose (`<tool_call>word</tool_call>` is a call only of a known tool)."""
    named = _NAME.match(text, position)
    if named is None:
        return None
    body_end, end = _body_end(text, named.end())
    found = list(element_values(text, "<arg_key>", _PAIR_HEAD, "</arg_value>", named.end(), body_end))
    name = named.group("name")
    if not found and name not in catalogue:
        return None
    escaped = ESCAPED_NEWLINE in named.group("gap") or any(ESCAPED_NEWLINE in m.group("gap") for m, _ in found)
    pairs = {m.group("key").strip(): _unescaped(value) if escaped else value for m, value in found}
    return Block(start, end, "glm", (Call(name, pairs, text_values=True),))


def _body_end(text: str, position: int) -> tuple[int, int]:
    """Where a GLM call's body from `position` ends and where its block ends: at the last
    `</tool_call>` before the next `<tool_call>` that closes its last value (a `</tool_call>` inside
    a value does not end it), else at the first; where the next block begins (or the text ends)
    when none closes it."""
    following = find_literal(text, "<tool_call>", position)
    limit = len(text) if following < 0 else following
    found = well_formed_end(text, "</tool_call>", position, limit, ("</arg_value>",))
    return (limit, limit) if found < 0 else (found, found + len("</tool_call>"))


def _unescaped(value: str) -> str:
    """A value escaped once more read back as the JSON string text it is, or as it is when it
    does not read as one (a quote left bare, an unknown escape)."""
    try:
        decoded: str = _STRING_TEXT.decode(f'"{value}"')  # a JSON string's text reads as a `str`
        return decoded
    except (ValueError, RecursionError):
        return value
