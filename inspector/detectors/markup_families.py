"""Parsers for the tool-call markup families that leak into assistant text (FORMATS.md §2).

`find_blocks(text, catalogue)` returns every leaked block in `text`, in order, each with its
extent and the calls it holds. Covered: Hermes / Qwen 2.5 `<tool_call>` JSON (end tag optional at
the end of the output), Qwen3-Coder `<function=NAME><parameter=K>` XML and Functionary
`<function=NAME>{json}`, Anthropic-style `<function_calls>` and MiniMax `<minimax:tool_call>`
`<invoke>` XML, Mistral `[TOOL_CALLS]` (array and `NAME{json}`), Llama `<|python_tag|>`, LM Studio
`[TOOL_REQUEST]`, Glaive `<functioncall>`, Phi-4 `functools[...]`, Nemotron `<TOOLCALL>`, Jamba
`<tool_calls>`, LFM2 `<|tool_call_start|>` (JSON or pythonic), Gemini ```` ```tool_code ````,
```` ```tool_call ```` / ```` ```json ```` fences holding a call, and a bare call object that is the
whole text. Python call syntax is read with `ast` and literal values only: nothing is evaluated.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass
from typing import Any

from inspector.catalogue import Catalogue
from inspector.lenient_json import loads_lenient, parse_object_at

_DECODER = json.JSONDecoder(strict=False)
NAME_KEYS = ("name", "tool", "tool_name", "function")
ARGUMENT_KEYS = ("arguments", "parameters", "args", "input")
_CALL_SHAPE_EXTRA = {"id", "type", "tool_call_id"}


@dataclass(frozen=True)
class Call:
    """One call read from markup: its tool name and arguments (None when they do not parse)."""

    name: str | None
    arguments: dict[str, Any] | None


@dataclass(frozen=True)
class Block:
    """A leaked block: `[start, end)` in the text, its family, and the calls it holds."""

    start: int
    end: int
    family: str
    calls: tuple[Call, ...]
    note: str = ""


# Tag families whose body is JSON (an object, an array, or several objects): start, end tag.
_JSON_TAGS = {
    "<tool_call>": ("hermes", "</tool_call>"),
    "[TOOL_REQUEST]": ("lm-studio", "[END_TOOL_REQUEST]"),
    "<|python_tag|>": ("llama", None),
    "<functioncall>": ("glaive", "<|endoftext|>"),
    "functools": ("phi-4", None),
    "<TOOLCALL>": ("nemotron", "</TOOLCALL>"),
    "<tool_calls>": ("jamba", "</tool_calls>"),
    "<|tool_call_start|>": ("lfm2", "<|tool_call_end|>"),
    "[TOOL_CALLS]": ("mistral", None),
}
_TAG = re.compile(
    "|".join(re.escape(tag) for tag in _JSON_TAGS)
    + r"|<function=(?P<fname>[\w.\-]+)>|<function_calls>|<minimax:tool_call>"
)
_FENCE = re.compile(r"^[ \t]*```[ \t]*(?P<lang>[\w\-]*)[^\n]*\n(?P<body>.*?)^[ \t]*```[ \t]*$", re.M | re.S)
_CALL_FENCES = {"tool_call", "tool_code", "json", "tool", "tool_calls", "json5", ""}
_SPACE = re.compile(r"\s*")
_MISTRAL_NEXT = re.compile(r"\s*(?:\[TOOL_CALLS\])?\s*(?P<name>[A-Za-z_][\w.\-]*)\s*(?:\[ARGS\])?\s*(?=\{)")
_XML_FUNCTION = re.compile(r"<function=(?P<name>[\w.\-]+)>(?P<body>.*?)(?:</function>|(?=<function=)|\Z)", re.S)
_XML_PARAMETER = re.compile(
    r"<parameter=(?P<key>[\w.\-]+)>(?P<value>.*?)(?:</parameter>|(?=<parameter=)|(?=</function>)|\Z)", re.S)
_INVOKE = re.compile(r"<invoke\s+name=\"(?P<name>[^\"]+)\"\s*>(?P<body>.*?)(?:</invoke>|\Z)", re.S)
_INVOKE_PARAMETER = re.compile(r"<parameter\s+name=\"(?P<key>[^\"]+)\"[^>]*>(?P<value>.*?)</parameter>", re.S)
_NAME_IN_TEXT = re.compile(r"[\"'](?:name|tool)[\"']\s*:\s*[\"'](?P<name>[\w.\-]+)[\"']")
_ARGS_IN_TEXT = re.compile(r"[\"'](?:arguments|parameters)[\"']\s*:")
_PLACEHOLDER = re.compile(r"\{\s*(?:\.\.\.|…)\s*\}")
_TRAILING_JUNK = re.compile(r"[\s}\]]*\Z")
_TYPED = {"integer", "number", "boolean", "object", "array", "null"}


def find_blocks(text: str, catalogue: Catalogue) -> list[Block]:
    """Every leaked tool-call block in `text`, in order, overlapping finds resolved by first start."""
    fences = [m for m in _FENCE.finditer(text)] if "```" in text else []
    blocks: list[Block] = []
    for fence in fences:
        block = _fence_block(fence, catalogue)
        if block is not None:
            blocks.append(block)
    other_fences = [(f.start(), f.end()) for f in fences if f.group("lang").lower() not in ("tool_call", "tool_calls")]
    for match in _TAG.finditer(text):
        start = match.start()
        if (start and text[start - 1] == "`") or any(a <= start < b for a, b in other_fences):
            continue
        block = _tag_block(text, match, catalogue)
        if block is not None:
            blocks.append(block)
    if not blocks:
        bare = _bare_block(text, catalogue)
        return [bare] if bare else []
    blocks.sort(key=lambda b: (b.start, -b.end))
    kept: list[Block] = []
    for block in blocks:
        if not kept or block.start >= kept[-1].end:
            kept.append(block)
    return kept


def call_from_object(obj: Any) -> Call | None:
    """The call an object describes (`name`/`tool` plus `arguments`/`parameters`), or None."""
    if not isinstance(obj, dict):
        return None
    name = next((obj[k] for k in NAME_KEYS if k in obj), None)
    if isinstance(name, dict):  # OpenAI shape {"function": {"name", "arguments"}}
        return call_from_object(name)
    if not isinstance(name, str) or not name:
        return None
    key = next((k for k in ARGUMENT_KEYS if k in obj), None)
    arguments = obj.get(key, {}) if key else {}
    if isinstance(arguments, str):
        loaded = loads_lenient(arguments) if arguments.strip() else ({}, ())
        arguments = loaded[0] if loaded else None
    return Call(name, arguments if isinstance(arguments, dict) else None)


def _is_call_shape(obj: dict[str, Any], catalogue: Catalogue) -> bool:
    """Whether a fenced or bare object is a call: a known tool with arguments, or exactly a call's keys."""
    name_key = next((k for k in ("name", "tool") if k in obj), None)
    args_key = next((k for k in ("arguments", "parameters") if k in obj), None)
    if name_key is None or args_key is None or not isinstance(obj[name_key], str):
        return False
    if obj[name_key] in catalogue:
        return True
    return not (set(obj) - {name_key, args_key} - _CALL_SHAPE_EXTRA)


def _fence_block(fence: re.Match[str], catalogue: Catalogue) -> Block | None:
    """A ```` ```tool_call ````, ```` ```json ```` or ```` ```tool_code ```` fence holding calls."""
    lang = fence.group("lang").lower()
    if lang not in _CALL_FENCES:
        return None
    body = fence.group("body")
    if lang == "tool_code":
        calls = pythonic_calls(body)
        return Block(fence.start(), fence.end(), "gemini-tool-code", tuple(calls)) if calls else None
    stripped = body.strip()
    value: Any = None
    if stripped.startswith("{"):
        parsed = parse_object_at(stripped)
        if parsed is not None and _TRAILING_JUNK.match(stripped, parsed.end):
            value = parsed.value
    elif stripped.startswith("["):
        found = _json_array(stripped)
        value = found[0] if found and not stripped[found[1]:].strip() else None
    objects = value if isinstance(value, list) else [value] if value is not None else []
    if objects and all(isinstance(o, dict) and _is_call_shape(o, catalogue) for o in objects):
        calls = tuple(call_from_object(o) for o in objects)
        return Block(fence.start(), fence.end(), f"{lang or 'plain'}-fence", calls)
    if value is None and (lang in ("tool_call", "tool_calls") or _ARGS_IN_TEXT.search(stripped)):
        named = _NAME_IN_TEXT.search(stripped)
        if named and (lang in ("tool_call", "tool_calls") or named.group("name") in catalogue):
            note = "placeholder arguments" if _PLACEHOLDER.search(stripped) else "arguments that do not parse"
            return Block(fence.start(), fence.end(), f"{lang}-fence", (Call(named.group("name"), None),), note)
    return None


def _tag_block(text: str, match: re.Match[str], catalogue: Catalogue) -> Block | None:
    """The block a tag opens, or None when the tag is prose (nothing call-like follows it)."""
    tag = match.group()
    if match.group("fname") is not None:
        return _function_tag_block(text, match)
    if tag in ("<function_calls>", "<minimax:tool_call>"):
        close = "</" + tag[1:]
        end = text.find(close, match.end())
        end = len(text) if end < 0 else end + len(close)
        calls = _invoke_calls(text[match.end():end])
        family = "anthropic-xml" if tag == "<function_calls>" else "minimax"
        return Block(match.start(), end, family, tuple(calls)) if calls else None
    family, close = _JSON_TAGS[tag]
    position = _SPACE.match(text, match.end()).end()
    if tag == "functools" and not text.startswith("[", position):
        return None
    if tag == "<tool_call>" and text.startswith("<function=", position):
        return _function_tag_block(text, _TAG.match(text, position), start=match.start())
    if tag == "[TOOL_CALLS]" and not text.startswith(("[", "{"), position):
        return _mistral_named(text, match.start(), position)
    if tag == "<|tool_call_start|>" and text.startswith("[", position) and not text.startswith(("[{", "[ {"), position):
        end = text.find(close, position)
        end_body = len(text) if end < 0 else end
        calls = pythonic_calls(text[position:end_body])
        return Block(match.start(), len(text) if end < 0 else end + len(close), family, tuple(calls)) if calls else None
    if not text.startswith(("{", "["), position):
        return None
    calls, after = _json_calls(text, position, separator="; " if family == "llama" else None)
    if calls is None:  # cut off or broken: strip to the end tag (or the end), recover nothing
        end = text.find(close, position) if close else -1
        end = len(text) if end < 0 else end + len(close)
        named = _NAME_IN_TEXT.search(text, position, end)
        name = named.group("name") if named else None
        return Block(match.start(), end, family, (Call(name, None),), "arguments that do not parse or are cut off")
    after = _SPACE.match(text, after).end()
    if close and text.startswith(close, after):
        after += len(close)
    return Block(match.start(), after, family, tuple(calls))


def _json_calls(text: str, position: int, separator: str | None) -> tuple[list[Call] | None, int]:
    """Calls in the JSON object or array at `position` (objects joined by `separator` too), and
    where they end; None when something there is not a call."""
    calls: list[Call] = []
    while True:
        if text.startswith("[", position):
            found = _json_array(text, position)
            if found is None:
                return None, position
            items, end = found
        else:
            parsed = parse_object_at(text, position)
            if parsed is None:
                return None, position
            items, end = [parsed.value], parsed.end
        for item in items:
            call = call_from_object(item)
            if call is None:
                return None, position
            calls.append(call)
        if separator and text.startswith(separator, end) and text.startswith("{", end + len(separator)):
            position = end + len(separator)
            continue
        return calls, end


def _json_array(text: str, position: int = 0) -> tuple[list[Any], int] | None:
    """The JSON array at `text[position]` and where it ends, or None."""
    try:
        value, end = _DECODER.raw_decode(text, position)
    except (json.JSONDecodeError, RecursionError):
        return None
    return (value, end) if isinstance(value, list) else None


def _mistral_named(text: str, start: int, position: int) -> Block | None:
    """Mistral v11+: `[TOOL_CALLS]NAME{json}` (optionally `[ARGS]`), repeated."""
    calls: list[Call] = []
    end = position
    while True:
        named = _MISTRAL_NEXT.match(text, end)
        if named is None:
            break
        parsed = parse_object_at(text, named.end())
        if parsed is None:
            calls.append(Call(named.group("name"), None))
            end = len(text)
            break
        calls.append(Call(named.group("name"), parsed.value))
        end = parsed.end
    return Block(start, end, "mistral", tuple(calls)) if calls else None


def _function_tag_block(text: str, match: re.Match[str], start: int | None = None) -> Block | None:
    """Qwen3-Coder `<function=NAME><parameter=K>v</parameter></function>` (inside `<tool_call>` or
    not) and Functionary `<function=NAME>{json}</function>`."""
    start = match.start() if start is None else start
    body_start = match.end()
    close = text.find("</function>", body_start)
    body_end = len(text) if close < 0 else close
    end = body_end if close < 0 else close + len("</function>")
    body = text[body_start:body_end]
    name = match.group("fname")
    if body.lstrip().startswith("{"):
        loaded = loads_lenient(body.strip())
        arguments = loaded[0] if loaded and isinstance(loaded[0], dict) else None
        family = "functionary"
    elif "<parameter=" in body or not body.strip():
        arguments = {m.group("key"): _xml_text(m.group("value")) for m in _XML_PARAMETER.finditer(body)}
        family = "qwen3-coder"
    else:
        return None
    after = _SPACE.match(text, end).end()
    if text.startswith("</tool_call>", after):
        end = after + len("</tool_call>")
    note = "" if arguments is not None else "arguments that do not parse"
    return Block(start, end, family, (Call(name, arguments),), note)


def _invoke_calls(body: str) -> list[Call]:
    """The `<invoke name=..><parameter name=..>` calls in an Anthropic-style or MiniMax block."""
    return [Call(m.group("name"), {p.group("key"): _xml_text(p.group("value"))
                                   for p in _INVOKE_PARAMETER.finditer(m.group("body"))})
            for m in _INVOKE.finditer(body)]


def _xml_text(value: str) -> str:
    """An XML parameter value as written: one leading and one trailing newline dropped."""
    if value.startswith("\n"):
        value = value[1:]
    if value.endswith("\n"):
        value = value[:-1]
    return value


def type_by_schema(arguments: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    """XML parameter values (text) converted to the types `schema`'s properties give them."""
    typed = {}
    for key, value in arguments.items():
        spec = schema.get(key)
        kind = spec.get("type") if isinstance(spec, dict) else None
        kinds = set(kind) if isinstance(kind, list) else {kind}
        if isinstance(value, str) and kinds & _TYPED and "string" not in kinds:
            try:
                value = json.loads(value.strip())
            except (json.JSONDecodeError, RecursionError):
                pass
        typed[key] = value
    return typed


def pythonic_calls(source: str) -> list[Call]:
    """Calls written in Python syntax: `print(default_api.f(a=1))` lines or a `[f(a=1), g()]` list.

    Read with `ast.parse`; keyword values must be literals (`ast.literal_eval`). Nothing runs.
    """
    try:
        tree = ast.parse(source.strip(), mode="exec")
    except (SyntaxError, ValueError, RecursionError):
        return []
    nodes: list[ast.expr] = []
    for statement in tree.body:
        if not isinstance(statement, ast.Expr):
            return []
        value = statement.value
        nodes.extend(value.elts if isinstance(value, (ast.List, ast.Tuple)) else [value])
    calls = []
    for node in nodes:
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "print"
                and len(node.args) == 1):
            node = node.args[0]
        call = _ast_call(node)
        if call is None:
            return []
        calls.append(call)
    return calls


def _ast_call(node: ast.expr) -> Call | None:
    """One `name(k=literal, ...)` or `default_api.name(...)` call node as a Call."""
    if not isinstance(node, ast.Call) or node.args:
        return None
    func = node.func
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        name = func.attr
    elif isinstance(func, ast.Name):
        name = func.id
    else:
        return None
    arguments: dict[str, Any] = {}
    for keyword in node.keywords:
        if keyword.arg is None:
            return None
        try:
            arguments[keyword.arg] = ast.literal_eval(keyword.value)
        except (ValueError, TypeError, SyntaxError, RecursionError):
            return Call(name, None)
    return Call(name, arguments)


def _bare_block(text: str, catalogue: Catalogue) -> Block | None:
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
    if not isinstance(name, str) or name not in catalogue or not _is_call_shape(obj, catalogue):
        return None
    return Block(start, parsed.end, "bare-object", (call_from_object(obj),))
