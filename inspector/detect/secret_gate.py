"""Which turns of a session may hold a secret: a look at the texts of many turns at once, far
quicker than the search (`secret_search`) on each text, which then runs only on the turns it
points at.

Each check is a condition every finding of one of the search's rules meets, so a turn none of
them points at holds nothing the search would find:

- every named pattern but three, and every random-looking token, is a run of 15 characters or
  more of letters, digits, `_`, `-` and `+`: the runs are found by one translation of the texts'
  bytes and one search in it; a run counts when it holds a named pattern's start (`sk-`,
  `ghp_`, `AKIA`, ...: searched in each such run), or, in the texts searched for tokens, when it
  is one whole (32 to 100 characters) and mixes lower case, upper case and digits, as a token must;
- the other three patterns each hold a fixed string: `-----BEGIN`, `.eyJ`, `earer`;
- the value of a key named like a secret, in a text: the text holds the last word of such a key
  right before its `:` or `=` (`token:`, `API_KEY=`): the batch is split at its separators and
  the last bytes before each, joined again, searched for a last word by a `find` of each; or,
  when the separators are dense (timestamps, code), a `find` of each last word in the batch
  lowered;
- a key of an object, searched as a text and for the value under it: the key is named like a
  secret or holds one (each distinct key is looked at once).

The texts of a batch of turns are joined as latin-1 bytes (one byte a character, any other
character a `?`, which no check looks for), so each check is a call in C over the batch, whose
bytes stay in the processor's cache from one check to the next: linear time, a few passes.
A record's fields the first batches found plain (the same working folder, version and session
id on every line) are not looked at again. What the batches learn (keys, long runs and fields
holding nothing the search would find) is a fact about those strings alone, so it is kept for the
next session a process scans (its keys, folder and version are most often the same): many small
sessions do not each learn it again. What is kept is bounded (`KNOWN_KEPT` strings, `KNOWN_SIZE`
characters), forgotten whole when a session starts or ends past the bound.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Sequence
from itertools import accumulate
from operator import itemgetter
from typing import Any

from inspector.detect.secret_search import RUN_BYTES, SEPARATOR_AFTER_KEY, names_a_secret, secrets_in_text
from inspector.model import Turn
from inspector.support.lazy_pattern import lazy_pattern

BATCH = 1 << 16  # characters: the texts looked at together (a batch ends with the turn that fills it)
SHORTEST_RUN = 15  # characters: the shortest run a named pattern is (a Slack token, `xoxb-` and 10)
PLAIN_VALUES_KEPT = 1 << 14  # records' fields remembered as holding nothing (a bound on the memory)
KNOWN_KEPT = 1 << 16  # keys, long runs and fields remembered as holding nothing (a bound on the memory)
KNOWN_SIZE = 1 << 22  # characters of them
SHORTEST_TOKEN, LONGEST_TOKEN = 32, 100  # characters: the shortest and longest random-looking tokens
# The starts of the named patterns that are runs (`sk-`, `gh[pousr]_`, ...), searched in long runs.
_RUN_STARTS = lazy_pattern(rb"sk-|gh[pousr]_|github_pat_|xox|AKIA|ASIA|ABIA|ACCA|AIza")
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
_KEY_REACH = 20  # bytes before a separator: the longest last word, a quote and three spaces (17) fit
_DENSE_SEPARATORS = 32  # bytes: separators more often than one in these are looked for by a find of each word
_KEY_WINDOW = 1 << 16  # bytes split at their separators at once
_LAST_BYTES = itemgetter(slice(-_KEY_REACH, None))  # of a piece: what is looked at before its separator
_FIXED = (b"-----BEGIN", b".eyJ", b"earer")  # in a private key, a JSON Web Token, a bearer token
_RUN = b"\x01" * SHORTEST_RUN
_KEY_WORDS_BEFORE = tuple(word + b":" for word in _KEY_LAST_WORDS)


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
        self.plain_runs: set[bytes] = set()  # long runs of the texts: no token, no pattern's start
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
    for at in _keys_before_separators(joined.bytes):
        joined.add_text_at(at, found)
    for fixed in _FIXED:
        at = joined.bytes.find(fixed)
        while at != -1:
            at = joined.add_text_at(at, found)
            at = joined.bytes.find(fixed, at)
    runs = joined.bytes.translate(RUN_BYTES)
    if known is None:
        _add_runs_around_starts(joined, runs, found)
    else:
        _add_long_runs(joined, runs, known, found)
    return found


def _add_long_runs(joined: _Joined, runs: bytes, known: _Known, found: set[int]) -> None:
    """Add to `found` the texts with a run of `SHORTEST_RUN` characters or more that holds a named
    pattern's start (its characters are all a run's, so a start in a run is a whole match in it)
    or may be a token; add the other runs to those `known` keeps. The runs are found by `find`s in the
    translated bytes, and each is looked at once."""
    data, plain_runs = joined.bytes, known.plain_runs
    start = runs.find(_RUN)
    while start != -1:
        end = runs.find(b"\x00", start)
        end = len(runs) if end == -1 else end
        run = data[start:end]
        if run not in plain_runs:
            if _may_be_token(run) or _RUN_STARTS.search(run):
                end = joined.add_text_at(start, found)
            else:
                known.add_run(run)
        start = runs.find(_RUN, end)


def _add_runs_around_starts(joined: _Joined, runs: bytes, found: set[int]) -> None:
    """Add to `found` the texts where a named pattern's start stands in a run of `SHORTEST_RUN`
    characters or more. Each run is measured once: the search goes on past it (past its text when
    it is long enough), so no byte is read more than twice."""
    match = _RUN_STARTS.search(joined.bytes)
    while match is not None:
        at = match.start()
        end = runs.find(b"\x00", at)
        end = len(runs) if end == -1 else end
        if end - runs.rfind(b"\x00", 0, at) - 1 >= SHORTEST_RUN:
            end = joined.add_text_at(at, found)
        match = _RUN_STARTS.search(joined.bytes, end)


def _keys_before_separators(data: bytes) -> Iterator[int]:
    """Where a key named like a secret may end right before its `:` or `=` in `data` (its last word
    lowered: `token:`, `API_KEY=`), a window of `_KEY_WINDOW` bytes at a time (a long text of
    separators is not split into more pieces at once). The window is split at each separator; when
    the pieces are few (most texts), the last bytes of each (`_KEY_REACH`) are joined again at `:`,
    lowered, quotes and spaces taken out, and a `find` of each key word before a `:` looks there,
    in bytes a few times fewer than the text's; when they are many (timestamps, JSON, code), a
    `find` of each key word looks in the window lowered, and the bytes after each are matched."""
    for window in range(0, len(data), _KEY_WINDOW):
        start = max(0, window - _KEY_REACH)  # (with the bytes before the window's first separator)
        chunk = data[start : window + _KEY_WINDOW]
        pieces = chunk.replace(b"=", b":").split(b":")
        if len(pieces) > len(chunk) // _DENSE_SEPARATORS:
            lowered = chunk.lower()
            for word in _KEY_LAST_WORDS:
                yield from (
                    start + at
                    for at in _occurrences(lowered, (word,))
                    if _SEPARATOR_AFTER_KEY.match(lowered, at + len(word))
                )
            continue
        del pieces[-1]  # (what follows the last separator)
        befores = b":".join(map(_LAST_BYTES, pieces)).lower().translate(None, b" \t\"'") + b":"
        hits = sorted(at for word in _KEY_WORDS_BEFORE for at in _occurrences(befores, (word,)))
        if hits:
            separators = list(accumulate(len(piece) + 1 for piece in pieces))  # where each ends, from `start`
            index, counted = 0, 0
            for at in hits:
                index += befores.count(b":", counted, at)  # (the separators before the hit's)
                counted = at
                yield start + separators[index] - 1


def _may_be_token(run: bytes) -> bool:
    """Whether a whole run may be a random-looking token: one is a whole run of 32 to 100
    characters mixing lower case, upper case and digits (an environment variable's name, a
    constant, a long lower-case name are not)."""
    if not SHORTEST_TOKEN <= len(run) <= LONGEST_TOKEN:
        return False
    return run.upper() != run and run.lower() != run and len(run.translate(None, b"0123456789")) < len(run)


def _occurrences(data: bytes, needles: tuple[bytes, ...]) -> Iterator[int]:
    """Every position where one of `needles` occurs in `data` (by `find`s, each a fast search in C:
    far quicker than one pattern of them all, which tries every position)."""
    for needle in needles:
        at = data.find(needle)
        while at != -1:
            yield at
            at = data.find(needle, at + 1)


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
