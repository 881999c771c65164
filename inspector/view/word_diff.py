"""Where two texts differ, as spans a person can be shown: what the old text loses and what the
new one gains, word by word (a lone `}` or quote is a word of its own).

Two granularities, one algorithm. By default the common start and end of the texts are exact to
the character, and each word is compared with the white space after it: the review app marks the
one brace a repair removes, or the `e` it adds to a name. With `whole_words`, the common ends stop
at word boundaries, so a changed word is marked whole (`send_mail` becoming `send_email`), and
words are compared without the white space after them, so a line broken elsewhere or a space
doubled between two words is no change: what a shared report marks.

The common start and end are set aside first, compared by slices (in C: a fraction of a second
for megabytes). `difflib.SequenceMatcher` (autojunk off) compares the words between them. Its cost
grows with the pairs of equal words it looks through, so past `BUDGET` it compares lines instead
and refines each changed block word by word while the budget lasts; past that too, the whole
differing middle is one change. Any text a model wrote may be hostile: every step is bounded, so a
200 KB turn is compared in well under a second.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

from inspector.model import Span
from inspector.support.common_ends import common_prefix, common_suffix
from inspector.support.lazy_pattern import lazy_pattern

REMOVED = "removed"  # in the old text only
INSERTED = "inserted"  # in the new text only
REPLACED = "replaced"  # old words that became other new words

# The most pairs of equal words (or lines) `diff_text` lets SequenceMatcher look at: what its time
# grows with: at most some 0.1 s on the worst text.
BUDGET = 300_000

# A word with the white space after it, or one other character with its white space, or white space
# alone: trailing white space keeps a common word from matching itself everywhere (which costs).
_WORD = lazy_pattern(r"\w+\s*|[^\w\s]\s*|\s+")
_WORD_CHARACTERS = lazy_pattern(r"\w*")


@dataclass(frozen=True)
class Change:
    """One difference: `before`, the span of the old text it concerns (empty when `kind` is
    inserted), and `after`, the span of the new text (empty when removed)."""

    kind: str
    before: Span
    after: Span


@dataclass(frozen=True)
class TextDiff:
    """The changes from an old text to a new one, in order; `exact` is False when the texts were
    too large to compare word by word everywhere (some changes are whole lines or the whole middle)."""

    changes: tuple[Change, ...] = ()
    exact: bool = True

    def before_spans(self) -> tuple[tuple[int, int, str], ...]:
        """(start, end, kind) of each non-empty span of the old text that is removed or replaced."""
        return tuple((c.before[0], c.before[1], c.kind) for c in self.changes if c.before[1] > c.before[0])

    def after_spans(self) -> tuple[tuple[int, int, str], ...]:
        """(start, end, kind) of each non-empty span of the new text that is inserted or replaced."""
        return tuple((c.after[0], c.after[1], c.kind) for c in self.changes if c.after[1] > c.after[0])


def diff_text(before: str, after: str, whole_words: bool = False, budget: int = BUDGET) -> TextDiff:
    """The changes that turn `before` into `after`, word by word within `budget`; with
    `whole_words`, each changed word marked whole and words compared without the white space after
    them (see the module docstring)."""
    head = common_prefix(before, after)
    if whole_words:
        head = _word_start(before, head)
    tail = common_suffix(before[head:], after[head:])
    if whole_words:
        tail = len(before) - _word_end(before, len(before) - tail)
    old, new = before[head : len(before) - tail], after[head : len(after) - tail]
    if not old and not new:
        return TextDiff()
    meter = _Budget(budget, whole_words)
    changes = _by_words(old, new, head, head, meter)
    if changes is None:
        changes = _by_lines(old, new, head, meter)
    if changes is None:
        meter.exact = False
        changes = [_change(head, len(old), head, len(new))]
    return TextDiff(tuple(changes), meter.exact)


def removal_diff(text: str, spans: Sequence[Span]) -> TextDiff:
    """The diff of cutting `spans` out of `text` (overlapping spans merged), known exactly without
    comparing: each span removed, at the place in the new text where it was."""
    changes: list[Change] = []
    cut = cursor = 0
    for start, end in sorted(spans):
        start, end = max(start, cursor, 0), min(end, len(text))
        if end <= start:
            continue
        if changes and start == changes[-1].before[1]:
            previous = changes.pop()
            start = previous.before[0]
            cut -= previous.before[1] - previous.before[0]
        changes.append(Change(REMOVED, (start, end), (start - cut, start - cut)))
        cut += end - start
        cursor = end
    return TextDiff(tuple(changes))


class _Budget:
    """The pairs of equal pieces left to look at, whether every change so far is word by word, and
    whether words are compared without their white space."""

    def __init__(self, left: int, whole_words: bool) -> None:
        self.left = left
        self.exact = True
        self.whole_words = whole_words

    def take(self, cost: int) -> bool:
        if cost > self.left:
            return False
        self.left -= cost
        return True


def _word_start(text: str, offset: int) -> int:
    """`offset` moved back to the start of the word that ends at it, if any (read backwards, in C)."""
    return offset - _word_run(text[:offset][::-1], 0)


def _word_end(text: str, offset: int) -> int:
    """`offset` moved on to the end of the word it falls inside, if any."""
    if not _WORD_CHARACTERS.fullmatch(text, offset - 1, offset):
        return offset
    return offset + _word_run(text, offset)


def _word_run(text: str, start: int) -> int:
    """How many word characters follow one another in `text` from `start` (none: 0)."""
    run = _WORD_CHARACTERS.match(text, start)
    return run.end() - start if run is not None else 0


def _by_words(old: str, new: str, old_at: int, new_at: int, meter: _Budget) -> list[Change] | None:
    """The changes between `old` and `new` (at `old_at`, `new_at` in the whole texts) word by word,
    or None when that would cost more than the budget left."""
    if not old or not new:
        return [_change(old_at, len(old), new_at, len(new))]
    old_words, new_words = _WORD.findall(old), _WORD.findall(new)
    old_keys, new_keys = (
        ([word.rstrip() for word in old_words], [word.rstrip() for word in new_words])
        if meter.whole_words
        else (old_words, new_words)
    )
    if not meter.take(_equal_pairs(old_keys, new_keys)):
        return None
    old_starts, new_starts = _starts(old_words, old_at), _starts(new_words, new_at)
    matcher = SequenceMatcher(None, old_keys, new_keys, autojunk=False)
    return [
        _change(old_starts[i1], old_starts[i2] - old_starts[i1], new_starts[j1], new_starts[j2] - new_starts[j1])
        for tag, i1, i2, j1, j2 in matcher.get_opcodes()
        if tag != "equal"
    ]


def _by_lines(old: str, new: str, at: int, meter: _Budget) -> list[Change] | None:
    """The changes line by line, each changed block refined word by word while the budget lasts;
    None when even the lines cost more than the budget left."""
    old_lines, new_lines = old.splitlines(keepends=True), new.splitlines(keepends=True)
    if not meter.take(_equal_pairs(old_lines, new_lines)):
        return None
    old_starts, new_starts = _starts(old_lines, at), _starts(new_lines, at)
    changes: list[Change] = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, old_lines, new_lines, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        old_span, new_span = (old_starts[i1], old_starts[i2]), (new_starts[j1], new_starts[j2])
        refined = _by_words(
            old[old_span[0] - at : old_span[1] - at],
            new[new_span[0] - at : new_span[1] - at],
            old_span[0],
            new_span[0],
            meter,
        )
        if refined is None:
            meter.exact = False
            refined = [_change(old_span[0], old_span[1] - old_span[0], new_span[0], new_span[1] - new_span[0])]
        changes += refined
    return changes


def _equal_pairs(old: list[str], new: list[str]) -> int:
    """How many (old, new) pairs of pieces are equal, at least one per piece: what SequenceMatcher's
    search for the longest match walks through."""
    counts = Counter(new)
    return len(old) + len(new) + sum(counts.get(piece, 0) for piece in old)


def _change(old_at: int, old_length: int, new_at: int, new_length: int) -> Change:
    kind = REPLACED if old_length and new_length else REMOVED if old_length else INSERTED
    return Change(kind, (old_at, old_at + old_length), (new_at, new_at + new_length))


def _starts(pieces: list[str], at: int) -> list[int]:
    """The offset of each piece (and of the end) in the whole text, the first piece being at `at`."""
    starts = [at]
    for piece in pieces:
        starts.append(starts[-1] + len(piece))
    return starts
