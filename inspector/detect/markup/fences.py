"""Calls in Markdown code fences, and bare call objects that open the text.

```` ```tool_call ````, ```` ```json ```` and plain fences count when they hold a call
object or a list of them whose name is a known tool or whose keys are exactly a call's; Gemini's
```` ```tool_code ```` holds `print(default_api.f(...))` lines. A fence of ordinary data, or of
code that merely contains dicts, is not a call. A `{...}` placeholder gives a strip-only block.
A reply that opens with call objects naming a known tool (the whole reply, as Ollama and LiteLLM
leak one, or followed by prose, as Llama 3's JSON calls are written; or after the model's thinking)
holds leaked calls, as does a call object on its own lines that ends the reply after prose; so does a
JSON array of call objects naming known tools anywhere in the prose (`Some text [{"name": ...}]`),
recovered when each has arguments, else stripped with a warning.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from inspector.catalogue import Catalogue
from inspector.detect.markup.blocks import (
    CALLS_CAPPED,
    MAX_CALLS,
    NAME_IN_TEXT,
    PLACEHOLDER,
    PLACEHOLDER_ARGUMENTS,
    UNPARSED,
    Block,
    Call,
    all_read,
    call_from_object,
    is_call_shape,
    is_example,
)
from inspector.detect.markup.pythonic import pythonic_calls
from inspector.support.lazy_pattern import lazy_pattern
from inspector.support.leading_space import SPACE, always_matching
from inspector.support.lenient_json import object_end, parse_array_at, parse_object_at

_BLANKS = always_matching(r"[ \t]*")
_LANGUAGE = always_matching(r"[\w\-]*")
CALL_FENCE_LANGUAGES = ("tool_call", "tool_calls")
_MAX_TRAILING_TRIES = 3  # objects opening a line tried, from the end, for a call that ends the reply
_CALL_FENCES = {"tool_call", "tool_code", "json", "tool", "tool_calls", "json5", ""}
_ARGS_IN_TEXT = lazy_pattern(r"[\"'](?:arguments|parameters)[\"']\s*:")
_TRAILING_JUNK = lazy_pattern(r"[\s}\]]*\Z")
_CALL_JOINT = always_matching(r"\s*;?\s*")  # Llama joins calls one after another with `; `
# Where a JSON array of call objects may begin, and the bounds of the search for them: arrays tried
# per text, and how far from its `[` an array may end (a long data dump is not read whole).
ARRAY_START = r"""\[\s*\{\s*["'](?:name|tool)["']\s*:"""  # also the detector's prefilter for them
_ARRAY_START = lazy_pattern(ARRAY_START)
_MAX_ARRAYS = 20
_MAX_ARRAY_CHARS = 10_000
_CALL_KEYS = {"name", "tool", "arguments", "parameters", "id", "type"}
_NO_ARGUMENTS = "a call with no arguments written"


@dataclass(slots=True, unsafe_hash=True)
class Fence:
    """A Markdown code fence: `[start, end)` from its opening line to its closing one, its
    language (lower case, "" for none) and the text between the two lines. Treated as an
    immutable value (not frozen: quicker to build, and most replies that show code hold some)."""

    start: int
    end: int
    lang: str
    body: str


def find_fences(text: str) -> list[Fence]:
    """Every closed code fence in `text`, in order. One pass over the fence lines: an opening line
    (with or without a language) is closed by the next bare ```` ``` ```` line."""
    fences = []
    opening: tuple[int, int, str] | None = None  # an opening line's start, end and info
    for start, end, info in _fence_lines(text):
        if opening is None:
            if end < len(text):  # an opening line needs a line after it
                opening = (start, end, info)
        elif not info.strip():
            lang = _LANGUAGE.match(opening[2]).group().lower()
            fences.append(Fence(opening[0], end, lang, text[opening[1] + 1 : start]))
            opening = None
    return fences


def _fence_lines(text: str) -> Iterator[tuple[int, int, str]]:
    """Each line of `text` that opens with ```` ``` ```` (after spaces or tabs): where it starts,
    where it ends (before its line feed) and its info, what follows the backticks and the blanks
    after them. Found from each ```` ``` ```` a search finds (the rest of its line is passed over),
    not by trying every line."""
    at = text.find("```")
    while at >= 0:
        line_start = text.rfind("\n", 0, at) + 1
        line_end = text.find("\n", at)
        line_end = len(text) if line_end < 0 else line_end
        if not text[line_start:at].strip(" \t"):
            yield line_start, line_end, text[_BLANKS.match(text, at + 3).end() : line_end]
        at = text.find("```", line_end)


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
        found = [call_from_object(o) for o in objects]
        return Block(fence.start, fence.end, f"{lang or 'plain'}-fence", tuple(found)) if all_read(found) else None
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
        if parsed is not None and not stripped[parsed.end :].strip():
            return parsed.value
    return None


def leading_calls(text: str, catalogue: Catalogue, opening: int = 0) -> Block | None:
    """The call objects that open `text` (at `opening`: after the model's thinking that opens it),
    each naming a known tool, one after another (joined by white space or `;`), whether prose
    follows them or not; None when the text opens otherwise. At most `MAX_CALLS` are read (a bound
    against hostile text); the note says when more follow."""
    start = SPACE.match(text, opening).end()
    calls: list[Call] = []
    end = position = start
    while text.startswith("{", position):
        if not may_name_a_tool(text, position):  # a fake result, most often: no parse
            break
        parsed = parse_object_at(text, position)
        if parsed is None or not is_leaked_call(parsed.value, catalogue):
            break
        if len(calls) == MAX_CALLS:
            return Block(start, end, "bare-object", tuple(calls), CALLS_CAPPED)
        call = call_from_object(parsed.value)
        if call is None:  # (never: a leaked call names its tool)
            break
        calls.append(call)
        end = parsed.end
        position = _CALL_JOINT.match(text, end).end()
    return Block(start, end, "bare-object", tuple(calls)) if calls else None


def trailing_call(text: str, catalogue: Catalogue, skip: list[tuple[int, int]]) -> Block | None:
    """The call object, naming a known tool, on its own lines at the end of `text` after prose
    (`I'll look that up.\n{"name": ...}`), outside the `skip` spans; None when the text ends
    otherwise. Only the last few objects that open a line are tried (a bound: each is parsed)."""
    end = len(text.rstrip())
    if not text.endswith("}", 0, end):
        return None
    position = end
    for _ in range(_MAX_TRAILING_TRIES):
        position = text.rfind("\n{", 0, position)
        if position < 0:
            return None
        start = position + 1
        if is_example(text, start, skip) or not may_name_a_tool(text, start):
            continue
        parsed = parse_object_at(text, start)
        if parsed is not None and parsed.end == end and is_leaked_call(parsed.value, catalogue):
            call = call_from_object(parsed.value)
            return Block(start, end, "bare-object", (call,)) if call is not None else None
    return None


def may_name_a_tool(text: str, start: int) -> bool:
    """Whether the object at `text[start]` closes and holds the word `name` or `tool` (a call's
    keys), found by matching its brackets, without parsing it (nor matching them when neither word
    comes after `start`: most fake results)."""
    if text.find("name", start) < 0 and text.find("tool", start) < 0:
        return False
    end = object_end(text, start)
    return end is not None and ("name" in text[start:end] or "tool" in text[start:end])


def is_leaked_call(obj: Any, catalogue: Catalogue) -> bool:
    """Whether an object written as text is a call: a call's shape naming a tool the catalogue
    knows, whose arguments are not a JSON schema (`{"name", "parameters": {"type": "object",
    "properties": ...}}` is the tool's definition)."""
    if not isinstance(obj, dict):
        return False
    name = next((obj[k] for k in ("name", "tool") if k in obj), None)
    if not (isinstance(name, str) and name in catalogue and is_call_shape(obj, catalogue)):
        return False
    arguments = next((obj[k] for k in ("arguments", "parameters") if k in obj), None)
    return not (isinstance(arguments, dict) and arguments.get("type") == "object" and "properties" in arguments)


def call_arrays(text: str, catalogue: Catalogue, skip: list[tuple[int, int]]) -> list[Block]:
    """JSON arrays of call objects in the prose, outside the `skip` spans (code fences) and inline
    code, each item naming a known tool with nothing but a call's keys: its calls, or, when one has
    no arguments or arguments that are no object, the array to strip with a warning."""
    blocks = []
    position = 0
    for _ in range(_MAX_ARRAYS):
        match = _ARRAY_START.search(text, position)
        if match is None:
            break
        start = position = match.start()
        position += 1
        if is_example(text, start, skip):
            continue
        parsed = parse_array_at(text[start : start + _MAX_ARRAY_CHARS])
        block = _array_block(parsed.value, start, start + parsed.end, catalogue) if parsed else None
        if block is not None:
            blocks.append(block)
            position = block.end
    return blocks


def _array_block(items: list[Any], start: int, end: int, catalogue: Catalogue) -> Block | None:
    """The block a JSON array is when every item is a call of a known tool, else None."""
    calls = [_array_call(item, catalogue) for item in items]
    if not calls or not all_read(calls):
        return None
    if all(call.arguments is not None for call in calls):
        return Block(start, end, "json-array", tuple(calls))
    note = UNPARSED if all("arguments" in item or "parameters" in item for item in items) else _NO_ARGUMENTS
    return Block(start, end, "json-array", tuple(calls), note)


def _array_call(item: Any, catalogue: Catalogue) -> Call | None:
    """An array's item as a call: an object of nothing but a call's keys naming a known tool, its
    arguments None when it has none written or none that are an object; None for anything else."""
    if not isinstance(item, dict) or set(item) - _CALL_KEYS:
        return None
    name = item.get("name", item.get("tool"))
    if not isinstance(name, str) or name not in catalogue:
        return None
    if "arguments" not in item and "parameters" not in item:
        return Call(name, None)
    return call_from_object(item) if is_leaked_call(item, catalogue) else None
