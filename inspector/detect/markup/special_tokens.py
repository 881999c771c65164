"""Families written with a model's special tokens, leaked as text.

DeepSeek V3 / R1 `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME` then a
```` ```json ```` fence (or the object alone, on the name's line or the next: vLLM and SGLang read
only the fenced form), and V3.1 `<｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{json}` (full-width bar
U+FF5C, `▁` U+2581; also retyped in ASCII, `<|tool_calls_begin|>` or `<|tool▁calls▁begin|>`), each
call closed by `<｜tool▁call▁end｜>` and the section by `<｜tool▁calls▁end｜>`; Kimi K2 `<|tool_calls_section_begin|><|tool_call_begin|>functions.NAME:IDX
<|tool_call_argument_begin|>{json}<|tool_call_end|>`; gpt-oss Harmony `<|channel|>commentary
to=functions.NAME <|constrain|>json<|message|>{json}<|call|>` (also after `<|start|>assistant`);
Gemma 4 `<|tool_call>call:NAME{k:<|"|>v<|"|>}<tool_call|>` and FunctionGemma
`<start_function_call>call:NAME{k:<escape>v<escape>}<end_function_call>` (unquoted keys).
"""

from __future__ import annotations

import json
import re
from itertools import pairwise
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
    cut_off_arguments,
    end_of,
)
from inspector.support.lazy_pattern import lazy_pattern
from inspector.support.leading_space import SPACE
from inspector.support.lenient_json import loads_lenient, parse_object_at

# V3 / R1 type the call (`function`) before the separator and name the tool after it, then fence the
# JSON (or not: the object on the name's line or the next); V3.1 name the tool before the separator.
V3_TOOL = r"(?P<typed>[A-Za-z_][\w.\-]*)\s*(?P<fence>```[ \t]*(?:json)?\s*)?"
# How DeepSeek's tokens are spelled: its own (full-width bars U+FF5C, `▁` U+2581), and as models and
# templates retype them in ASCII: `|` for the bars, with `▁` or `_` between the words.
DEEPSEEK_SPELLINGS = (("｜", "▁"), ("|", "▁"), ("|", "_"))


def deepseek_token(words: str, bar: str, space: str) -> str:
    """DeepSeek's token of `words` (`tool calls begin`) in one spelling."""
    return f"<{bar}{words.replace(' ', space)}{bar}>"


def _deepseek_call(bar: str, space: str) -> re.Pattern[str]:
    """A DeepSeek call's opening, up to its JSON, in one spelling."""
    begin, sep = (
        re.escape(deepseek_token("tool call begin", bar, space)),
        re.escape(deepseek_token("tool sep", bar, space)),
    )
    return re.compile(rf"{begin}\s*(?:function\s*{sep}\s*{V3_TOOL}|(?P<name>[A-Za-z_][\w.\-]*)\s*{sep}\s*)")


_KIMI_CALL = lazy_pattern(
    r"<\|tool_call_begin\|>\s*(?:functions\.)?(?P<name>[A-Za-z_][\w.\-]*?)(?::\d+)?\s*<\|tool_call_argument_begin\|>\s*"
)
_FENCE_CLOSE = lazy_pattern(r"\s*```")
_HARMONY = lazy_pattern(
    r"(?:<\|start\|>\s*assistant\s*)?(?:to=(?:functions\.)?(?P<before>[\w.\-]+)\s*)?<\|channel\|>\s*\w+"
    r"(?:\s+to=(?:functions\.)?(?P<after>[\w.\-]+))?\s*(?:<\|constrain\|>\s*)?(?:json\s*)?<\|message\|>\s*"
)
_GEMMA_QUOTE = lazy_pattern(r'<\|"\|>|<escape>')
_GEMMA_CALL = lazy_pattern(r"\s*call:(?P<name>[A-Za-z_][\w.\-]*)\s*(?=\{)")
# A string's quote token, or the `}` that ends a call before the next `call:NAME{`.
_GEMMA_SCAN = lazy_pattern(r'(?P<quote><\|"\|>|<escape>)|\}\s*,?\s*(?=call:[A-Za-z_][\w.\-]*\s*\{)')


def _section_reader(family: str, item: re.Pattern[str], item_close: str, section_close: str) -> Reader:
    """A reader of a section of calls (or of one call when the marker opens a call): each call is
    `item` (naming the tool) then a JSON object then `item_close`."""

    def read(text: str, start: int, after: int, catalogue: Catalogue) -> Block | None:
        calls: list[Call] = []
        position = start if item.match(text, start) else SPACE.match(text, after).end()
        while (match := item.match(text, position)) is not None:
            if len(calls) == MAX_CALLS:
                return Block(start, position, family, tuple(calls), CALLS_CAPPED)
            name = match.group("name") or match.groupdict().get("typed")
            parsed = parse_object_at(text, match.end())
            if parsed is None and (cut := cut_off_arguments(text, match.end())):
                return Block(start, cut.end, family, (*calls, Call(name, cut.arguments)), cut.note, guessed=True)
            if parsed is None:
                calls.append(Call(name, None))
                position = end_of(text, section_close, match.end())[1]
                return Block(start, position, family, tuple(calls), UNPARSED)
            calls.append(Call(name, parsed.value))
            position = parsed.end
            if match.groupdict().get("fence") and (fence := _FENCE_CLOSE.match(text, position)):
                position = fence.end()
            position = SPACE.match(text, close_after(text, position, item_close)).end()
        if not calls:
            return None
        return Block(start, close_after(text, position, section_close), family, tuple(calls))

    return read


def _harmony(text: str, start: int, after: int, catalogue: Catalogue) -> Block | None:
    """gpt-oss Harmony: a `<|channel|>` header addressed `to=functions.NAME`, then `<|message|>`
    and the JSON arguments, then `<|call|>`."""
    header = _HARMONY.match(text, start)
    if header is None:
        return None
    name = header.group("after") or header.group("before")
    if not name:
        return None
    parsed = parse_object_at(text, header.end())
    if parsed is None and (cut := cut_off_arguments(text, header.end())):
        return Block(start, cut.end, "harmony", (Call(name, cut.arguments),), cut.note, guessed=True)
    if parsed is None:
        return Block(start, end_of(text, "<|call|>", header.end())[1], "harmony", (Call(name, None),), UNPARSED)
    return Block(start, close_after(text, parsed.end, "<|call|>"), "harmony", (Call(name, parsed.value),))


def _gemma_reader(close: str) -> Reader:
    """Gemma 4 / FunctionGemma: `call:NAME{...}` (one or more) then `close`; keys unquoted,
    strings quoted by tokens."""

    def read(text: str, start: int, after: int, catalogue: Catalogue) -> Block | None:
        named = _GEMMA_CALL.match(text, after)
        if named is None:
            return None
        body_end, end = end_of(text, close, named.start())
        calls = []
        for name, body in _gemma_calls(text[named.start() : body_end]):
            calls.append(Call(name, gemma_arguments(body)))
        note = UNPARSED if any(call.arguments is None for call in calls) else ""
        return Block(start, end, "gemma", tuple(calls), note)

    return read


def _gemma_calls(body: str) -> list[tuple[str, str]]:
    """The `call:NAME{...}` calls one after another in a Gemma block's body: each name and its
    object's text. A new call begins where `}` then `call:NAME{` comes outside a quoted string;
    at most `MAX_CALLS` (the last takes the rest)."""
    cuts: list[int] = []
    quoted = False
    for match in _GEMMA_SCAN.finditer(body):
        if match.group("quote"):
            quoted = not quoted
        elif not quoted:
            cuts.append(match.start() + 1)
    bounds = [0, *cuts[: MAX_CALLS - 1], len(body)]
    calls = []
    for left, right in pairwise(bounds):
        named = _GEMMA_CALL.match(body, left)
        if named is not None:
            calls.append((named.group("name"), body[named.end() : right]))
    return calls


def gemma_arguments(body: str) -> dict[str, Any] | None:
    """Gemma's `{k:<|"|>text<|"|>,n:3}` as an object: each string quoted by `<|"|>` or `<escape>`
    becomes a JSON string, then the rest (unquoted keys) is read as JS-style JSON. None when it
    does not parse."""
    parts = _GEMMA_QUOTE.split(body.strip())
    if len(parts) % 2 == 0:  # a string never closed
        return None
    rebuilt = "".join(json.dumps(part) if index % 2 else part for index, part in enumerate(parts))
    loaded = loads_lenient(rebuilt)
    return loaded[0] if loaded and isinstance(loaded[0], dict) else None


_DEEPSEEK_READERS = {
    (bar, space): _section_reader(
        "deepseek",
        _deepseek_call(bar, space),
        deepseek_token("tool call end", bar, space),
        deepseek_token("tool calls end", bar, space),
    )
    for bar, space in DEEPSEEK_SPELLINGS
}
_KIMI = _section_reader("kimi-k2", _KIMI_CALL, "<|tool_call_end|>", "<|tool_calls_section_end|>")


def _kimi_or_deepseek(text: str, start: int, after: int, catalogue: Catalogue) -> Block | None:
    """`<|tool_call_begin|>`: Kimi K2's call token, and DeepSeek's retyped in ASCII."""
    return _KIMI(text, start, after, catalogue) or _DEEPSEEK_READERS["|", "_"](text, start, after, catalogue)


READERS: dict[str, Reader] = {
    **{
        deepseek_token(words, bar, space): reader
        for (bar, space), reader in _DEEPSEEK_READERS.items()
        for words in ("tool calls begin", "tool call begin")
    },
    "<|tool_calls_section_begin|>": _KIMI,
    "<|tool_call_begin|>": _kimi_or_deepseek,
    "<|start|>": _harmony,
    "<|channel|>": _harmony,
    "<|tool_call>": _gemma_reader("<tool_call|>"),
    "<start_function_call>": _gemma_reader("<end_function_call>"),
}
