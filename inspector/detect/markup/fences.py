"""Calls in Markdown code fences, and a bare call object that is the whole text.

```` ```tool_call ````, ```` ```json ```` (seed 004) and plain fences count when they hold a call
object or a list of them whose name is a known tool or whose keys are exactly a call's; Gemini's
```` ```tool_code ```` holds `print(default_api.f(...))` lines. A fence of ordinary data, or of
code that merely contains dicts, is not a call. A `{...}` placeholder gives a strip-only block.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from inspector.catalogue import Catalogue
from inspector.detect.markup.blocks import (NAME_IN_TEXT, PLACEHOLDER, PLACEHOLDER_ARGUMENTS, UNPARSED, Block,
                                               Call, call_from_object, is_call_shape)
from inspector.detect.markup.pythonic import pythonic_calls
from inspector.support.lenient_json import parse_array_at, parse_object_at

_FENCE_LINE = re.compile(r"^[ \t]*```[ \t]*(?P<info>[^\n]*)$", re.M)
_LANGUAGE = re.compile(r"[\w\-]*")
CALL_FENCE_LANGUAGES = ("tool_call", "tool_calls")
_CALL_FENCES = {"tool_call", "tool_code", "json", "tool", "tool_calls", "json5", ""}
_ARGS_IN_TEXT = re.compile(r"[\"'](?:arguments|parameters)[\"']\s*:")
_TRAILING_JUNK = re.compile(r"[\s}\]]*\Z")


@dataclass(frozen=True)
class Fence:
    """A Markdown code fence: `[start, end)` from its opening line to its closing one, its
    language (lower case, "" for none) and the text between the two lines."""

    start: int
    end: int
    lang: str
    body: str


def find_fences(text: str) -> list[Fence]:
    """Every closed code fence in `text`, in order. One pass over the fence lines: an opening line
    (with or without a language) is closed by the next bare ```` ``` ```` line."""
    fences = []
    opening: re.Match[str] | None = None
    for line in _FENCE_LINE.finditer(text):
        bare = not line.group("info").strip()
        if opening is None:
            if line.end() < len(text):  # an opening line needs a line after it
                opening = line
        elif bare:
            lang = _LANGUAGE.match(opening.group("info")).group().lower()  # type: ignore[union-attr]
            fences.append(Fence(opening.start(), line.end(), lang, text[opening.end() + 1:line.start()]))
            opening = None
    return fences


def fence_block(fence: Fence, catalogue: Catalogue) -> Block | None:
    """The calls a ```` ```tool_call ````, ```` ```json ```` or ```` ```tool_code ```` fence holds."""
    lang = fence.lang
    if lang not in _CALL_FENCES:
        return None
    body = fence.body
    if lang == "tool_code":
        calls, note = pythonic_calls(body)
        return Block(fence.start, fence.end, "gemini-tool-code", tuple(calls), note) if calls else None
    stripped = body.strip()
    value = _whole_value(stripped)
    objects = value if isinstance(value, list) else [value] if value is not None else []
    if objects and all(isinstance(o, dict) and is_call_shape(o, catalogue) for o in objects):
        calls = tuple(call_from_object(o) for o in objects)
        return Block(fence.start, fence.end, f"{lang or 'plain'}-fence", calls)  # type: ignore[arg-type]
    if value is None and (lang in CALL_FENCE_LANGUAGES or _ARGS_IN_TEXT.search(stripped)):
        named = NAME_IN_TEXT.search(stripped)
        if named and (lang in CALL_FENCE_LANGUAGES or named.group("name") in catalogue):
            note = PLACEHOLDER_ARGUMENTS if PLACEHOLDER.search(stripped) else UNPARSED
            return Block(fence.start, fence.end, f"{lang}-fence", (Call(named.group("name"), None),), note)
    if lang in CALL_FENCE_LANGUAGES and PLACEHOLDER.fullmatch(stripped):  # the whole call is `{...}`
        return Block(fence.start, fence.end, f"{lang}-fence", (Call(None, None),), PLACEHOLDER_ARGUMENTS)
    return None


def _whole_value(stripped: str) -> Any:
    """The object or array that is the whole of a fence's body (extra closing braces allowed)."""
    if stripped.startswith("{"):
        parsed = parse_object_at(stripped)
        if parsed is not None and _TRAILING_JUNK.match(stripped, parsed.end):
            return parsed.value
    elif stripped.startswith("["):
        parsed = parse_array_at(stripped)
        if parsed is not None and not stripped[parsed.end:].strip():
            return parsed.value
    return None


def bare_block(text: str, catalogue: Catalogue) -> Block | None:
    """A whole text that is one call object naming a known tool (Ollama, LiteLLM leaks)."""
    stripped = text.strip()
    if not (stripped.startswith("{") and stripped.endswith("}")):
        return None
    start = text.index("{")
    parsed = parse_object_at(text, start)
    if parsed is None or text[parsed.end:].strip():
        return None
    obj = parsed.value
    name = next((obj.get(k) for k in ("name", "tool") if k in obj), None)
    if not isinstance(name, str) or name not in catalogue or not is_call_shape(obj, catalogue):
        return None
    return Block(start, parsed.end, "bare-object", (call_from_object(obj),))  # type: ignore[arg-type]
