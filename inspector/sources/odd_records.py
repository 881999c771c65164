"""Records with a field of a type no reader foresaw (an object where a call id belongs, a number
as a tool's name) are odd records: each is counted in its session's `problems` and its turn left
out of the session, so no later stage meets the odd value; the record itself stays in the document
(or the database) and is written back untouched. So are calls whose arguments hold an integer too
long to read. Every `Source` passes its sessions through here."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from inspector.model import Session, Turn
from inspector.support.lazy_pattern import lazy_pattern
from inspector.support.long_numbers import MAX_DIGITS, too_long_to_read

_DIGITS = lazy_pattern("[0-9]+")  # each run of digits whole: a search resumes past it (linear time)


def without_odd_turns(session: Session) -> Session:
    """`session` without the turns that hold a value of a type the model does not allow, each
    reported in its problems."""
    suspects = [
        turn
        for turn in session.turns  # one cheap test per turn; the rest only for these
        if turn.tool_calls
        or turn.tool_results
        or type(turn.text) is not str
        or (turn.id is not None and type(turn.id) is not str)
    ]
    odd = {turn.position: reason for turn in suspects if (reason := _odd_field(turn)) is not None}
    if not odd:
        return session
    kept = tuple(turn for turn in session.turns if turn.position not in odd)
    lines = tuple(f"message {position}: {reason}, skipped" for position, reason in odd.items())
    return replace(session, turns=kept, problems=session.problems + lines)


def _odd_field(turn: Turn) -> str | None:
    """What in `turn` has a type the model does not allow (text where text belongs, text or
    nothing for ids and a result's tool name), or None. Called for every turn: plain checks only."""
    if type(turn.text) is not str:
        return _odd("its text", turn.text)
    if turn.id is not None and type(turn.id) is not str:
        return _odd("its id", turn.id)
    for call in turn.tool_calls:
        if call.id is not None and type(call.id) is not str:
            return _odd("a call's id", call.id)
        if type(call.name) is not str:
            return _odd("a call's tool name", call.name)
        if call.arguments is None and type(call.arguments_raw) is str and _too_long_to_read(call.arguments_raw):
            return f"a call's arguments hold a number of over {MAX_DIGITS:,} digits, too long to read"
    for result in turn.tool_results:
        if result.call_id is not None and type(result.call_id) is not str:
            return _odd("a result's call id", result.call_id)
        if result.name is not None and type(result.name) is not str:
            return _odd("a result's tool name", result.name)
    return None


def _too_long_to_read(arguments: str) -> bool:
    """Whether `arguments`, which do not parse, fail for an integer too long to read."""
    if all(len(run) <= MAX_DIGITS for run in _DIGITS.findall(arguments)):  # one linear pass: most stop here
        return False
    try:
        json.loads(arguments)
    except ValueError as error:
        return too_long_to_read(error)
    except RecursionError:
        return False
    return False


def _odd(what: str, value: Any) -> str:
    names = {
        dict: "an object",
        list: "a list",
        bool: "a boolean",
        int: "a number",
        float: "a number",
        bytes: "binary data",
    }
    return f"{what} is {names.get(type(value), 'a ' + type(value).__name__)}, not text"
