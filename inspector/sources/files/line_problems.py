"""The problems of a JSON Lines file whose lines are chained records (Claude Code's events, Qwen
Code's records, Pi's entries, Factory Droid's messages): each line that is not valid JSON (the
last one said to be cut off), and the records not read as turns, counted by what they are, with
the line of the first. Used by the `claude-code`, `qwen-code`, `pi` and `factory-droid` formats,
each saying what a record it does not read is."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from inspector.sources.files.document import BadLine
from inspector.support.counted_words import counted

NOT_AN_OBJECT = "that is not a JSON object"


def line_problems(records: list[Any], unread_label: Callable[[Any], str | None], noun: str, odd_noun: str) -> list[str]:
    """One line per bad line, then one per kind of record `unread_label` names (None: read, or
    kept without a word): `noun` names such records, `odd_noun` those that are not JSON objects
    (its label is `NOT_AN_OBJECT`)."""
    problems: list[str] = []
    last = len(records) - 1
    while last >= 0 and records[last] is None:
        last -= 1
    unknown: Counter[str] = Counter()
    first_line: dict[str, int] = {}
    for index, record in enumerate(records):
        if type(record) is not dict:  # the common case, a record, goes straight to its label
            if record is None:
                continue
            if isinstance(record, BadLine):
                cut = "cut off: " if index == last else ""
                problems.append(f"line {record.number}: {cut}invalid JSON ({record.error}), kept as it is")
                continue
        label = unread_label(record)
        if label is not None:
            unknown[label] += 1
            first_line.setdefault(label, index + 1)
    for label, count in unknown.items():
        named = odd_noun if label == NOT_AN_OBJECT else noun
        many = label.replace(NOT_AN_OBJECT, "that are not JSON objects")
        first = f"(first at line {first_line[label]})"
        problems.append(
            counted(
                count,
                f"{named} {label} {first} not read as turns, kept as it is",
                f"{named}s {many} {first} not read as turns, kept as they are",
            )
        )
    return problems
