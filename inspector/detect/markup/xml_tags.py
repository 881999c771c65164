"""Tag families whose arguments are XML-style elements, one per parameter.

Qwen3-Coder `<function=NAME><parameter=K>v</parameter></function>` (inside `<tool_call>` or not)
and Functionary `<function=NAME>{json}</function>`; Seed-OSS, the same inside `<seed:tool_call>`;
Anthropic-style `<function_calls>` and MiniMax `<minimax:tool_call>` holding `<invoke name=..>
<parameter name=..>` (MiniMax's also with its opening tag dropped: whole `<invoke>` elements, one
after another, right before `</minimax:tool_call>`, as ai-dynamo's parsers recover them), and
Glimmer's the same in the ATEM namespace (`<atem:function_calls>`, `<atem:invoke>`,
`<atem:parameter>`); OLMo 3 `<function_calls>` holding one pythonic call per line (JSON's `null`,
`true` and `false` read as None, True and False); DeepSeek DSML `<｜DSML｜function_calls>` (a
parameter with `string="false"` holds JSON). An `<invoke>` with no `<parameter>` whose body is a
JSON object holds the arguments as that object. Text values are kept as written and typed once, when
the detector recovers the call, by the tool's schema (`schema_values`). A parameter's layout is not
part of its value (`blocks.xml_text`): the newline after its opening tag and the one before its
closing tag, and when the markup is indented, that tag's indentation and the one the value's lines
share. GLM's `<arg_key>` pairs are read by `glm`, Step3's `<steptml:invoke>` by `step3`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from inspector.catalogue import Catalogue
from inspector.detect.markup.blocks import (
    CALLS_CAPPED,
    MAX_CALLS,
    UNPARSED,
    Block,
    Call,
    Reader,
    close_after,
    element_values,
    end_of,
    find_literal,
    well_formed_end,
    xml_text,
)
from inspector.detect.markup.pythonic import pythonic_calls
from inspector.support.lazy_pattern import lazy_pattern
from inspector.support.leading_space import SPACE
from inspector.support.lenient_json import json_or_text, loads_lenient

DSML = "<｜DSML｜"  # full-width bar U+FF5C
MINIMAX_OPEN, MINIMAX_CLOSE = "<minimax:tool_call>", "</minimax:tool_call>"
_FUNCTION = lazy_pattern(r"<function=(?P<name>[\w.\-]+)>")
_PARAMETER_HEAD = lazy_pattern(r"<parameter=(?P<key>[\w.\-]+)>")


@dataclass(frozen=True)
class InvokeSyntax:
    """How one family writes `<invoke name=..><parameter name=..>v</parameter></invoke>` calls:
    the invoke pattern, the parameter's opening tag (its literal start, its pattern, its closing
    tag), how a parameter's value is read from its head and its text, and whether the values are
    text as written (typed when the call is recovered)."""

    invoke: re.Pattern[str]
    parameter_literal: str
    parameter_head: re.Pattern[str]
    parameter_close: str
    value: Callable[[re.Match[str], str], Any]
    text_values: bool


def invoke_syntax(prefix: str, value: Callable[[re.Match[str], str], Any], text_values: bool) -> InvokeSyntax:
    """The syntax of `<invoke>` / `<parameter>` tags that begin `<` + `prefix`."""
    p = re.escape(prefix)
    invoke = re.compile(rf"<{p}invoke\s+name=\"(?P<name>[^\"]+)\"\s*>(?P<body>.*?)(?:</{p}invoke>|\Z)", re.S)
    head = re.compile(rf"<{p}parameter\s+name=\"(?P<key>[^\"]+)\"(?P<attributes>[^>]*)>", re.S)
    return InvokeSyntax(invoke, f"<{prefix}parameter", head, f"</{prefix}parameter>", value, text_values)


def _parameter_value(match: re.Match[str], written: str) -> Any:
    """A DSML `<parameter>` element's value: text, or JSON when it says `string="false"`."""
    value = xml_text(written)
    return json_or_text(value) if 'string="false"' in match.group("attributes") else value


_INVOKE = invoke_syntax("", lambda match, written: xml_text(written), text_values=True)
_DSML_INVOKE = invoke_syntax("｜DSML｜", _parameter_value, text_values=False)  # DSML says which values are JSON
_ATEM = invoke_syntax("atem:", lambda match, written: xml_text(written), text_values=True)


def qwen_block(text: str, start: int, position: int, wrapper_close: str, family: str) -> Block | None:
    """The `<function=NAME>` element at `position` (XML parameters, or Functionary's JSON), then
    `wrapper_close` when it follows; the block begins at `start`."""
    match = _FUNCTION.match(text, position)
    if match is None:
        return None
    body_end, end = _function_end(text, match.end())
    if _is_prose(text, match.end(), body_end):
        return None
    body = text[match.end() : body_end]
    arguments: dict[str, Any] | None
    if body.lstrip().startswith("{"):
        loaded = loads_lenient(body.strip())
        arguments = loaded[0] if loaded and isinstance(loaded[0], dict) else None
        family = "functionary" if family == "qwen3-coder" else family
    else:  # `<parameter=` elements, or nothing
        found = element_values(text, "<parameter=", _PARAMETER_HEAD, "</parameter>", match.end(), body_end)
        arguments = {m.group("key"): xml_text(value) for m, value in found}
    note = "" if arguments is not None else UNPARSED
    call = Call(match.group("name"), arguments, text_values=family != "functionary")
    return Block(start, close_after(text, end, wrapper_close), family, (call,), note)


def _function_end(text: str, position: int) -> tuple[int, int]:
    """Where the body of a `<function=NAME>` element from `position` ends and where the element
    ends: at the last `</function>` before the next `<function=` that closes its last parameter
    or JSON (a `</function>` inside a value does not end it); where the next element begins (or
    the text ends) when none closes it."""
    following = find_literal(text, "<function=", position)
    limit = len(text) if following < 0 else following
    found = well_formed_end(text, "</function>", position, limit, (">", "}"))
    return (limit, limit) if found < 0 else (found, found + len("</function>"))


def _is_prose(text: str, position: int, body_end: int) -> bool:
    """Whether the body of a `<function=NAME>` element, `text[position:body_end]`, is prose: neither
    JSON, nor `<parameter=` elements, nor empty. Known without reading the body (its first character
    and an index of `<parameter=`): a body left open runs to the end of the text, and reading it
    again from each later `<function=` was quadratic."""
    first = SPACE.match(text, position, body_end).end()
    return first < body_end and text[first] != "{" and find_literal(text, "<parameter=", position, body_end) < 0


def _function(text: str, start: int, after: int, catalogue: Catalogue) -> Block | None:
    """A bare `<function=NAME>` element (Qwen3-Coder without its wrapper, or Functionary)."""
    return qwen_block(text, start, start, "</tool_call>", "qwen3-coder")


def _seed(text: str, start: int, after: int, catalogue: Catalogue) -> Block | None:
    """Seed-OSS `<seed:tool_call><function=NAME><parameter=K>v</parameter></function></seed:tool_call>`."""
    return qwen_block(text, start, SPACE.match(text, after).end(), "</seed:tool_call>", "seed-oss")


def _function_calls(text: str, start: int, after: int, catalogue: Catalogue) -> Block | None:
    """`<function_calls>`: `<invoke>` elements (Anthropic-style), else one pythonic call per line (OLMo 3)."""
    body_end, end = end_of(text, "</function_calls>", after, "<function_calls>")
    body = text[after:body_end]
    if "<invoke" in body:
        return invoke_block(text, start, after, (body_end, end), _INVOKE, "anthropic-xml")
    calls, note = pythonic_calls(body)
    return Block(start, end, "olmo", tuple(calls), note) if calls else None


def _invoke_reader(tag: str, syntax: InvokeSyntax, family: str) -> Reader:
    """A reader of `<tag>` blocks holding `<invoke name=..>` elements written in `syntax`."""
    close, opener = f"</{tag}>", f"<{tag}>"

    def read(text: str, start: int, after: int, catalogue: Catalogue) -> Block | None:
        return invoke_block(text, start, after, end_of(text, close, after, opener), syntax, family)

    return read


def invoke_block(
    text: str, start: int, after: int, ends: tuple[int, int], syntax: InvokeSyntax, family: str
) -> Block | None:
    """The block of `<invoke>` calls in the body from `after`, `ends` being where the body and the
    block end; when more follow the `MAX_CALLS`th call, the block ends with it, its note saying
    that the rest is left as text (a bound against hostile text)."""
    body_end, end = ends
    body = text[after:body_end]
    calls = []
    for call, call_end in _invoke_calls(body, syntax):
        calls.append(call)
        if len(calls) == MAX_CALLS and syntax.invoke.search(body, call_end):
            return Block(start, after + call_end, family, tuple(calls), CALLS_CAPPED)
    return Block(start, end, family, tuple(calls)) if calls else None


def _invoke_calls(body: str, syntax: InvokeSyntax) -> Iterator[tuple[Call, int]]:
    """The `<invoke name=..><parameter name=..>` calls in a block's body, each with where it ends."""
    for m in syntax.invoke.finditer(body):
        inner = m.group("body")
        if syntax.parameter_literal not in inner and inner.strip().startswith("{"):
            yield _json_invoke(m.group("name"), inner), m.end()
            continue
        found = element_values(
            inner, syntax.parameter_literal, syntax.parameter_head, syntax.parameter_close, 0, len(inner)
        )
        arguments = {head.group("key"): syntax.value(head, written) for head, written in found}
        yield Call(m.group("name"), arguments, syntax.text_values), m.end()


def _json_invoke(name: str, body: str) -> Call:
    """An `<invoke>` whose body is the arguments as one JSON object, not `<parameter>` elements
    (DeepSeek's DSML does this): its arguments None when they do not parse."""
    loaded = loads_lenient(body.strip())
    return Call(name, loaded[0] if loaded and isinstance(loaded[0], dict) else None)


def _minimax_headless(text: str, start: int, after: int, catalogue: Catalogue) -> Block | None:
    """MiniMax-M2 with its opening tag dropped: the whole `<invoke>` elements, one after another
    (white space between), that end right before the closing tag at `start`. None when the block
    has its opening tag (its own reader read it), or when anything else comes between the first
    `<invoke` after the last block and the closing tag: prose or code that shows `<invoke`. The
    stretch since the last closing tag is read once (linear time)."""
    previous = text.rfind(MINIMAX_CLOSE, 0, start)
    boundary = 0 if previous < 0 else previous + len(MINIMAX_CLOSE)
    first = text.find("<invoke", boundary, start)
    if first < 0 or text.find(MINIMAX_OPEN, boundary, start) >= 0:
        return None
    position = first
    while position < start:
        element = _INVOKE.invoke.match(text, position, start)
        if element is None or not element.group().endswith("</invoke>"):
            return None
        position = SPACE.match(text, element.end(), start).end()
    return invoke_block(text, first, first, (start, after), _INVOKE, "minimax")


READERS: dict[str, Reader] = {
    "<function=": _function,
    "<seed:tool_call>": _seed,
    "<function_calls>": _function_calls,
    # MiniMax M2 `<minimax:tool_call>`, also without it; DeepSeek V3.2 / V4 DSML `<｜DSML｜function_calls>` / `tool_calls>`
    MINIMAX_OPEN: _invoke_reader("minimax:tool_call", _INVOKE, "minimax"),
    MINIMAX_CLOSE: _minimax_headless,
    # Glimmer: the same elements in the ATEM namespace
    "<atem:function_calls>": _invoke_reader("atem:function_calls", _ATEM, "glimmer"),
    DSML + "function_calls>": _invoke_reader("｜DSML｜function_calls", _DSML_INVOKE, "deepseek-dsml"),
    DSML + "tool_calls>": _invoke_reader("｜DSML｜tool_calls", _DSML_INVOKE, "deepseek-dsml"),
}
