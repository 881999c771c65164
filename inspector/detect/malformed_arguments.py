"""Detector `malformed-arguments`: a structured call whose argument string is not a JSON object.

The harness could not parse the call, so it never ran as written (`}}}}` for `}}`).
Cheapest first: a ``` fence and double encoding are unwrapped; what follows the first object is
named (extra braces; text; objects run together, of which the first is kept: it is the one the
call was started with, the rest is a repeat or another call glued on); then the object is parsed
by `json`, by `loads_lenient`, and only then by `json-repair`, whose log is listed. Arguments cut
off at max tokens are completed by `json-repair`: that repair guesses, as does dropping the other
objects run together, so those are warnings. No object at all gives a finding with no fix, as
does a call whose agent kept only its parser's error in place of the arguments (GitHub Copilot CLI
keeps no text; Goose, no text and no tool's name): the message quotes that error and says there is
nothing to repair from.

Not flagged: arguments that parse, and arguments a format stores as an object.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any, NamedTuple

from inspector.detect.context import ScanContext
from inspector.detect.contract import Detector
from inspector.model import ARGUMENTS_LOST, ERROR, WARNING, Finding, Fix, ToolCall, Turn
from inspector.support.cut_off_json import describe, opening_value
from inspector.support.lazy_pattern import lazy_pattern
from inspector.support.leading_space import always_matching
from inspector.support.lenient_json import STRING_OR_COMMENT, loads_lenient, scannable
from inspector.support.safe_text import preview

KIND = "malformed-arguments"

# A fence's opening line; the body is what follows, less white space, a closing ``` and white space
# at its end (`_unfenced`: a lazy `(.*?)\s*(?:```)?\s*\Z` backtracked cubically on white space).
_FENCE_INFO = always_matching(r"[\w-]*[ \t]*\n?")  # what follows a fence's opening ```
_STRINGS = lazy_pattern(STRING_OR_COMMENT, re.S | re.X)
_CONTROL = lazy_pattern(r"[\x00-\x1f]")
_EXTRA_BRACES = lazy_pattern(r"[}\s]+")
_REPAIR_LOG_NOISE = ("returned early", "no more elements")
# The longest text given to `json-repair` (pure Python, some 10 µs a character, more on some
# hostile text): longer arguments that only it could repair are left unrepaired, and the finding says so.
REPAIR_MAX_CHARS = 50_000
_ERROR_SHOWN = 300  # characters of a parser's error kept in place of the arguments, quoted whole up to this


def detect(context: ScanContext) -> Iterator[Finding]:
    """Findings for every structured call whose stored argument string is not a JSON object."""
    for turn in context.turns_with_calls:
        for index, call in enumerate(turn.tool_calls):
            if call.arguments is None and isinstance(call.arguments_raw, str):
                yield _finding(turn, index, call)


class Repair(NamedTuple):
    """A repaired argument string: the object (None if there is none), the changes made, whether
    the repair guessed, and the text dropped after the first of several objects run together."""

    value: dict[str, Any] | None
    changes: list[str]
    guessed: bool = False
    dropped: str | None = None


def repair_arguments(raw: str) -> Repair:
    """Repair an argument string, cheapest way first."""
    repairs: list[str] = []
    text = raw.strip()
    while True:
        if text.startswith("```"):
            repairs.append("removed a ``` fence around the arguments")
            text = _unfenced(text).strip()
        elif text.startswith('"') and isinstance(inner := _loads(text), str):
            repairs.append("unwrapped a JSON string that held the arguments (double encoding)")
            text = inner.strip()
        else:
            break
    if not text:
        return Repair({}, repairs)
    if not text.startswith("{"):
        return Repair(_by_json_repair(text, repairs), repairs)
    end, still_open = _first_object(text)
    if end is None:
        repairs.append(
            f"the arguments were cut off: closed {still_open} where they seem to end (values may be missing)"
        )
        return Repair(_by_json_repair(text, repairs), repairs, guessed=True)
    head, tail = text[:end], text[end:].strip()
    guessed, dropped = False, None
    if _EXTRA_BRACES.fullmatch(tail):
        count = tail.count("}")
        repairs.append(f"removed {count} extra closing brace{'s' if count > 1 else ''}")
    elif tail.startswith("{") and not tail.replace(head, "").strip():
        repairs.append("the same object was written more than once: kept one")
    elif tail.startswith("{"):
        guessed, dropped = True, tail
        repairs.append(
            f"objects were run together: kept the first (the call was started with it), dropped {_quoted(tail)}"
        )
    elif tail:
        repairs.append(f"removed text after the object: {_quoted(tail)}")
    return Repair(_parse_object(head, repairs), repairs, guessed, dropped)


def _unfenced(text: str) -> str:
    """The body of a text that opens with a ``` fence: after the opening line, before the white
    space, the one closing ``` and the white space that end it."""
    body = text[_FENCE_INFO.match(text, 3).end() :].rstrip()
    return body[:-3].rstrip() if body.endswith("```") else body


def _parse_object(text: str, repairs: list[str]) -> dict[str, Any] | None:
    value = _loads(text)
    if isinstance(value, dict):
        return value
    escaped = _escape_controls(text) if _CONTROL.search(text) else text
    if escaped != text:
        repairs.append("escaped raw line breaks or tabs inside strings")
    loaded = loads_lenient(escaped)
    if loaded is not None and isinstance(loaded[0], dict):
        repairs.extend(f"fixed {name}" for name in loaded[1])
        return loaded[0]
    return _by_json_repair(escaped, repairs)


def _by_json_repair(text: str, repairs: list[str]) -> dict[str, Any] | None:
    """`json-repair`'s object for `text`, with each distinct entry of its log added to `repairs`."""
    if len(text) > REPAIR_MAX_CHARS:
        repairs.append(
            f"not given to json-repair: {len(text):,} characters, over the {REPAIR_MAX_CHARS:,} "
            "it is given (a bound that keeps hostile text from stalling the scan)"
        )
        return None
    from json_repair import repair_json  # here, not at the top: most scans never need it (7 ms to import)

    try:
        value, log = repair_json(text, return_objects=True, logging=True, skip_json_loads=True)
    except (ValueError, RecursionError):
        return None
    notes = [e["text"] for e in log if not any(noise in e["text"] for noise in _REPAIR_LOG_NOISE)]
    repairs.extend(f"json-repair: {note}" for note in dict.fromkeys(notes))
    if not isinstance(value, dict):
        return None
    if not notes:
        repairs.append("json-repair: fixed the remaining syntax (it logged no detail)")
    return value


def _first_object(text: str) -> tuple[int | None, str]:
    """Where the object opening `text` ends; when it never closes, None and what is left open."""
    opening = opening_value(text)
    return opening.end, describe(opening)


def _escape_controls(text: str) -> str:
    """`text` with the control characters inside its strings escaped (one pass over its tokens)."""
    pieces: list[str] = []
    cursor = 0
    for match in _STRINGS.finditer(scannable(text, len(text), strings=False)):
        if match.lastgroup in ("dq", "sq"):
            start, end = match.span()
            pieces.append(text[cursor:start])
            pieces.append(_CONTROL.sub(lambda c: json.dumps(c.group())[1:-1], text[start:end]))
            cursor = end
    pieces.append(text[cursor:])
    return "".join(pieces)


def _loads(text: str) -> Any:
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def _finding(turn: Turn, index: int, call: ToolCall) -> Finding:
    raw = call.arguments_raw
    if call.origin == ARGUMENTS_LOST:
        return _lost_finding(turn, call)
    repair = repair_arguments(raw)
    payload: dict[str, Any] = {"raw": raw, "repairs": repair.changes}
    if repair.dropped is not None:
        payload["dropped"] = repair.dropped
    what = f"The {call.name} call's arguments are not a JSON object"
    if repair.value is None:
        capped = [change for change in repair.changes if change.startswith("not given to json-repair")]
        message = f"{what} and could not be repaired: {_quoted(raw)}.{''.join(f' It was {c}.' for c in capped)}"
        return Finding.at(turn, KIND, ERROR, message, tool=call.name, payload=payload)
    changes = "; ".join(repair.changes)
    if repair.guessed:
        message = f"{what}; the repair GUESSED, check it: {changes}."
    else:
        message = f"{what}, so it could not run as written; repaired: {changes}."
    summary = (
        f"replace the {call.name} call's arguments with the repaired object ({', '.join(repair.value) or 'empty'})"
    )
    return Finding.at(
        turn,
        KIND,
        WARNING if repair.guessed else ERROR,
        message,
        tool=call.name,
        arguments=repair.value,
        payload=payload,
        fix=Fix(replace_arguments=((index, repair.value),), summary=summary),
    )


def _lost_finding(turn: Turn, call: ToolCall) -> Finding:
    """The finding for a call whose agent kept its parser's error in place of the arguments: no fix."""
    subject = f"The {call.name} call" if call.name else "A call"
    kept = "not the text the model wrote" if call.name else "not the tool's name or the text the model wrote"
    message = (
        f"{subject}'s arguments did not parse, and the agent kept its parser's error in their place, {kept}: "
        f"{preview(call.arguments_raw, _ERROR_SHOWN)!r}. There is nothing to repair them from; the call failed."
    )
    payload = {"raw": call.arguments_raw, "repairs": [], "arguments_lost": True}
    return Finding.at(turn, KIND, ERROR, message, tool=call.name or None, payload=payload)


def _quoted(text: str) -> str:
    return repr(preview(text, 61))


DETECTOR = Detector(KIND, ERROR, detect)
