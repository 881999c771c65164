"""What changed between two texts, word by word (`difflib`), as character spans of each side.

The common start and end of the two texts are set aside first, compared by slices (in C: a
fraction of a second for megabytes), then widened to whole words; that is all most repairs need: a
fix strips a prefix or a block and leaves the rest as it was. What remains is cut into words and
single punctuation marks, each with the white space after it (one linear regex), compared by what
they say: a change of white space alone is not shown. `difflib` aligns them only when they are
few (`MAX_TOKENS`): it takes cubic time on repetitive text (a quarter of a second for 800
tokens). A larger middle is shown as replaced whole. So a huge or hostile turn costs linear time,
and the worst small one a few hundredths of a second.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher
from typing import NamedTuple

from inspector.model import Span
from inspector.support.common_ends import common_prefix, common_suffix

MAX_TOKENS = 500  # tokens of both middles together that difflib aligns; more are shown replaced whole
MAX_CHARACTERS = 50 * MAX_TOKENS  # middles longer than this together are not even cut into tokens
_TOKEN = re.compile(r"\w+\s*|[^\w\s]\s*|\s+")
_WORD = re.compile(r"\w*")


class _Token(NamedTuple):
    """A word or punctuation mark (`word`, its white space left out) and where it is, white space included."""

    word: str
    start: int
    end: int


def changed_spans(before: str, after: str) -> tuple[list[Span], list[Span]]:
    """The spans of `before` that are gone from `after`, and the spans of `after` that are new,
    in order and merged where they touch."""
    head = _word_start(before, common_prefix(before, after))
    tail = common_suffix(before[head:], after[head:])
    tail = len(before) - _word_end(before, len(before) - tail)
    old_end, new_end = len(before) - tail, len(after) - tail
    if head in (old_end, new_end) or old_end - head + (new_end - head) > MAX_CHARACTERS:
        return _span(head, old_end), _span(head, new_end)
    old, new = _tokens(before, head, old_end), _tokens(after, head, new_end)
    if len(old) + len(new) > MAX_TOKENS:
        return _span(head, old_end), _span(head, new_end)
    removed: list[Span] = []
    added: list[Span] = []
    matcher = SequenceMatcher(None, [token.word for token in old], [token.word for token in new], autojunk=False)
    for tag, old_start, old_stop, new_start, new_stop in matcher.get_opcodes():
        if tag != "equal":
            _extend(removed, old[old_start:old_stop])
            _extend(added, new[new_start:new_stop])
    return removed, added


def _word_start(text: str, offset: int) -> int:
    """`offset` moved back to the start of the word that ends at it, if any (read backwards, in C)."""
    return offset - _WORD.match(text[:offset][::-1]).end()


def _word_end(text: str, offset: int) -> int:
    """`offset` moved on to the end of the word it falls inside, if any."""
    if not _WORD.fullmatch(text, offset - 1, offset):
        return offset
    return _WORD.match(text, offset).end()


def _tokens(text: str, start: int, end: int) -> list[_Token]:
    """The tokens of `text[start:end]`: each one's word (without its white space), start and end."""
    return [_Token(match.group().rstrip(), match.start(), match.end()) for match in _TOKEN.finditer(text, start, end)]


def _span(start: int, end: int) -> list[Span]:
    return [(start, end)] if start < end else []


def _extend(spans: list[Span], tokens: list[_Token]) -> None:
    """Add the span the tokens cover, merged with the last one when they touch."""
    if not tokens:
        return
    start, end = tokens[0].start, tokens[-1].end
    if spans and spans[-1][1] == start:
        spans[-1] = (spans[-1][0], end)
    else:
        spans.append((start, end))
