"""Integers too long to read in a JSON file (more than `MAX_DIGITS` digits: turning such digits
into a Python `int` takes time quadratic in their length, and Python refuses it past its limit).

Each is kept as the digits written, read as a `LongNumber`: a text that stands in its place (a
placeholder no file holds, since it carries a token drawn when the process starts) and is not
`str` itself, so a reader meeting one where text or an id belongs sees an odd value. Writing the
document back puts the digits again where each placeholder is: the file comes back as it was.
Finding the numbers costs one look at each integer of the file, in time linear in its length.
"""

from __future__ import annotations

import json
import os
from typing import Any

from inspector.support.lazy_pattern import lazy_pattern

MAX_DIGITS = 4300  # Python's own default limit on reading digits as an `int`
_TOKEN = os.urandom(8).hex()
_PLACEHOLDER = lazy_pattern(f'"\ue000{_TOKEN}:([0-9]+)\ue000"')


class LongNumber(str):
    """The place of an integer too long to read: its text is a placeholder, `digits` what was written."""

    digits: str


def loads_keeping_long_numbers(
    text: str | bytes | bytearray, numbers: list[str] | None = None
) -> tuple[Any, list[str]]:
    """The JSON value of `text` with each integer of more than `MAX_DIGITS` digits read as a
    `LongNumber`, and the digits of those numbers in the order they come (their placeholders say
    their index), appended to `numbers` when given (several texts of one document share them).
    Fails as `json.loads` does on text that is not JSON."""
    numbers = [] if numbers is None else numbers

    def read_integer(digits: str) -> int | LongNumber:
        if len(digits) <= MAX_DIGITS:
            return int(digits)
        number = LongNumber(f"\ue000{_TOKEN}:{len(numbers)}\ue000")
        number.digits = digits
        numbers.append(digits)
        return number

    return json.loads(text, parse_int=read_integer), numbers


def with_long_numbers(json_text: str, numbers: list[str]) -> str:
    """`json_text`, written from a value holding `LongNumber`s (as quoted placeholders), with the
    digits of each in its place."""
    if not numbers:
        return json_text
    return _PLACEHOLDER.sub(lambda match: numbers[int(match.group(1))], json_text)


def too_long_to_read(error: ValueError) -> bool:
    """Whether `error`, raised while reading JSON, says an integer has too many digits to read."""
    return not isinstance(error, json.JSONDecodeError) and "digits" in str(error)
