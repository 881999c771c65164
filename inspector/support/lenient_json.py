"""Lenient parsing of JSON-like text, shared by every detector.

Cheapest first: standard JSON; then JS-style objects (unquoted keys, single quotes, trailing
commas, comments, Python's True/False/None) rewritten to JSON by one string-aware pass of a
regular expression and parsed by `json`; then `json5` for the rest of JSON5, only when one pass
over the text shows that it could read it (`json5` is pure Python: some 500 µs for an argument
object that it then refuses, against 20 µs for the pass). Each result says which repairs it
needed. Braces and quotes inside strings never count as structure.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from inspector.support.lazy_pattern import lazy_pattern
from inspector.support.leading_space import always_matching

JSON5_SYNTAX = "JSON5 syntax"
# The longest text given to `json5` (pure Python, some 4 µs a character): longer text that only it
# could read is not read at all, so that hostile text cannot stall a scan.
JSON5_MAX_CHARS = 50_000

_DECODER = json.JSONDecoder(strict=False)

# Strings (either quote) and comments, matched first by every scanner of JSON-like text so that
# nothing inside them is ever taken for structure. Each alternative ends with an empty named group
# that names its kind (`match.lastgroup`: dq, sq, line_comment, block_comment; the token is
# `match.group()`): a group opened before the first character would stop the regular expression
# engine from rejecting an alternative by its first character, which makes scanning 3-4 times
# slower. Strings are written as runs of plain characters between escapes for the same reason.
STRING_OR_COMMENT = r"""
    "[^"\\]*(?:\\.[^"\\]*)*"(?P<dq>)
  | '[^'\\]*(?:\\.[^'\\]*)*'(?P<sq>)
  | //[^\n]*(?P<line_comment>)
  | /\*.*?\*/(?P<block_comment>)
"""
_TOKENS = lazy_pattern(
    STRING_OR_COMMENT
    + r"""
  | (?<![\w$])[A-Za-z_$][\w$]*+(?=\s*:)(?P<key>)
  | ,(?=\s*[}\]])(?P<comma>)
  | \b(?:True|False|None)\b(?P<word>)
""",
    re.S | re.X,
)
# A key starts a word: tried inside one (after a word character), the search for a key would read
# to the word's end again from every later letter of a long word (quadratic).
_BRACES = lazy_pattern(STRING_OR_COMMENT + r"| \{(?P<open>) | \}(?P<close>)", re.S | re.X)
_DEPTH_CHANGE: dict[str | None, int] = {"open": 1, "close": -1}  # by the `_BRACES` group a token matched
# What `json5` can never read, seen in one pass over a text that opens with `{` or `[`: a character
# outside strings and comments that no JSON5 value holds (parentheses, `;`, `=`, `<`, a lone `/` or
# quote that cannot close...), brackets that do not match, or that never close (a value cut off).
_JSON5_TOKENS = lazy_pattern(
    STRING_OR_COMMENT + r"""| [{\[](?P<open>) | [}\]](?P<close>) | [^\w$\s{}\[\]:,+\-.\\\ufeff](?P<alien>)""",
    re.S | re.X,
)
_CLOSERS = {"{": "}", "[": "]"}
_JSON5_SPACE = always_matching(r"[\s\ufeff]*")  # JSON5's white space includes the byte order mark
# How a value `json5` may read begins when it is no object or array (a comment before the value
# too): any other start is prose.
_SCALAR_START = lazy_pattern(r"[\"'0-9+\-./]|(?:true|false|null|Infinity|NaN)(?![\w$])")
# Only an object whose first key is quoted (or that is empty) can be plain JSON.
_JSON_OBJECT_START = lazy_pattern(r"\{\s*[\"}]")
# The shape of most JS-style objects written in replies (`{success: true, content: "..."}`): one
# level of members, each key bare or in double quotes, each value a double-quoted string, a JSON
# number, true, false or null, with JSON's white space between. Read by one regular expression,
# every quantifier possessive (nothing is read twice: linear on any text). Such an object ends at
# the `}` that `closing_end` finds (no quote in it is left open, no brace, `'` or `/` outside its
# strings), and `_js_to_json` would only quote its bare keys (a bare key is the only token it
# rewrites there): `_parse_flat` does that from the members one search finds.
_FLAT_SPACE = r"[ \t\n\r]*+"
_FLAT_STRING_TEXT = r'[^"\\]*+(?:\\.[^"\\]*+)*+'  # between the quotes
_FLAT_STRING = rf'"{_FLAT_STRING_TEXT}"'
_FLAT_BARE_KEY = r"[A-Za-z_$][\w$]*+"  # as `_TOKENS` reads a bare key
_FLAT_MEMBER_TAIL = (
    rf"{_FLAT_SPACE}:{_FLAT_SPACE}"
    rf"(?:{_FLAT_STRING}|-?+(?:0|[1-9][0-9]*+)(?:\.[0-9]++)?+(?:[eE][-+]?+[0-9]++)?+|true|false|null)"
)
_FLAT_OBJECT_MEMBER = rf"(?:{_FLAT_STRING}|{_FLAT_BARE_KEY}){_FLAT_MEMBER_TAIL}"
_FLAT_OBJECT = lazy_pattern(
    rf"\{{{_FLAT_SPACE}(?:{_FLAT_OBJECT_MEMBER}"
    rf"(?:{_FLAT_SPACE},{_FLAT_SPACE}{_FLAT_OBJECT_MEMBER})*+)?+{_FLAT_SPACE}\}}",
    re.S,
)
# One member of such an object with what opens it (`{` or `,`, then white space), in groups: the
# opener, a quoted key's text, a bare key, and the rest (`_parse_flat` writes the key quoted).
_FLAT_MEMBER = lazy_pattern(
    rf'([{{,]{_FLAT_SPACE})(?:"({_FLAT_STRING_TEXT})"|({_FLAT_BARE_KEY}))({_FLAT_MEMBER_TAIL})', re.S
)
_SINGLE_QUOTED_ESCAPES = lazy_pattern(r"""\\(.)|(")""", re.S)
_PYTHON_WORDS = {"True": "true", "False": "false", "None": "null"}
_REPAIR_NAMES: dict[str | None, str] = {  # by the `_TOKENS` group a token matched
    "sq": "single-quoted strings",
    "line_comment": "comments",
    "block_comment": "comments",
    "key": "unquoted keys",
    "comma": "trailing commas",
    "word": "Python literals",
}


@dataclass(slots=True)
class Parsed:
    """A value parsed from text: where it ended, and the repairs it needed (empty for JSON).
    Treated as an immutable value (not frozen: quicker to build, one per object a reply opens with)."""

    value: Any
    end: int
    repairs: tuple[str, ...] = ()


def object_end(text: str, start: int) -> int | None:
    """The index just past the `}` that closes the `{` at `text[start]`, or None if it never closes.

    Strings in either quote and comments are skipped whole, so braces inside them do not count.
    A flat object (`_FLAT_OBJECT`, the common case) is read by one match, with no Python per token.
    """
    flat = _FLAT_OBJECT.match(text, start)
    if flat is not None:
        return flat.end()
    return closing_end(_BRACES, scannable(text, len(text)), start, len(text))


def only_objects(text: str, start: int) -> bool:
    """Whether `text[start:]` is nothing but objects, one after another with white space between:
    braces that close to the end, matched (strings and comments skipped whole) but not parsed, in
    one pass."""
    depth = 0
    outside = start  # where the text between objects began
    for match in _BRACES.finditer(scannable(text, len(text)), start):
        if depth == 0 and (
            match.lastgroup != "open" or (not text[outside : match.start()].isspace() and outside < match.start())
        ):
            return False
        depth += _DEPTH_CHANGE.get(match.lastgroup, 0)
        if depth == 0:
            outside = match.end()
    return depth == 0 and not text[outside:].strip()


# A string or comment that never closes is skipped as if its opening quote (or `/*`) were any other
# character; but the regular expression that finds this out reads to the end of the text, and it
# did so again from every later quote: quadratic on `{"\"\"\"...`. Where each kind can still close
# is known in advance, in one pass: a `"` string opened at q closes iff an unescaped `"` (one after
# an even run of backslashes, whatever string it is read from) follows q; a `/*` comment at q iff a
# `*/` starts at q + 2 or later. `scannable` replaces the opening character of every quote (or the
# `*` of every `/*`) that can no longer close by NUL, which no token begins with and every token
# reads as an ordinary character, so each failing opener is read once at most. Token extents are
# unchanged: take a token's text from the original text by its span.
_DEAD = "\x00"
_scannable_cache: tuple[str, int, bool, str] | None = None


def scannable(text: str, stop: int, strings: bool = True) -> str:
    """`text` with every opener (quote when `strings`, and `/*`) that cannot close before `stop`
    made NUL, so that STRING_OR_COMMENT scanners read each such opener once (see above). The last
    answer is kept: detectors ask about the same text again and again."""
    global _scannable_cache
    cached = _scannable_cache
    if cached is not None and cached[0] is text and cached[1] == stop and cached[2] == strings:
        return cached[3]
    result = _scannable(text, stop, strings)
    _scannable_cache = (text, stop, strings, result)
    return result


def _scannable(text: str, stop: int, strings: bool) -> str:
    """`scannable` without the cache."""
    result = text
    dead: list[tuple[int, int, str]] = []  # (from, to, what): every such opener in [from, to) is made NUL
    for quote in ('"', "'") if strings else ():
        closing = _last_unescaped(text, quote, stop)
        start = 0 if closing is None else closing + 1  # the last quote that closes is left alone
        if text.find(quote, start, stop) >= 0:
            dead.append((start, stop, quote))
    comment_end = text.rfind("*/", 0, stop)
    if text.find("/*", max(comment_end, 0), stop) >= 0:
        dead.append((max(comment_end, 0), stop, "/*"))
    if dead:
        chars = list(result)
        for start, end, what in dead:
            position = text.find(what, start, end)
            while position >= 0:
                chars[position + (1 if what == "/*" else 0)] = _DEAD
                position = text.find(what, position + 1, end)
        result = "".join(chars)
    return result


def _last_unescaped(text: str, quote: str, stop: int) -> int | None:
    """The place of the last `quote` before `stop` that no backslash escapes (one after an even
    run of backslashes), looked for from the end: each character is read once at most."""
    position = text.rfind(quote, 0, stop)
    while position >= 0:
        before = position
        while before > 0 and text[before - 1] == "\\":
            before -= 1
        if (position - before) % 2 == 0:
            return position
        position = text.rfind(quote, 0, before)
    return None


def closing_end(tokens: re.Pattern[str], text: str, start: int, stop: int) -> int | None:
    """Just past the token that closes the opening token at `text[start]`, scanning no further
    than `stop`: `tokens` matches openers in a group `open`, closers in a group `close`, and
    anything to skip whole (strings, comments) in other groups."""
    depth = 0
    for match in tokens.finditer(text, start, stop):
        kind = match.lastgroup
        if kind == "open":
            depth += 1
        elif kind == "close":
            depth -= 1
            if depth == 0:
                return match.end()
    return None


def parse_object_at(text: str, start: int = 0) -> Parsed | None:
    """Parse the JSON or JS-style object that begins at `text[start]`, or None if there is none."""
    if not text.startswith("{", start):
        return None
    if _JSON_OBJECT_START.match(text, start):
        decoded = _decode_at(text, start)
        if decoded is not None:
            return decoded if isinstance(decoded.value, dict) else None
    flat = _FLAT_OBJECT.match(text, start)
    parsed = _parse_flat(text, start, flat.end()) if flat is not None else None
    if parsed is not None:
        return parsed
    end = object_end(text, start)
    if end is None:
        return None
    loaded = _loads_not_json(text[start:end])
    if loaded is None or not isinstance(loaded[0], dict):
        return None
    return Parsed(loaded[0], end, loaded[1])


def _parse_flat(text: str, start: int, end: int) -> Parsed | None:
    """The flat object `text[start:end]` (matched by `_FLAT_OBJECT`) read as `_js_to_json` and
    `json` read it: its members with their bare keys quoted (the white space before its `}`,
    which JSON ignores, left out). None when it has no bare key (plain JSON, which the caller
    reads) or `json` refuses it (an escape JSON lacks): the caller's general path then refuses it
    the same way before trying `json5`."""
    members = _FLAT_MEMBER.findall(text, start, end)
    if not any(bare for _, _, bare, _ in members):
        return None
    rewritten = "".join([f'{opener}"{quoted}{bare}"{rest}' for opener, quoted, bare, rest in members]) + "}"
    try:
        return Parsed(loads_json(rewritten), end, (_REPAIR_NAMES["key"],))
    except ValueError:
        return None


def parse_array_at(text: str, start: int = 0) -> Parsed | None:
    """Parse the JSON array that begins at `text[start]`, or None if there is none (plain JSON
    only: a list of calls is never repaired)."""
    if not text.startswith("[", start):
        return None
    decoded = _decode_at(text, start)
    return decoded if decoded is not None and isinstance(decoded.value, list) else None


def _decode_at(text: str, start: int) -> Parsed | None:
    """The JSON value that begins at `text[start]` (control characters allowed in strings), or None."""
    try:
        value, end = _DECODER.raw_decode(text, start)
    except (ValueError, RecursionError):
        return None
    return Parsed(value, end)


def json_or_text(value: str) -> Any:
    """The JSON value `value` holds (white space around it aside), or `value` itself when it is not JSON."""
    try:
        return loads_json(value.strip())
    except (ValueError, RecursionError):
        return value


def loads_lenient(text: str) -> tuple[Any, tuple[str, ...]] | None:
    """Parse a whole JSON-like text: the value and the repairs it needed, or None if it cannot."""
    try:
        return loads_json(text), ()
    except (ValueError, RecursionError):
        return _loads_not_json(text)


def _loads_not_json(text: str) -> tuple[Any, tuple[str, ...]] | None:
    """`loads_lenient` for a text already known not to be plain JSON."""
    rewritten, repairs = _js_to_json(text)
    if repairs:
        try:
            return loads_json(rewritten), repairs
        except (ValueError, RecursionError):
            pass
    if len(text) > JSON5_MAX_CHARS or not _json5_may_read(text):
        return None
    import json5  # here, not at the top: only text that even the rewrite leaves invalid needs it

    try:
        return json5.loads(text), repairs + (JSON5_SYNTAX,)
    except (ValueError, RecursionError, TypeError):
        return None


def _json5_may_read(text: str) -> bool:
    """False when `json5` cannot read `text`, as one pass over it shows (see `_JSON5_TOKENS`): it
    starts with no value, or its object or array holds a character no JSON5 value has, has brackets
    that do not match or never close, or has more than white space after it. True otherwise: only
    `json5` can tell then."""
    start = _JSON5_SPACE.match(text).end()
    if start == len(text):
        return False
    if text[start] not in _CLOSERS:
        return _SCALAR_START.match(text, start) is not None
    expected: list[str] = []
    for match in _JSON5_TOKENS.finditer(scannable(text, len(text)), start):
        kind = match.lastgroup
        if kind == "alien":
            return False
        if kind == "open":
            expected.append(_CLOSERS[match.group()])
        elif kind == "close":
            if not expected or expected.pop() != match.group():
                return False
            if not expected:
                after = _JSON5_SPACE.match(text, match.end()).end()
                return after == len(text) or text.startswith("/", after)  # a comment after it: json5 decides
    return False


def loads_json(text: str) -> Any:
    """`json.loads(text, strict=False)` (plain JSON, control characters allowed in strings)
    without building a decoder per call."""
    if text.startswith("\ufeff"):
        raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0)
    return _DECODER.decode(text)


def _js_to_json(text: str) -> tuple[str, tuple[str, ...]]:
    """Rewrite JS-style object syntax to JSON; returns the text and the repairs made, in order.
    One pass over the tokens of `scannable(text)`, each token's text taken from `text`."""
    repairs: list[str] = []
    pieces: list[str] = []
    cursor = 0
    for match in _TOKENS.finditer(_scannable(text, len(text), True)):  # a part of a text: not cached
        kind = match.lastgroup
        if kind == "dq":
            continue
        start, end = match.span()
        token = text[start:end]
        name = _REPAIR_NAMES[kind]
        if name not in repairs:
            repairs.append(name)
        if kind == "sq":
            token = '"' + _SINGLE_QUOTED_ESCAPES.sub(_requote, token[1:-1]) + '"'
        elif kind == "key":
            token = f'"{token}"'
        elif kind == "word":
            token = _PYTHON_WORDS[token]
        else:
            token = ""
        pieces.append(text[cursor:start])
        pieces.append(token)
        cursor = end
    pieces.append(text[cursor:])
    return "".join(pieces), tuple(repairs)


def _requote(match: re.Match[str]) -> str:
    """Inside a single-quoted string: `\\'` becomes `'`, a bare `"` becomes `\\"`."""
    escaped = match.group(1)
    if escaped is None:
        return '\\"'
    return "'" if escaped == "'" else match.group()
