"""The lines of a long text, as `str.splitlines` cuts them, a piece at a time: the text formats
(Aider's logs) read them so, and a log of millions of lines is never held twice (the text and a
list of its lines). A text whose lines all end in a line feed alone (`has_plain_lines`) may be read
faster, by searches for `\\n`.
"""

from __future__ import annotations

from collections.abc import Iterator

PIECE = 1 << 20  # characters split at once
OTHER_BREAKS = "\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"  # what `str.splitlines` cuts at besides `\n`


def text_lines(text: str, keepends: bool = False) -> Iterator[str]:
    """The lines of `text`, the same as `text.splitlines(keepends)` gives. The text is cut after a
    `\\n` (a line's end however the line ends), so each piece ends where a line does."""
    start = 0
    while start < len(text):
        cut = text.find("\n", start + PIECE)
        end = len(text) if cut == -1 else cut + 1
        yield from text[start:end].splitlines(keepends)
        start = end


def has_plain_lines(text: str) -> bool:
    """Whether every line of `text` ends in a line feed alone (or the text's end)."""
    return not any(line_break in text for line_break in OTHER_BREAKS)
