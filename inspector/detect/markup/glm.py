"""GLM-4.5 / 4.6 / 4.7: `<tool_call>NAME<arg_key>k</arg_key><arg_value>v</arg_value>...</tool_call>`.

GLM-4.5 and 4.6 put a newline after the name and between the tags, GLM-4.7 nothing. Some outputs
reach a session escaped once more, as the text of a JSON string: a literal `\\n` (backslash, n)
between the tags and `\\"` inside values. That layout is recognised, as SGLang recognises it, by a
literal `\\n` after the name or between a key and its value; the values of such a block are then
read back as the JSON string text they are (`\\"` is `"`, `\\n` a newline), when they read as one.
Values are kept as text, typed when the call is recovered by the tool's schema (`schema_values`).
LongCat-Flash writes the same shape with its own tags (`<longcat_tool_call>NAME<longcat_arg_key>k
</longcat_arg_key><longcat_arg_value>v</longcat_arg_value></longcat_tool_call>`), read alike.
"""

from __future__ import annotations

import json
import re
from typing import NamedTuple

from inspector.catalogue import Catalogue
from inspector.detect.markup.blocks import Block, Call, element_values, find_literal, well_formed_end

ESCAPED_NEWLINE = "\\n"  # a backslash then `n`: a newline escaped once more
# Between the name and the first key, and between a key and its value: white space or escaped newlines.
_GAP = r"(?P<gap>(?:\s|\\n)*)"
_STRING_TEXT = json.JSONDecoder(strict=False)


class PairTags(NamedTuple):
    """How a family writes a call of key/value pairs: its family, the block's tags, the opening
    tags of a key and of a value, the closing tag of a value, and the patterns of a name (with the
    gap after it) and of a pair's head (its key, the gap, the value's opening tag)."""

    family: str
    opening: str
    closing: str
    key_opening: str
    value_closing: str
    name: re.Pattern[str]
    pair_head: re.Pattern[str]


def pair_tags(family: str, block: str, key: str, value: str) -> PairTags:
    """The tags of a family whose block is `<block>` and whose pairs are `<key>`, `<value>`."""
    name = re.compile(rf"(?P<name>[^\W\d][\w.\-]*){_GAP}(?=<{key}>|</{block}>)")
    head = re.compile(rf"<{key}>(?P<key>.*?)</{key}>{_GAP}<{value}>", re.S)
    return PairTags(family, f"<{block}>", f"</{block}>", f"<{key}>", f"</{value}>", name, head)


GLM = pair_tags("glm", "tool_call", "arg_key", "arg_value")
LONGCAT = pair_tags("longcat", "longcat_tool_call", "longcat_arg_key", "longcat_arg_value")


def glm_block(text: str, start: int, position: int, catalogue: Catalogue, tags: PairTags = GLM) -> Block | None:
    """The call whose name is at `position`, in the block that begins at `start`, in the family's
    `tags`; None when it is prose (`<tool_call>word</tool_call>` is a call only of a known tool)."""
    named = tags.name.match(text, position)
    if named is None:
        return None
    body_end, end = _body_end(text, named.end(), tags)
    found = list(element_values(text, tags.key_opening, tags.pair_head, tags.value_closing, named.end(), body_end))
    name = named.group("name")
    if not found and name not in catalogue:
        return None
    escaped = ESCAPED_NEWLINE in named.group("gap") or any(ESCAPED_NEWLINE in m.group("gap") for m, _ in found)
    pairs = {m.group("key").strip(): _unescaped(value) if escaped else value for m, value in found}
    return Block(start, end, tags.family, (Call(name, pairs, text_values=True),))


def _body_end(text: str, position: int, tags: PairTags) -> tuple[int, int]:
    """Where a call's body from `position` ends and where its block ends: at the last closing tag
    (`</tool_call>`) before the next opening one that closes its last value (a closing tag inside
    a value does not end it), else at the first; where the next block begins (or the text ends)
    when none closes it."""
    following = find_literal(text, tags.opening, position)
    limit = len(text) if following < 0 else following
    found = well_formed_end(text, tags.closing, position, limit, (tags.value_closing,))
    return (limit, limit) if found < 0 else (found, found + len(tags.closing))


def _unescaped(value: str) -> str:
    """A value escaped once more read back as the JSON string text it is, or as it is when it
    does not read as one (a quote left bare, an unknown escape)."""
    try:
        decoded: str = _STRING_TEXT.decode(f'"{value}"')  # a JSON string's text reads as a `str`
        return decoded
    except (ValueError, RecursionError):
        return value
