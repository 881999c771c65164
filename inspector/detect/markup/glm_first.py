"""The first GLM generations: the tool's name alone on a line, then its arguments on the next.

GLM-4 (`glm-4-9b-chat`) writes `NAME` then a JSON object, read as GLM-4's own server demo reads it:
the name is a tool the catalogue knows, the next line starts the object and the object fills the
rest. ChatGLM3 writes `NAME` then a Python fence holding `tool_call(k=v, ...)`; its server runs the
fence's inner lines with `tool_call` returning its keyword arguments, where here they are read
with `ast` (literal values only, nothing runs), the name any function name. Such a call is where the
model's turn begins: the whole reply (after the thinking that opens it), or the text after the role
token `<|assistant|>` up to the next one (ChatGLM3's server splits its output there); text after
the arguments makes it prose. Each stretch is read once (linear time).
"""

from __future__ import annotations

import re

from inspector.catalogue import Catalogue
from inspector.detect.markup.blocks import Block, Call, Reader, find_literal
from inspector.detect.markup.pythonic import pythonic_calls
from inspector.support.lazy_pattern import lazy_pattern
from inspector.support.lenient_json import parse_object_at

ROLE = "<|assistant|>"
FENCE_CALL = "tool_call("  # what every ChatGLM3 call holds: the detector's prefilter
_NAME_LINE = lazy_pattern(r"(?P<name>[^\W\d][\w.\-]*)[ \t]*\n(?=\{|```)")
_FENCE = lazy_pattern(r"```[ \t]*(?:python|py)?[ \t]*\n(?P<body>.*?)\n[ \t]*```", re.S)


def opening_call(text: str, start: int, catalogue: Catalogue) -> Block | None:
    """The call that opens the reply at `start` (after its thinking), read up to the first role
    token (or the end of the text); None when the reply opens otherwise."""
    if _NAME_LINE.match(text, start) is None:  # most replies: no name line, so no role token looked for
        return None
    following = find_literal(text, ROLE, start)
    return named_call(text, start, start, len(text) if following < 0 else following, catalogue)


def named_call(text: str, start: int, position: int, end: int, catalogue: Catalogue) -> Block | None:
    """The call of `text[position:end]` (`NAME`, then a JSON object or a `tool_call(..)` fence,
    then nothing but white space), in a block that begins at `start`; None when it is not one."""
    named = _NAME_LINE.match(text, position, end)
    if named is None:
        return None
    name, at = named.group("name"), named.end()
    if text.startswith("{", at):
        parsed = parse_object_at(text[at:end]) if name in catalogue else None
        if parsed is None or text[at + parsed.end : end].strip():
            return None
        return Block(start, at + parsed.end, "glm-4", (Call(name, parsed.value),))
    fence = _FENCE.match(text, at, end)
    if fence is None or text[fence.end() : end].strip() or FENCE_CALL not in fence.group("body"):
        return None
    calls, note = pythonic_calls(fence.group("body"))
    if len(calls) != 1 or calls[0].name != "tool_call":
        return None
    return Block(start, fence.end(), "chatglm3", (Call(name, calls[0].arguments),), note)


def _after_role(text: str, start: int, after: int, catalogue: Catalogue) -> Block | None:
    """The call that follows the role token `<|assistant|>` (its name right after it), up to the
    next one."""
    following = find_literal(text, ROLE, after)
    return named_call(text, start, after, len(text) if following < 0 else following, catalogue)


READERS: dict[str, Reader] = {ROLE: _after_role}
