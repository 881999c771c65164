"""Tool calls written in Python call syntax, read with `ast` (literal values only, nothing runs).

Covers Gemini's `print(default_api.f(a=1))` lines, OLMo 3's one call per line, LFM2's pythonic
lists, and bare pythonic lists `[f(a=1, b="x"), g()]` (Llama 3.2/4, ToolACE), optionally between
`<|python_start|>` and `<|python_end|>`. A bare list counts only when it is alone on its line (or
is the whole text) or calls a tool the catalogue knows: lists in prose and code fences are not calls.
Argument values are literals only, JSON's `null` / `true` / `false` included (see `literals`); an
argument may be named by a Python keyword (`from="SFO"`).
"""

from __future__ import annotations

import ast
import json
from keyword import kwlist
from typing import Any

from inspector.catalogue import Catalogue
from inspector.detect.markup.blocks import Block, Call, Reader, all_read, close_after, is_example
from inspector.detect.markup.literals import BYTES_AS_TEXT, NotJson, argument_value
from inspector.support.lazy_pattern import lazy_pattern
from inspector.support.leading_space import SPACE
from inspector.support.lenient_json import closing_end

PYTHON_START, PYTHON_END = "<|python_start|>", "<|python_end|>"
# Where a bare list may begin: `[` then a name and `(`. Also the prefilter's marker for it.
LIST_START = r"\[\s*[A-Za-z_][\w.]*\s*\("
_LIST_START = lazy_pattern(LIST_START)
# Python strings (skipped whole) and square brackets: how a list's closing `]` is found. A bracket's
# empty group comes after it (see lenient_json.STRING_OR_COMMENT: this scans several times faster).
# A backslash outside a string is skipped with the character after it: else the quote it escapes
# would open a string that never closes on its line, and on `\"\"\"...` each later quote did so
# again (quadratic within the window: 1.5 s for one list). A string that cannot close is then read
# once at most for each kind of quote on a line.
_BRACKETS = lazy_pattern(r""""(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|\\.|\[(?P<open>)|\](?P<close>)""")
_MAX_LIST_CHARS = 10_000  # how far from its `[` a list may end
_MAX_CANDIDATES = 20  # `[name(` places tried per text: a long code dump is not read whole
# An argument named by a Python keyword (`from=`): renamed with this suffix to parse, then named back.
_RENAMED = "_inspector_keyword"
_KEYWORD_ARGUMENT = lazy_pattern(rf"(?<![\w.])(?:{'|'.join(kwlist)})(?=\s*=(?!=))")


def pythonic_calls(source: str) -> tuple[list[Call], str]:
    """Calls written in Python syntax: `print(default_api.f(a=1))` lines, one call per line, or a
    `[f(a=1), g()]` list; [] when anything in `source` is not such a call. With them, a note on
    their values for the block ("" when there is nothing to say: see `literals`)."""
    tree, renamed = _parsed(source.strip())
    if tree is None:
        return [], ""
    nodes: list[ast.expr] = []
    for statement in tree.body:
        if not isinstance(statement, ast.Expr):
            return [], ""
        value = statement.value
        nodes.extend(value.elts if isinstance(value, (ast.List, ast.Tuple)) else [value])
    read = []
    for node in nodes:
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "print"
            and len(node.args) == 1
        ):
            node = node.args[0]
        call = _ast_call(node)
        if call is None:
            return [], ""
        read.append(call)
    calls = [call for call, _ in read]
    if renamed:
        restored = [_keywords_restored(call) for call in calls]
        if not all_read(restored):
            return [], ""
        calls = restored
    return calls, _block_note([note for _, note in read])


def _parsed(source: str) -> tuple[ast.Module | None, bool]:
    """`source` parsed, and whether arguments named by Python keywords (`from="SFO"`, as a tool's
    parameter may be named) were renamed to parse (`_RENAMED` after each); None when it does not parse."""
    try:
        return ast.parse(source, mode="exec"), False
    except (SyntaxError, ValueError, RecursionError):
        pass
    if _RENAMED in source or not _KEYWORD_ARGUMENT.search(source):
        return None, False
    try:
        return ast.parse(_KEYWORD_ARGUMENT.sub(rf"\g<0>{_RENAMED}", source), mode="exec"), True
    except (SyntaxError, ValueError, RecursionError):
        return None, False


def _keywords_restored(call: Call) -> Call | None:
    """A call read from renamed source with its keyword-named arguments named back; None when the
    renaming reached a value too (a string holding `from=`), which is then not what the model wrote."""
    if call.arguments is None:
        return call
    if _RENAMED in json.dumps(list(call.arguments.values()), default=str):
        return None
    return Call(call.name, {key.removesuffix(_RENAMED): value for key, value in call.arguments.items()})


def _ast_call(node: ast.expr) -> tuple[Call, str] | None:
    """One `name(k=literal, ...)`, `default_api.name(...)` or `name.call(...)` call node as a Call, with a note on
    its values ("" for none); None when the node is not such a call."""
    if not isinstance(node, ast.Call) or node.args:
        return None
    func = node.func
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.attr == "call":
        name = func.value.id  # Llama 3.1's built-in tools: `brave_search.call(query=...)`
    elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        name = func.attr
    elif isinstance(func, ast.Name):
        name = func.id
    else:
        return None
    arguments: dict[str, Any] = {}
    held_bytes = False
    for keyword in node.keywords:
        if keyword.arg is None:
            return None
        try:
            arguments[keyword.arg], held = argument_value(keyword.value)
        except NotJson as refused:
            return Call(name, None), str(refused)
        except (ValueError, TypeError, SyntaxError, RecursionError):
            return Call(name, None), ""
        held_bytes = held_bytes or held
    return Call(name, arguments), BYTES_AS_TEXT if held_bytes else ""


def _block_note(notes: list[str]) -> str:
    """The note of a block of calls from its calls' notes: a refusal first, else the first note."""
    refused = [note for note in notes if note and note != BYTES_AS_TEXT]
    return (refused or [note for note in notes if note] or [""])[0]


def list_at(text: str, start: int) -> tuple[list[Call], int, str] | None:
    """The pythonic call list that begins at `text[start]` (`[`), where it ends and its note, or None."""
    end = _closing_bracket(text, start)
    if end is None:
        return None
    try:
        tree = ast.parse(text[start:end], mode="eval")
    except (SyntaxError, ValueError, RecursionError):
        return None
    if not isinstance(tree.body, ast.List):
        return None
    read = [_ast_call(node) for node in tree.body.elts]
    if not read or not all_read(read):
        return None
    return [call for call, _ in read], end, _block_note([note for _, note in read])


def _closing_bracket(text: str, start: int) -> int | None:
    """Just past the `]` that closes the `[` at `text[start]` (brackets in strings do not count),
    or None when it does not close within `_MAX_LIST_CHARS`."""
    return closing_end(_BRACKETS, text, start, start + _MAX_LIST_CHARS)


def bare_lists(text: str, catalogue: Catalogue, skip: list[tuple[int, int]]) -> list[Block]:
    """Bare pythonic call lists outside the `skip` spans (code fences): a list alone on its line (or
    the whole text), or one that calls a known tool."""
    blocks = []
    position = 0
    for _ in range(_MAX_CANDIDATES):
        match = _LIST_START.search(text, position)
        if match is None:
            break
        start = match.start()
        position = match.end()
        if is_example(text, start, skip):
            continue
        found = list_at(text, start)
        if found is None:
            continue
        calls, end, note = found
        if _alone_on_its_line(text, start, end) or any(call.name in catalogue for call in calls):
            blocks.append(Block(start, end, "pythonic", tuple(calls), note))
            position = end
    return blocks


def _alone_on_its_line(text: str, start: int, end: int) -> bool:
    """Whether `text[start:end]` is a whole line of `text` (or the whole text), white space aside."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    return not text[line_start:start].strip() and not text[end : len(text) if line_end < 0 else line_end].strip()


def _python_start(text: str, start: int, after: int, catalogue: Catalogue) -> Block | None:
    """`<|python_start|>[f(a=1)]<|python_end|>`: a pythonic list between Llama 4's markers."""
    position = SPACE.match(text, after).end()
    found = list_at(text, position) if text.startswith("[", position) else None
    if found is None:
        return None
    calls, end, note = found
    return Block(start, close_after(text, end, PYTHON_END), "pythonic", tuple(calls), note)


READERS: dict[str, Reader] = {PYTHON_START: _python_start}
