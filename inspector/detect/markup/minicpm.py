"""MiniCPM 5: `<function name="NAME"><param name="k">v</param>...</function>`, in `<tool_call>` or not.

Read as Ollama's MiniCPM 5 parser reads it: a call is a closed `<function>` element naming a tool
the catalogue knows (an element left open, or naming no known tool, is text; so is an element with
no `<param>` outside `<tool_call>` that prose follows on its line); a value in CDATA
(`<![CDATA[...]]>`) is kept exactly, any other value without the white space around it. Values are
text, typed when the call is recovered by the tool's schema (`schema_values`). Each element's body
is read once, up to the next `<function` (linear time).
"""

from __future__ import annotations

from inspector.catalogue import Catalogue
from inspector.detect.markup.blocks import Block, Call, Reader, close_after, element_values, find_literal
from inspector.support.lazy_pattern import lazy_pattern

START = "<function name="
_FUNCTION = lazy_pattern(r"""<function\s+name\s*=\s*["'](?P<name>[^"'<>]+)["']\s*>""")
_PARAM_HEAD = lazy_pattern(r"""<param\s+name\s*=\s*["'](?P<key>[^"'<>]+)["']\s*>""")
_CDATA_OPEN, _CDATA_CLOSE = "<![CDATA[", "]]>"


def function_block(text: str, start: int, position: int, catalogue: Catalogue, wrapper_close: str) -> Block | None:
    """The `<function name=..>` element at `position` (then `wrapper_close` when it follows), in a
    block that begins at `start`; None unless it names a known tool and closes before the next."""
    opened = _FUNCTION.match(text, position)
    if opened is None or opened.group("name") not in catalogue:
        return None
    following = find_literal(text, START, opened.end())
    closed = find_literal(text, "</function>", opened.end(), None if following < 0 else following)
    if closed < 0:
        return None
    found = element_values(text, "<param", _PARAM_HEAD, "</param>", opened.end(), closed)
    arguments = {head.group("key"): _value(written) for head, written in found}
    element_end = closed + len("</function>")
    if not arguments and start == position and not _ends_line(text, element_end):
        return None  # an empty element in a sentence: prose that names the tag
    end = close_after(text, element_end, wrapper_close)
    return Block(start, end, "minicpm5", (Call(opened.group("name"), arguments, text_values=True),))


def _ends_line(text: str, position: int) -> bool:
    """Whether only white space follows `position` on its line."""
    line_end = text.find("\n", position)
    return not text[position : len(text) if line_end < 0 else line_end].strip()


def _value(written: str) -> str:
    """A parameter's value: a CDATA section's text exactly, else the text without the white space around it."""
    stripped = written.strip()
    if stripped.startswith(_CDATA_OPEN) and stripped.endswith(_CDATA_CLOSE):
        return stripped[len(_CDATA_OPEN) : -len(_CDATA_CLOSE)]
    return stripped


def _bare(text: str, start: int, after: int, catalogue: Catalogue) -> Block | None:
    """A `<function name=..>` element with no `<tool_call>` around it."""
    return function_block(text, start, start, catalogue, "</tool_call>")


READERS: dict[str, Reader] = {START: _bare}
