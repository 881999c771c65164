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
  right before its `:` or `=` (`token:`, `API_KEY=`: the bytes are split at the separators, and
  a `find` of each last word looks in the last bytes before each, joined again);
- a key of an object, searched as a text and for the value under it: the key is named like a
  secret or holds one (each distinct key is looked at once).

The strings are gathered in one pass over the turns (each turn and record is read once: in a
long session they lie far apart in memory), in three lists: the turns' texts, the strings of
their calls and results, and their ids and records' fields, each string with its turn. A batch of
each list's strings is joined as latin-1 bytes (one byte a character, any other character a `?`,
which no check looks for), so each check is a call in C over the batch, whose bytes stay in the
processor's cache from one check to the next: linear time, a few passes. A string too short to
hold any secret (`SHORTEST`) is passed over.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Iterator, Sequence
from itertools import accumulate
from operator import itemgetter
from typing import Any

from inspector.detect.secret_search import (
    RUN_BYTES,
    SHORTEST,
    names_a_secret,
    secrets_in_text,
)
from inspector.model import Turn

BATCH = 1 << 16  # characters: the texts looked at together (a batch ends with the turn that fills it)
SHORTEST_RUN = 15  # characters: the shortest run a named pattern is (a Slack token, `xoxb-` and 10)
SHORTEST_TOKEN, LONGEST_TOKEN = 32, 100  # characters: the shortest and longest random-looking tokens
# The starts of the named patterns that are runs (`sk-`, `gh[pousr]_`, ...), searched in long runs.
_RUN_STARTS = re.compile(rb"sk-|gh[pousr]_|github_pat_|xox|AKIA|ASIA|ABIA|ACCA|AIza")
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
_LAST_BYTES = itemgetter(slice(-_KEY_REACH, None))  # of a piece: what is looked at before its separator
_KEY_WORDS_BEFORE = tuple(word + b":" for word in _KEY_LAST_WORDS)
_KEY_WINDOW = 1 << 16  # bytes split at their separators at once
_FIXED = (b"-----BEGIN", b".eyJ", b"earer")  # in a private key, a JSON Web Token, a bearer token
_RUN = b"\x01" * SHORTEST_RUN
# The values most records hold under their role (a word, no secret): not looked at.
_PLAIN_VALUES = frozenset({"assistant", "function", "system", "user", "tool", "model", "developer"})


def turns_to_search(turns: Sequence[Turn]) -> list[int]:
    """The indexes of the turns where the search may find a secret (every one where it does), in order."""
    found = _Found()
    named, named_owners, safe_keys = found.named, found.named_owners, found.safe_keys
    for index, turn in enumerate(turns):  # (one pass, each turn and record read once: most are far apart in memory)
        if turn.tool_calls or turn.tool_results:
            found.add_data(turn, index)
        raw, text = turn.raw, turn.text
        if isinstance(raw, dict):
            for key, value in raw.items():
                if isinstance(value, str) and value != text:
                    if len(value) >= SHORTEST and value not in _PLAIN_VALUES:
                        named.append(value)
                        named_owners.append(index)
                    if key not in safe_keys:
                        found.check_key(key, index)
        elif isinstance(raw, (list, tuple)):
            found.add_fields(raw, text, index)
        if turn.id:
            found.add_named(turn.id, index)
    flagged = found.flagged
    flagged.update(_in_batches([turn.text for turn in turns], None, True))
    flagged.update(_in_batches(found.data, found.data_owners, True))
    flagged.update(_in_batches(found.named, found.named_owners, False))
    return sorted(flagged)


class _Found:
    """What the quick look gathers from a session's turns besides their texts: the strings of their
    calls' arguments and results (searched by every rule), their ids and their records' fields
    (searched for named patterns only), each with the index of its turn; and the turns flagged
    by a key that may name a secret, or hold one."""

    def __init__(self) -> None:
        self.data: list[str] = []
        self.data_owners: list[int] = []
        self.named: list[str] = []
        self.named_owners: list[int] = []
        self.flagged: set[int] = set()
        self.safe_keys: set[str] = set()  # keys found to do neither

    def add_named(self, value: str, index: int) -> None:
        """Add an id or a field of the turn at `index` (one too short to hold a secret is passed over)."""
        if len(value) >= SHORTEST:
            self.named.append(value)
            self.named_owners.append(index)

    def add_fields(self, records: Iterable[Any], text: str, index: int) -> None:
        """Add the text fields of the records the turn at `index` was read from, but its text, and
        check their keys."""
        for record in records:
            if isinstance(record, dict):
                for key, value in record.items():
                    if isinstance(value, str) and value != text:
                        self.add_named(value, index)
                        if key not in self.safe_keys:
                            self.check_key(key, index)

    def add_data(self, turn: Turn, index: int) -> None:
        """Add the strings of the turn's calls' arguments and results (but a result that is the
        turn's text, looked at with the texts), and their ids."""
        stack: list[Any] = [
            call.arguments if call.arguments is not None else call.arguments_raw for call in turn.tool_calls
        ]
        stack += [result.content for result in turn.tool_results if result.content != turn.text]
        data, owners = self.data, self.data_owners
        while stack:
            item = stack.pop()
            if isinstance(item, str):
                if len(item) >= SHORTEST:
                    data.append(item)
                    owners.append(index)
            elif isinstance(item, dict):
                for key, value in item.items():
                    if key not in self.safe_keys:
                        self.check_key(key, index)
                    stack.append(value)
            elif isinstance(item, (list, tuple)):
                stack.extend(item)
        for call in turn.tool_calls:
            if call.id:
                self.add_named(call.id, index)
        for result in turn.tool_results:
            if result.call_id:
                self.add_named(result.call_id, index)

    def check_key(self, key: object, index: int) -> None:
        """Flag the turn at `index` when the search may find a secret in `key` or under it (it is
        named like a secret); else remember the key as safe."""
        if not isinstance(key, str):
            return
        if names_a_secret(key) or next(secrets_in_text(key), None) is not None:
            self.flagged.add(index)
        else:
            self.safe_keys.add(key)


def _in_batches(texts: list[str], owners: list[int] | None, random: bool) -> Iterator[int]:
    """The turns (`owners[i]` of the text at i, or i itself) of the texts where the search may
    find a secret, looked at a batch of `BATCH` characters at a time (a batch ends with the text
    that fills it)."""
    ends = list(accumulate(map(len, texts)))
    start = 0
    while start < len(texts):
        end = bisect_left(ends, (ends[start - 1] if start else 0) + BATCH, start) + 1
        indexes = _may_hold(texts[start:end], random)
        yield from (start + i for i in indexes) if owners is None else (owners[start + i] for i in indexes)
        start = end


def _may_hold(texts: list[str], random: bool) -> set[int]:
    """The indexes of the texts where the search (random-looking tokens only if `random`) may
    find a secret."""
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
    _add_long_runs(joined, runs, random, found)
    return found


def _add_long_runs(joined: _Joined, runs: bytes, random: bool, found: set[int]) -> None:
    """Add to `found` the texts with a run of `SHORTEST_RUN` characters or more that holds a named
    pattern's start (its characters are all a run's, so a start in a run is a whole match in it)
    or, if `random`, may be a token. The runs are found by `find`s in the translated bytes, and
    each is looked at once. Without tokens to look for (ids and records' fields: many runs, few
    starts), the starts are found instead, and the length of the run around each measured."""
    if not random:
        _add_runs_around_starts(joined, runs, found)
        return
    start = runs.find(_RUN)
    while start != -1:
        end = runs.find(b"\x00", start)
        end = len(runs) if end == -1 else end
        if (random and _may_be_token(joined.bytes, start, end)) or _RUN_STARTS.search(joined.bytes, start, end):
            end = joined.add_text_at(start, found)
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
    lowered: `token:`, `API_KEY=`). The bytes are split at each separator, and the last bytes before
    each (`_KEY_REACH`) joined again at `:`, lowered, quotes and spaces taken out: a key word is
    then found before a `:` there by a `find` of each, in bytes a few times fewer than the text's.
    A window of `_KEY_WINDOW` bytes is split at a time (a long text of separators is not split into
    more pieces at once)."""
    for window in range(0, len(data), _KEY_WINDOW):
        start = max(0, window - _KEY_REACH)  # (with the bytes before the window's first separator)
        pieces = data[start : window + _KEY_WINDOW].replace(b"=", b":").split(b":")
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


def _may_be_token(joined: bytes, start: int, end: int) -> bool:
    """Whether the whole run at [start, end) may be a random-looking token: one is a whole run of
    32 to 100 characters mixing lower case, upper case and digits (an environment variable's name,
    a constant, a long lower-case name are not)."""
    if not SHORTEST_TOKEN <= end - start <= LONGEST_TOKEN:
        return False
    run = joined[start:end]
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
