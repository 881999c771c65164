"""A search of the session shown: which turns hold the text searched for (in their text, their
calls' names and arguments, and their results), the turn after (or before) a place among them,
how many there are, and where the text is in a shown line, to highlight it.

The text is matched ignoring case, as a literal (never a pattern the person must escape): a
search of a turn takes time in proportion to its length, whatever a model wrote in it (a
200,000-turn session takes about a second, so the review screen searches a long one in a
thread). Matches
are highlighted as styles on the plain text shown (never markup), at most `MAX_HIGHLIGHTS` in one
text.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Sequence
from itertools import islice
from typing import Any

from textual.content import Content, Span

from inspector.model import Turn

MATCH = "bold $text on $warning-muted"  # readable on the dark themes and the light ones
MAX_HIGHLIGHTS = 2_000  # in one pane: enough to see, never a stall on a text made of matches


class SessionSearch:
    """The turns of a session that hold `text`, found once when the search starts."""

    def __init__(self, text: str, turns: Sequence[Turn]) -> None:
        self.text = text
        self._pattern = re.compile(re.escape(text), re.IGNORECASE)
        self._folded = text.casefold()
        self.positions = [turn.position for turn in turns if self._holds(turn)]  # sorted, as the turns are

    def _holds(self, turn: Turn) -> bool:
        """Whether the text is in the turn's text, its calls' names or arguments, or its results."""
        return any(self._folded in part.casefold() for part in searched_parts(turn))

    def spans(self, shown: str) -> Iterator[tuple[int, int]]:
        """Where the text is in `shown` (a line or a pane as displayed), to highlight it: the first
        `MAX_HIGHLIGHTS` places."""
        return islice((match.span() for match in self._pattern.finditer(shown)), MAX_HIGHLIGHTS)

    def highlighted(self, content: Content) -> Content:
        """`content` with every place of the text marked (`MATCH`)."""
        return content.add_spans([Span(start, end, MATCH) for start, end in self.spans(content.plain)])

    def after(self, position: int | None, forward: bool) -> int | None:
        """The first matching turn after (or before) `position`, wrapping round; None: no match."""
        if not self.positions:
            return None
        here = -1 if position is None else position
        if forward:
            return self.positions[bisect_right(self.positions, here) % len(self.positions)]
        return self.positions[(bisect_left(self.positions, here) - 1) % len(self.positions)]

    def count(self, position: int | None) -> str:
        """'3/17': the selected turn is the third of 17 matching ones; '17 turns' when it holds no
        match; 'no match'."""
        if not self.positions:
            return "no match"
        index = bisect_left(self.positions, -1 if position is None else position)
        if index < len(self.positions) and self.positions[index] == position:
            return f"{index + 1}/{len(self.positions)}"
        return f"{len(self.positions)} turn{'s' if len(self.positions) != 1 else ''}"


def searched_parts(turn: Turn) -> Iterator[str]:
    """The texts a search looks in: the turn's text, each call's name and arguments as recorded,
    each result's content."""
    yield turn.text or ""
    for call in turn.tool_calls:
        yield call.name
        yield _as_text(call.arguments_raw)
    for result in turn.tool_results:
        yield _as_text(result.content)


def _as_text(value: Any) -> str:
    """A recorded value as text: a string as it is, anything else as JSON."""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, default=str)
