"""DeepSeek's and Kimi K2's call tokens left in a reply without the call they should frame.

The family readers (`special_tokens`) read a well-formed section. What they leave: a section
start with nothing after it that parses (vLLM's own tests: `<｜tool▁calls▁begin｜>get_weather`
where the output stopped; `<｜tool▁calls▁begin｜>foo<｜tool▁sep｜>{"x":1}` with the call markers
missing; Kimi's `<|tool_calls_section_begin|>functions.f:0 {...}` without its inner tokens), and a
call whose opening tokens are gone (`functions.f:0<|tool_call_argument_begin|>{...}`,
`f<｜tool▁sep｜>{...}`, DeepSeek V3's `function<｜tool▁sep｜>f` then the object, fenced or not), and DeepSeek's closing tokens with no call before them. Something leaked,
so each is a block: the call is recovered when a name and a JSON object are there (completed as a
guess when the end of the reply cuts it off), else the tokens are stripped with a warning.

DeepSeek's full-width tokens never occur in prose; Kimi's are plain ASCII, so a Kimi start token
counts only when call text follows it (a name with its index, `functions.`, another token, an
object, or the end of the reply): `Kimi opens a section with <|tool_calls_section_begin|> before
its calls` is prose.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from inspector.catalogue import Catalogue
from inspector.detect.markup import special_tokens
from inspector.detect.markup.blocks import UNPARSED, Block, Call, Reader, close_after, cut_off_arguments, end_of
from inspector.support.lazy_pattern import lazy_pattern
from inspector.support.leading_space import SPACE
from inspector.support.lenient_json import parse_object_at

MARKERS_MISSING = "a call whose markers are partly missing"
_NO_CALL = "a call section with no call in it that can be read"
_NO_NAME = "arguments for a tool it does not name"
_STRAY_END = "a call section's closing token with no call before it"
_NAME_ONLY = "the tool's name and nothing after it that parses"
# How far before a mid-call token its tool's name may begin (one call id, `functions.NAME:IDX`).
_MAX_NAME_CHARS = 200
_NAME_CHARS = lazy_pattern(r"[\w.:\-]")


@dataclass(frozen=True)
class _Family:
    """A family's tokens: those that open a section or a call, the one between a call's name and its
    arguments, and those that close a call and a section."""

    name: str
    starts: tuple[str, ...]
    separator: str
    call_end: str
    section_end: str
    ascii: bool


_DEEPSEEK = _Family(
    "deepseek",
    ("<｜tool▁calls▁begin｜>", "<｜tool▁call▁begin｜>"),
    "<｜tool▁sep｜>",
    "<｜tool▁call▁end｜>",
    "<｜tool▁calls▁end｜>",
    ascii=False,
)
_KIMI = _Family(
    "kimi-k2",
    ("<|tool_calls_section_begin|>", "<|tool_call_begin|>"),
    "<|tool_call_argument_begin|>",
    "<|tool_call_end|>",
    "<|tool_calls_section_end|>",
    ascii=True,
)


def _call_pattern(family: _Family) -> re.Pattern[str]:
    """After a family's start tokens: a call id (`functions.NAME:IDX`, `NAME`, or a bare index) and
    the separator, each optional, then white space."""
    starts = "|".join(re.escape(token) for token in family.starts)
    return re.compile(
        rf"(?:\s*(?:{starts}))*\s*(?:(?:functions\.)?(?P<name>[A-Za-z_][\w.\-]*)(?::\d+)?|\d+)?\s*"
        rf"(?P<separator>{re.escape(family.separator)})?\s*"
    )


_CALLS = {_DEEPSEEK.name: _call_pattern(_DEEPSEEK), _KIMI.name: _call_pattern(_KIMI)}
# What makes a Kimi start token a call rather than a word in prose: call text right after it.
_KIMI_CALL_TEXT = lazy_pattern(r"\s*(?:\Z|<\||functions\.|[\w.\-]+:\d|\d+\s*<\||\{)")
_CALL_ID = lazy_pattern(r"(?:functions\.)?(?P<name>[A-Za-z_][\w.\-]*)(?::\d+)?[ \t]*")
_V3_TOOL = lazy_pattern(special_tokens.V3_TOOL)
_FENCE_CLOSE = lazy_pattern(r"\s*```")


def _fallback(family: _Family, reader: Reader) -> Reader:
    """A start token's reader: the family's own, else the leaked tokens' block."""

    def read(text: str, start: int, after: int, catalogue: Catalogue) -> Block | None:
        block = reader(text, start, after, catalogue)
        if block is not None:
            return block
        if family.ascii and not _KIMI_CALL_TEXT.match(text, after):
            return None
        return _leaked_call(text, start, after, family)

    return read


def _leaked_call(text: str, start: int, after: int, family: _Family) -> Block:
    """The block a start token opens when its family's reader found no call: the call read from
    what follows (a name, the separator if any, an object), or the tokens alone."""
    named = _CALLS[family.name].match(text, after)
    if named is None:
        return _call_block(text, start, after, None, family)
    if named.group("separator"):
        return _typed_call(text, start, named.end(), named.group("name"), family)
    return _call_block(text, start, named.end(), named.group("name"), family)


def _typed_call(text: str, start: int, position: int, name: str | None, family: _Family) -> Block:
    """A leaked call from `start` whose separator ends at `position`, `name` the id before it. A
    DeepSeek V3 call is typed `function` there and names its tool after the separator
    (`function<｜tool▁sep｜>NAME`, then the object, fenced or not); any other call is named before it."""
    if family is not _DEEPSEEK or name != "function" or (typed := _V3_TOOL.match(text, position)) is None:
        return _call_block(text, start, position, name, family)
    return _call_block(text, start, typed.end(), typed.group("typed"), family, typed.group("fence") is not None)


def _call_block(text: str, start: int, position: int, name: str | None, family: _Family, fenced: bool = False) -> Block:
    """A leaked call from `start`, its arguments (if any) at `position` (in a fence when `fenced`):
    recovered when it has a name and an object; completed as a guess when the end of the reply cuts
    the object off."""
    if name is not None and text.startswith("{", position):
        parsed = parse_object_at(text, position)
        if parsed is not None:
            end = parsed.end
            if fenced and (fence := _FENCE_CLOSE.match(text, end)):
                end = fence.end()
            end = close_after(text, close_after(text, end, family.call_end), family.section_end)
            return Block(start, end, family.name, (Call(name, parsed.value),), MARKERS_MISSING)
        if cut := cut_off_arguments(text, position):
            return Block(start, cut.end, family.name, (Call(name, cut.arguments),), cut.note, guessed=True)
    end = _section_end(text, position, family)
    has_object = text.startswith("{", position)
    if name is None:
        return Block(start, end, family.name, (Call(None, None),), _NO_NAME if has_object else _NO_CALL)
    return Block(start, end, family.name, (Call(name, None),), UNPARSED if has_object else _NAME_ONLY)


def _section_end(text: str, position: int, family: _Family) -> int:
    """Where leaked tokens end: after the section's closing token, else the call's, else at the end
    of the reply (white space aside); never past the next start token."""
    for close in (family.section_end, family.call_end):
        body_end, end = end_of(text, close, position, family.starts[0])
        if end != body_end or body_end < len(text):
            return end
    return len(text.rstrip())


def _separator_reader(family: _Family) -> Reader:
    """The separator token of a call whose start tokens are gone: `NAME<sep>{json}` (the name, with
    Kimi's `functions.` and index, just before it on its line)."""

    def read(text: str, start: int, after: int, catalogue: Catalogue) -> Block | None:
        begin = _name_start(text, start)
        named = _CALL_ID.fullmatch(text, begin, start) if begin < start else None
        if named is None or (begin > 0 and text[begin - 1] == "`"):  # no name, or inline code
            return None
        return _typed_call(text, begin, SPACE.match(text, after).end(), named.group("name"), family)

    return read


def _name_start(text: str, position: int) -> int:
    """Where the call id that ends just before `position` (white space aside) begins: read backwards,
    `_MAX_NAME_CHARS` at most (a bound: each separator reads that little)."""
    end = position
    while end > 0 and text[end - 1] in " \t":
        end -= 1
    begin = end
    while begin > max(0, end - _MAX_NAME_CHARS) and _NAME_CHARS.match(text, begin - 1):
        begin -= 1
    return begin if text[begin:end] else position


def _stray_end(text: str, start: int, after: int, catalogue: Catalogue) -> Block:
    """A DeepSeek closing token that no call comes before (one that closes a call read is part of
    its block), with the closing tokens that follow it."""
    end = close_after(text, close_after(text, after, _DEEPSEEK.call_end), _DEEPSEEK.section_end)
    return Block(start, end, _DEEPSEEK.name, (Call(None, None),), _STRAY_END)


READERS: dict[str, Reader] = {
    **{
        token: _fallback(family, special_tokens.READERS[token])
        for family in (_DEEPSEEK, _KIMI)
        for token in family.starts
    },
    _DEEPSEEK.separator: _separator_reader(_DEEPSEEK),
    _KIMI.separator: _separator_reader(_KIMI),
    _DEEPSEEK.call_end: _stray_end,
    _DEEPSEEK.section_end: _stray_end,
}
