"""Tag families whose body is call-shaped JSON: a start marker, an object or an array of
`{"name", "arguments"|"parameters"}` objects, and an end marker (sometimes none).

Hermes / Qwen 2.5 / Granite 4 `<tool_call>` (the end tag may be missing at the end of the output;
several objects in one block are joined by commas, stand one a line, or are run together `{..}{..}`; a `<function=` or GLM body
goes to `xml_tags`), LM Studio `[TOOL_REQUEST]`, Llama `<|python_tag|>` (objects joined by `;`,
with or without white space, or one a line; or a built-in tool's `NAME.call(k=v)`), Glaive `<functioncall>`, Phi-4 `functools[...]`,
Nemotron `<TOOLCALL>`, Jamba / Hunyuan `<tool_calls>` (MiniMax M1: one object per line), LFM2
`<|tool_call_start|>` (JSON or pythonic), Mistral `[TOOL_CALLS]` (an array, or `NAME{json}` repeated
from v11), Granite 3.x `<|tool_call|>`, Granite 20B `<function_call>`, InternLM
`<|action_start|><|plugin|>`, Cohere `<|START_ACTION|>`, Functionary v3.2 `>>>NAME` then the
JSON on the next line, and Apertus `<|tools_prefix|>` (a list of
objects each keyed by the tool's name: `[{"NAME": {args}}]`). LongCat-Flash's `<longcat_tool_call>`
is read by `longcat`.

When the JSON of a closed block does not fill it (a broken object among others, objects one a
line, a call run together with an object that is no call), the block is read a line at a time: the
calls are recovered, and the lines (or the rest of a line) that are not calls are quoted in the
block's note as a warning, since the fix removes them with the block.
"""

from __future__ import annotations

from inspector.catalogue import Catalogue
from inspector.detect.markup.blocks import (
    CALLS_CAPPED,
    MAX_CALLS,
    NAME_IN_TEXT,
    PLACEHOLDER,
    PLACEHOLDER_ARGUMENTS,
    Block,
    Call,
    Reader,
    Separator,
    call_from_object,
    close_after,
    cut_off_arguments,
    cut_off_block,
    end_of,
    find_literal,
    json_calls,
)
from inspector.detect.markup.glm import glm_block
from inspector.detect.markup.minicpm import START as MINICPM_START
from inspector.detect.markup.minicpm import function_block
from inspector.detect.markup.pythonic import pythonic_calls
from inspector.detect.markup.xml_tags import qwen_block
from inspector.support.lazy_pattern import lazy_pattern
from inspector.support.leading_space import SPACE, always_matching
from inspector.support.lenient_json import object_end, parse_array_at, parse_object_at

_CUT_OFF = "arguments that do not parse or are cut off"
_NOTHING = "nothing after its start marker: the output stops there"
_QUOTE = lazy_pattern(r'(?<!\\)"')
_SHOWN_CHARS = 80  # of a broken line, quoted in a finding's message
_JOINT = always_matching(r"\s*,?\s*")  # between call objects in one `<tool_call>`: a comma, white space or nothing
_LLAMA_JOINT = lazy_pattern(r"\s*;\s*|[ \t]*\n\s*")  # between Llama's call objects
_FUNCTIONARY_CALL = lazy_pattern(r">>>(?P<name>[A-Za-z_][\w.\-]*)[ \t]*\n\s*(?=\{)")
_LLAMA_END = lazy_pattern(r"<\|eom_id\|>|<\|eot_id\|>")
_MISTRAL_NEXT = lazy_pattern(
    r"\s*(?:\[TOOL_CALLS\])?\s*(?P<name>[A-Za-z_][\w.\-]*)\s*(?:\[CALL_ID\][\w\-]*\s*)?(?:\[ARGS\])?\s*(?=\{)"
)


def json_body(
    text: str, start: int, after: int, family: str, close: str | None, separator: Separator | None = None
) -> Block | None:
    """The block of calls in the JSON that follows a marker ending at `after`, up to `close`.
    The JSON is read only up to where the same marker opens the next block, so a reply that
    repeats a broken block costs time in proportion to its length. Call JSON that the end of the
    reply cuts off in its arguments is completed (`cut_off_block`, a guess); JSON that names a
    tool but is otherwise cut off or broken, a `{...}` placeholder, and JSON cut off before its
    name (or a marker the output stops at) strip to `close` (or the next block, or the end) and
    recover nothing; anything else after the marker is prose, not a call."""
    position = SPACE.match(text, after).end()
    if position == len(text):  # the output stops at the marker
        return Block(start, position, family, (Call(None, None),), _NOTHING)
    if not text.startswith(("{", "["), position):
        return None
    marker = text[start:after]
    limit = _next_block(text, marker, position)
    calls, length, capped = json_calls(text[position:limit], 0, separator)
    if capped and calls is not None:  # (capped: calls were read)
        return Block(start, position + length, family, tuple(calls), CALLS_CAPPED)
    found = text.find(close, position, limit) if close else -1  # no further than the next block
    if found >= 0 and (calls is None or text[position + length : found].strip()):  # JSON not filling the body
        by_line = _calls_by_line(text[position:found])
        if by_line is not None:
            return Block(start, found + len(close or ""), family, tuple(by_line[0]), _broken_lines(by_line[1]))
    if calls is not None:
        return Block(start, close_after(text, position + length, close), family, tuple(calls))
    if found < 0 and limit == len(text) and (cut := cut_off_block(text, start, position, family)):
        return cut
    body_end, end = (found, found + len(close or "")) if found >= 0 else (limit, limit)
    while end > position and text[end - 1].isspace():  # white space before the next block is not this one's
        end -= 1
    body = text[position:body_end]
    note = PLACEHOLDER_ARGUMENTS if PLACEHOLDER.search(body) else _CUT_OFF
    named = NAME_IN_TEXT.search(text, position, end)
    if named is not None:
        return Block(start, end, family, (Call(named.group("name"), None),), note)
    if PLACEHOLDER.fullmatch(body.strip()) or (body_end == limit and _never_closes(body)):
        return Block(start, end, family, (Call(None, None),), note)
    return None


def _calls_by_line(body: str) -> tuple[list[Call], list[str]] | None:
    """A block's body read a line at a time (MiniMax M1, or calls on their own lines in one block),
    each line as call objects one after another (run together, or joined by commas): the calls
    read, and what is not a call (a line, or the rest of one from the first object that is no
    call). Blank lines and the brackets and commas of an array written a line an item are layout.
    None when nothing is a call, or when there are more than `MAX_CALLS` pieces (a bound against
    hostile text)."""
    calls: list[Call] = []
    broken: list[str] = []
    for line in body.split("\n"):
        item = line.strip().removeprefix("[").removesuffix(",").removesuffix("]").strip()
        position = 0
        while position < len(item):
            if len(calls) + len(broken) == MAX_CALLS:
                return None
            parsed = parse_object_at(item, position)
            call = call_from_object(parsed.value) if parsed is not None else None
            if parsed is None or call is None or call.arguments is None:
                broken.append(line.strip() if position == 0 else item[position:])
                break
            calls.append(call)
            position = _JOINT.match(item, parsed.end).end()
    return (calls, broken) if calls else None


def _broken_lines(broken: list[str]) -> str:
    """A block's note on its lines that are not calls, quoting the first: a warning, as the fix
    removes them with the block."""
    if not broken:
        return ""
    shown = broken[0] if len(broken[0]) <= _SHOWN_CHARS else broken[0][: _SHOWN_CHARS - 3] + "..."
    if len(broken) == 1:
        return (
            f"a line that does not parse, {shown} (warning: it is not recovered, and the fix removes it with the block)"
        )
    return (
        f"{len(broken)} lines that do not parse, the first {shown} (warning: they are not recovered, and the fix "
        "removes them with the block)"
    )


def _never_closes(body: str) -> bool:
    """Whether the first object of call JSON is cut off: it never closes before the body ends."""
    brace = body.find("{")
    return brace >= 0 and object_end(body, brace) is None


def _next_block(text: str, marker: str, position: int) -> int:
    """Where the next block opened by `marker` begins after `position` (or the end of the text):
    the next `marker` outside a JSON string, judged by the count of double quotes before it."""
    quotes, counted = 0, position
    while (following := text.find(marker, counted)) >= 0:
        quotes += len(_QUOTE.findall(text, counted, following))
        if quotes % 2 == 0:
            return following
        counted = following + 1
    return len(text)


def _following(text: str, marker: str, position: int) -> int:
    """Where `marker` next begins after `position` (or the end of the text), from an index of its
    places: a reader that gives up is asked again at that marker, so it reads no further."""
    found = find_literal(text, marker, position)
    return len(text) if found < 0 else found


def _json_tag(family: str, close: str | None, separator: Separator | None = None) -> Reader:
    """The reader of a marker followed by call JSON and `close`."""

    def read(text: str, start: int, after: int, catalogue: Catalogue) -> Block | None:
        return json_body(text, start, after, family, close, separator)

    return read


def _hermes(text: str, start: int, after: int, catalogue: Catalogue) -> Block | None:
    """`<tool_call>` holding JSON (Hermes), `<function=..>` XML (Qwen3-Coder), `<function name=..>`
    (MiniCPM 5) or `NAME<arg_key>` (GLM)."""
    position = SPACE.match(text, after).end()
    if text.startswith("<function=", position):
        return qwen_block(text, start, position, "</tool_call>", "qwen3-coder")
    if text.startswith(MINICPM_START, position):
        return function_block(text, start, position, catalogue, "</tool_call>")
    if text.startswith(("{", "["), position) or position == len(text):
        return json_body(text, start, after, "hermes", "</tool_call>", _JOINT)
    return glm_block(text, start, position, catalogue)


def _phi4(text: str, start: int, after: int, catalogue: Catalogue) -> Block | None:
    """Phi-4-mini / FireFunction `functools[{...}]`, or one object without the list."""
    return json_body(text, start, after, "phi-4", None) if text.startswith(("[", "{"), after) else None


def _llama(text: str, start: int, after: int, catalogue: Catalogue) -> Block | None:
    """Llama `<|python_tag|>`: call JSON (objects joined by `;` or one a line), or one of Llama
    3.1's built-in tools called in Python syntax on the rest of the line, `brave_search.call(query="..")`,
    up to `<|eom_id|>` or `<|eot_id|>` when one ends it."""
    position = SPACE.match(text, after).end()
    if text.startswith(("{", "["), position) or position == len(text):
        return json_body(text, start, after, "llama", None, _LLAMA_JOINT)
    following = _following(text, "<|python_tag|>", position)
    line_end = text.find("\n", position, following)
    line_end = following if line_end < 0 else line_end
    ended = _LLAMA_END.search(text, position, line_end)
    body_end = ended.start() if ended else line_end
    calls, note = pythonic_calls(text[position:body_end])
    return Block(start, ended.end() if ended else body_end, "llama", tuple(calls), note) if calls else None


def _functionary(text: str, start: int, after: int, catalogue: Catalogue) -> Block | None:
    """Functionary v3.2 `>>>NAME\n{json}`, repeated for each call (`>>>all\n` opens text, not a
    call). None unless a name on the marker's line is followed by a JSON object on the next."""
    calls: list[Call] = []
    end = position = start
    while (named := _FUNCTIONARY_CALL.match(text, position)) is not None and named.group("name") != "all":
        limit = _following(text, ">>>", named.end())  # read no further than the next call
        if text.find("}", named.end(), limit) < 0:  # no object closes before it: nothing to parse
            break
        parsed = parse_object_at(text[named.end() : limit])
        if parsed is None or len(calls) == MAX_CALLS:
            break
        calls.append(Call(named.group("name"), parsed.value))
        end = named.end() + parsed.end
        position = SPACE.match(text, end).end()
    return Block(start, end, "functionary", tuple(calls)) if calls else None


def _apertus(text: str, start: int, after: int, catalogue: Catalogue) -> Block | None:
    """Apertus `<|tools_prefix|>[{"NAME": {args}}, ...]<|tools_suffix|>`: each object's one key is
    the tool's name, its value the arguments. None unless every item is such an object."""
    position = SPACE.match(text, after).end()
    limit = _following(text, "<|tools_prefix|>", position)  # read no further than the next block
    parsed = parse_array_at(text[position:limit]) if text.startswith("[", position) else None
    if parsed is None or not parsed.value or len(parsed.value) > MAX_CALLS:
        return None
    calls = [_named_by_key(item) for item in parsed.value]
    if None in calls:
        return None
    end = close_after(text, position + parsed.end, "<|tools_suffix|>")
    return Block(start, end, "apertus", tuple(c for c in calls if c))


def _named_by_key(item: object) -> Call | None:
    """The call an object with one key, the tool's name, holding its arguments describes; or None."""
    if not isinstance(item, dict) or len(item) != 1:
        return None
    ((name, arguments),) = item.items()
    return Call(name, arguments) if isinstance(arguments, dict) and name else None


def _lfm2(text: str, start: int, after: int, catalogue: Catalogue) -> Block | None:
    """LFM2 `<|tool_call_start|>` with a pythonic list or JSON, then `<|tool_call_end|>`."""
    close = "<|tool_call_end|>"
    position = SPACE.match(text, after).end()
    if not text.startswith("[", position) or text.startswith(("[{", "[ {"), position):
        return json_body(text, start, after, "lfm2", close)
    body_end, end = end_of(text, close, position, "<|tool_call_start|>")
    calls, note = pythonic_calls(text[position:body_end])
    return Block(start, end, "lfm2", tuple(calls), note) if calls else None


def _mistral(text: str, start: int, after: int, catalogue: Catalogue) -> Block | None:
    """Mistral `[TOOL_CALLS]`: a JSON array (before v11), or `NAME{json}` repeated (v11+,
    sometimes `NAME[ARGS]{json}`, or `NAME[CALL_ID]ID[ARGS]{json}` with the call's id)."""
    position = SPACE.match(text, after).end()
    if text.startswith(("[", "{"), position) or position == len(text):
        return json_body(text, start, after, "mistral", None)
    calls: list[Call] = []
    end = position
    while (named := _MISTRAL_NEXT.match(text, end)) is not None:
        if len(calls) == MAX_CALLS:
            return Block(start, end, "mistral", tuple(calls), CALLS_CAPPED)
        parsed = parse_object_at(text, named.end())
        if parsed is None and (cut := cut_off_arguments(text, named.end())):
            calls.append(Call(named.group("name"), cut.arguments))
            return Block(start, cut.end, "mistral", tuple(calls), cut.note, guessed=True)
        if parsed is None:
            calls.append(Call(named.group("name"), None))
            end = len(text)
            break
        calls.append(Call(named.group("name"), parsed.value))
        end = parsed.end
    return Block(start, end, "mistral", tuple(calls)) if calls else None


READERS: dict[str, Reader] = {
    "<tool_call>": _hermes,
    "[TOOL_REQUEST]": _json_tag("lm-studio", "[END_TOOL_REQUEST]"),
    "<|python_tag|>": _llama,
    "<functioncall>": _json_tag("glaive", "<|endoftext|>"),
    "functools": _phi4,
    "<TOOLCALL>": _json_tag("nemotron", "</TOOLCALL>"),
    "<tool_calls>": _json_tag("jamba", "</tool_calls>", separator=lazy_pattern(r"[ \t]*\n\s*")),
    "<|tool_call_start|>": _lfm2,
    "[TOOL_CALLS]": _mistral,
    "<|tool_call|>": _json_tag("granite", None),
    "<function_call>": _json_tag("granite-20b", "</function_call>"),
    "<|action_start|><|plugin|>": _json_tag("internlm", "<|action_end|>"),
    "<|START_ACTION|>": _json_tag("cohere", "<|END_ACTION|>"),
    "<|tools_prefix|>": _apertus,
    ">>>": _functionary,
}
