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
from inspector.detect.markup.blocks import Block, Call, end_of
from inspector.detect.markup.xml_tags import tag_matches

ESCAPED_NEWLINE = "\\n"  # a backslash then `n`: a newline escaped once more
# Between the name and the first key, and between a key and its value: white space or escaped newlines.
_GAP = r"(?P<gap>(?:\s|\\n)*)"
_NAME = re.compile(rf"(?P<name>[^\W\d][\w.\-]*){_GAP}(?=<arg_key>|</tool_call>)")
_PAIR = re.compile(rf"<arg_key>(?P<key>.*?)</arg_key>{_GAP}<arg_value>(?P<value>.*?)(?:</arg_value>|\Z)", re.S)
_PAIR_HEAD = re.compile("<arg_key>")
_STRING_TEXT = json.JSONDecoder(strict=False)


def glm_block(text: str, start: int, position: int, catalogue: Catalogue) -> Block | None:
    """The GLM call whose name is at `position`, in the block that begins at `start`; None when
    it is prose (`<tool_call>word</tool_call>` is a call only of a known tool)."""
    named = _NAME.match(text, position)
    if named is None:
        return None
    body_end, end = end_of(text, "</tool_call>", named.end())
    found = list(tag_matches(_PAIR, "<arg_key>", _PAIR_HEAD, text, named.end(), body_end, "</arg_key>"))
    name = named.group("name")
    if not found and name not in catalogue:
        return None
    escaped = ESCAPED_NEWLINE in named.group("gap") or any(ESCAPED_NEWLINE in m.group("gap") for m in found)
    pairs = {m.group("key").strip(): _unescaped(m.group("value")) if escaped else m.group("value") for m in found}
    return Block(start, end, "glm", (Call(name, pairs, text_values=True),))


def _unescaped(value: str) -> str:
    """A value escaped once more read back as the JSON string text it is, or as it is when it
    does not read as one (a quote left bare, an unknown escape)."""
    try:
        decoded: str = _STRING_TEXT.decode(f'"{value}"')  # a JSON string's text reads as a `str`
        return decoded
    except (ValueError, RecursionError):
        return value
