"""The lines of a long text, as `str.splitlines` cuts them, a piece at a time: the text formats
(Aider's logs) read them so, and a log of millions of lines is never held twice (the text and a
list of its lines).
"""

from __future__ import annotations

from collections.abc import Iterator

PIECE = 1 << 20  # characters split at once


def text_lines(text: str, keepends: bool = False) -> Iterator[str]:
    """The lines of `text`, the same as `text.splitlines(keepends)` gives. The text is cut after a
    `\\n` (a line's end however the line ends), so each piece ends where a line does."""
    start = 0
    while start < len(text):
        cut = text.find("\n", start + PIECE)
        end = len(text) if cut == -1 else cut + 1
        yield from text[start:end].splitlines(keepends)
        start = end
