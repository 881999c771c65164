"""Which turns of a session may hold a secret: a look at the texts of many turns at once, far
quicker than the search (`secret_search`) on each text, which then runs only on the turns it
points at.

Each check is a condition every finding of one of the search's rules meets, so a turn none of
them points at holds nothing the search would find:

- every named pattern but three is a run of 15 characters or more of letters, digits, `_`, `-`
  and `+` holding the pattern's start (`sk-`, `ghp_`, `AKIA`, ...);
- the other three patterns each hold a fixed string: `-----BEGIN`, `.eyJ`, `earer`;
- the value of a key named like a secret, in a text: the last word of such a key right before
  its `:` or `=` (`token:`, `API_KEY=`, in any case);
- in the texts searched for tokens, a random-looking token: a whole run of 32 to 100 of those
  characters mixing lower case, upper case and digits;
- a key of an object, searched as a text and for the value under it: the key is named like a
  secret or holds one (each distinct key is looked at once).

The texts of a batch of turns are joined as latin-1 bytes (one byte a character, any other
character a `?`, which no check looks for) and read once by one pattern of the first four
conditions, compiled by RE2 into an automaton in C++: linear time, whatever the text. What it
finds is a start, a fixed string or a key, which points at its text, or a run of 32 characters or
more, looked at in Python (the few a session holds). A record's fields the first batches found
plain (the same working folder, version and session id on every line) are not looked at again.
What the batches learn (keys, long runs and fields holding nothing the search would find) is a
fact about those strings alone, so it is kept for the next session a process scans (its keys,
folder and version are most often the same): many small sessions do not each learn it again.
What is kept is bounded (`KNOWN_KEPT` strings, `KNOWN_SIZE` characters), forgotten whole when a
session starts or ends past the bound.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Sequence
from functools import cache
from itertools import accumulate
from typing import Any

from inspector.detect.secret_search import (
    KEY_BEFORE_SEPARATOR,
    SEPARATOR_AFTER_KEY,
    TOKEN_CHARS,
    names_a_secret,
    secrets_in_text,
)
from inspector.model import Turn
from inspector.support.lazy_pattern import lazy_pattern

BATCH = 1 << 16  # characters: the texts looked at together (a batch ends with the turn that fills it)
SHORTEST_RUN = 15  # characters: the shortest run a named pattern is (a Slack token, `xoxb-` and 10)
PLAIN_VALUES_KEPT = 1 << 14  # records' fields remembered as holding nothing (a bound on the memory)
KNOWN_KEPT = 1 << 16  # keys, long runs and fields remembered as holding nothing (a bound on the memory)
KNOWN_SIZE = 1 << 22  # characters of them
SHORTEST_TOKEN, LONGEST_TOKEN = 32, 100  # characters: the shortest and longest random-looking tokens
# The starts of the named patterns that are runs, by their length: `sk-`, `ghp_`, `AKIA`, ...
_STARTS = ((3, rb"sk-|xox"), (4, rb"gh[pousr]_|AKIA|ASIA|ABIA|ACCA|AIza"), (11, rb"github_pat_"))
_RUN_STARTS = lazy_pattern(b"|".join(starts for _, starts in _STARTS))
_RUN_CHAR = f"[{TOKEN_CHARS}]".encode()
# A start with the run characters around it that make a run of `SHORTEST_RUN`: every way to
# split them between before and after (a pattern of a length each, which an automaton reads at once).
_STARTS_IN_RUNS = b"|".join(
    b"%s{%d}(?:%s)%s{%d}" % (_RUN_CHAR, before, starts, _RUN_CHAR, SHORTEST_RUN - length - before)
    for length, starts in _STARTS
    for before in range(SHORTEST_RUN - length + 1)
)
# The memory RE2 may give the look's automaton, whose states are made as text needs them: text
# made of starts' pieces in runs just too short needs some 16 MB of them (ordinary text, far
# fewer); with less, RE2 drops them again and again and reads such text some 100 times slower.
_AUTOMATON_MEMORY = 32 << 20
_KEY_BEFORE_SEPARATOR = f"(?i:{KEY_BEFORE_SEPARATOR})".encode()
_SEPARATOR_AFTER_KEY = lazy_pattern(SEPARATOR_AFTER_KEY.encode())
_KEY_LAST_WORDS = (
    b"key",
    b"secret",
    b"token",
    b"password",
    b"passwd",
    b"pwd",
    b"authorization",
    b"credential",
    b"credentials",
)
_FIXED = (rb"-----BEGIN", rb"\.eyJ", rb"earer")  # in a private key, a JSON Web Token, a bearer token (patterns)
_FIXED_IN_RUNS = (b"-----BEGIN", b"earer")  # those made of a run's characters


def turns_to_search(turns: Sequence[Turn]) -> Iterator[int]:
    """The indexes of the turns where the search may find a secret (every one where it does), in order."""
    known = _KNOWN.within_bounds()
    start = 0
    while start < len(turns):
        batch = _Batch(start, known)
        start = batch.fill(turns)
        yield from batch.turns_to_search()
    known.within_bounds()  # (a large session's is not held until the next)


class _Known:
    """What the batches found to hold nothing the search would find, passed over when met again:
    a session's records repeat their keys, fields and long names, and the sessions of one agent
    repeat them too."""

    def __init__(self) -> None:
        self.safe_keys: set[str] = set()  # keys named like no secret, holding none
        self.plain_runs: set[bytes] = set()  # runs of 32 characters or more: no token, start or fixed string
        self.plain_values: set[str] = set()  # records' fields (the first batches' only: `PLAIN_VALUES_KEPT`)
        self.size = 0  # characters added to them (each counted once it is added, or more)

    def within_bounds(self) -> _Known:
        """Itself, all forgotten when it holds more than its bounds: the next session's first
        batches learn its own keys and fields again."""
        kept = len(self.safe_keys) + len(self.plain_runs) + len(self.plain_values)
        if kept > KNOWN_KEPT or self.size > KNOWN_SIZE or len(self.plain_values) >= PLAIN_VALUES_KEPT:
            self.safe_keys.clear()
            self.plain_runs.clear()
            self.plain_values.clear()
            self.size = 0
        return self

    def add_key(self, key: str) -> None:
        self.safe_keys.add(key)
        self.size += len(key)

    def add_run(self, run: bytes) -> None:
        self.plain_runs.add(run)
        self.size += len(run)

    def add_values(self, values: list[str]) -> None:
        self.plain_values.update(values)
        self.size += sum(map(len, values))


# Shared by the sessions a process scans, one after another or in threads (each step on a set is atomic).
_KNOWN = _Known()


class _Batch:
    """The texts of a few turns in a row: those searched by every rule, and their ids and
    records' fields, searched for named patterns only."""

    def __init__(self, start: int, known: _Known) -> None:
        self.start = start  # the index of the batch's first turn
        self.texts: list[str] = []
        self.firsts: list[int] = []  # the index of each turn's first text
        self.named_only: list[str] = []
        self.firsts_named_only: list[int] = []
        self.flagged: set[int] = set()  # turns with a key that may name a secret, or hold one
        self.known = known
        self.safe_keys = known.safe_keys

    def fill(self, turns: Sequence[Turn]) -> int:
        """Add the texts of the turns from the batch's first until they fill it (`BATCH`
        characters) or the session ends; the index of the turn after the last one added. (One
        loop with the lists at hand: it runs for every turn of every session scanned.)"""
        texts, named_only, firsts, firsts_named_only = self.texts, self.named_only, self.firsts, self.firsts_named_only
        safe_keys, plain = self.safe_keys, self.known.plain_values
        index, end, size = self.start, len(turns), 0
        while index < end and size < BATCH:
            turn = turns[index]
            index += 1
            text = turn.text
            firsts.append(len(texts))
            firsts_named_only.append(len(named_only))
            if turn.tool_calls or turn.tool_results:
                size += self._add_data(turn)
                if all(result.content != text for result in turn.tool_results):
                    texts.append(text)  # (else it is a result's, added above)
            else:
                texts.append(text)
            raw = turn.raw
            for record in (raw,) if isinstance(raw, dict) else raw if isinstance(raw, (list, tuple)) else ():
                if isinstance(record, dict):
                    for value in record.values():  # its text fields but the turn's text, those known plain left out
                        if isinstance(value, str) and value is not text and value not in plain:
                            named_only.append(value)
                    if not safe_keys.issuperset(record):
                        self._check_record_keys(record, text)
            if turn.id:
                named_only.append(turn.id)
            size += len(text)
        return index

    def _add_data(self, turn: Turn) -> int:
        """Add the strings of the turn's calls' arguments and results, and their ids; their size."""
        texts, safe_keys = self.texts, self.safe_keys
        size = 0
        stack: list[Any] = []
        for call in turn.tool_calls:
            stack.append(call.arguments if call.arguments is not None else call.arguments_raw)
            if call.id:
                self.named_only.append(call.id)
        for result in turn.tool_results:
            stack.append(result.content)
            if result.call_id:
                self.named_only.append(result.call_id)
        while stack:
            item = stack.pop()
            if isinstance(item, str):
                texts.append(item)
                size += len(item)
            elif isinstance(item, dict):
                if not safe_keys.issuperset(item):
                    for key in item.keys() - safe_keys:
                        self._check_key(key)
                stack.extend(item.values())
            elif isinstance(item, (list, tuple)):
                stack.extend(item)
        return size

    def _check_record_keys(self, record: dict[Any, Any], text: str) -> None:
        """Check the record's keys not known to be safe: one named like a secret flags the turn
        being added when its value is a text but the turn's (the search reads it)."""
        for key in record.keys() - self.safe_keys:
            if not isinstance(key, str):
                continue
            if names_a_secret(key) or next(secrets_in_text(key), None) is not None:
                value = record[key]
                if isinstance(value, str) and value != text:
                    self.flagged.add(len(self.firsts) - 1)
            else:
                self.known.add_key(key)

    def _check_key(self, key: object) -> None:
        """Flag the turn being added when the search may find a secret in `key` or under it (it
        is named like a secret); else remember the key as safe."""
        if not isinstance(key, str):
            return
        if names_a_secret(key) or next(secrets_in_text(key), None) is not None:
            self.flagged.add(len(self.firsts) - 1)
        else:
            self.known.add_key(key)

    def turns_to_search(self) -> list[int]:
        """The indexes of the batch's turns where the search may find a secret, in order."""
        flagged = self.flagged
        flagged.update(bisect_right(self.firsts, text) - 1 for text in _may_hold(self.texts, self.known))
        named = self.named_only
        distinct = list(dict.fromkeys(named))  # (an id is met again: a uuid is its turn's, its record's, a parent's)
        holding = {distinct[text] for text in _may_hold(distinct, None)}
        if holding:
            flagged.update(
                bisect_right(self.firsts_named_only, at) - 1 for at, text in enumerate(named) if text in holding
            )
        plain = self.known.plain_values
        if len(plain) < PLAIN_VALUES_KEPT:  # (the fields every record repeats are in the first batches)
            self.known.add_values(distinct)
            plain.difference_update(holding)
        return [self.start + turn for turn in sorted(flagged)]


def _may_hold(texts: list[str], known: _Known | None) -> set[int]:
    """The indexes of the texts where the search may find a secret: random-looking tokens too when
    `known` is given (its long runs, already found to be no token and to hold no named pattern's
    start, are not looked at again: a session's texts repeat their names)."""
    found: set[int] = set()
    joined = _Joined(texts)
    data = joined.bytes
    texts_look, named_look = _looks()
    search = (named_look if known is None else texts_look).search
    match = search(data)
    while match is not None:
        start, end = match.span()
        if known is None or end - start < SHORTEST_TOKEN or _long_run_may_hold(data, start, end, known):
            end = joined.add_text_at(start, found)
        match = search(data, end)
    return found


def _long_run_may_hold(data: bytes, start: int, end: int, known: _Known) -> bool:
    """Whether the search may find a secret in or at the end of the whole run of `SHORTEST_TOKEN`
    characters or more at `data[start:end]`: a token, a named pattern's start, a fixed string or a
    key's last word right before its separator (the look read them as part of the run); else the
    run is one `known` keeps as plain."""
    run = data[start:end]
    if _SEPARATOR_AFTER_KEY.match(data, end) and run.lower().endswith(_KEY_LAST_WORDS):
        return True
    if run in known.plain_runs:
        return False
    if _may_be_token(run) or _RUN_STARTS.search(run) or any(fixed in run for fixed in _FIXED_IN_RUNS):
        return True
    known.add_run(run)
    return False


@cache
def _looks() -> tuple[Any, Any]:
    """The looks at the texts searched by every rule and at the ids and fields (named patterns
    only), each one pattern compiled by RE2 at first use: an automaton in C++ reading each byte
    once whatever the text (linear time), a few times quicker than a search in C for each string
    and class the look needs, and far quicker than Python's `re`, which tries every position."""
    import re2  # (here: a process that looks at no session, such as `inspector --version`, does not load it)

    options = re2.Options()
    options.encoding = re2.Options.Encoding.LATIN1
    options.never_capture = True
    options.max_mem = _AUTOMATON_MEMORY
    named = b"|".join((_KEY_BEFORE_SEPARATOR, *_FIXED, _STARTS_IN_RUNS))
    return re2.compile(named + b"|" + _RUN_CHAR + b"{%d,}" % SHORTEST_TOKEN, options), re2.compile(named, options)


def _may_be_token(run: bytes) -> bool:
    """Whether a whole run may be a random-looking token: one is a whole run of 32 to 100
    characters mixing lower case, upper case and digits (an environment variable's name, a
    constant, a long lower-case name are not)."""
    if not SHORTEST_TOKEN <= len(run) <= LONGEST_TOKEN:
        return False
    return run.upper() != run and run.lower() != run and len(run.translate(None, b"0123456789")) < len(run)


class _Joined:
    """Texts joined, a line each, as latin-1 bytes."""

    def __init__(self, texts: list[str]) -> None:
        self.texts = texts
        self.bytes = "\n".join(texts).encode("latin-1", "replace")
        self.ends: list[int] = []  # where each text ends, its line's end included; counted when first needed

    def add_text_at(self, position: int, found: set[int]) -> int:
        """Add the index of the text at `position` to `found`; where the next text starts."""
        if not self.ends:
            self.ends = list(accumulate(len(text) + 1 for text in self.texts))
        index = bisect_right(self.ends, position)
        found.add(index)
        return self.ends[index]
