"""Text from a session made safe inside Markdown: inline (escaped, on one line) and in fenced
code blocks (a fence longer than any run of backticks inside, so nothing can close it early).

Inline, every ASCII punctuation mark that means something in the middle of a line is
backslash-escaped (CommonMark lets any be), and so is one that would start a list or a heading at
the start of the text, so a model's text cannot open a link, an image, raw HTML, an entity, code,
emphasis, a heading, a list, a mention or a table cell. Both neutralise terminal escapes and invisible characters first
(`safe_text.neutralise`), as every other output does.
"""

from __future__ import annotations

from inspector.support.lazy_pattern import lazy_pattern
from inspector.support.safe_text import neutralise

_SPECIAL = lazy_pattern(r"([\\`*_\[\]<>#|~&@])")
_LINE_START = lazy_pattern(r"^(\d{0,9})([-+=.)])")  # "- x", "+ x", "1. x", "1) x", a setext underline
_BACKTICKS = lazy_pattern(r"`+")
_SPACE = lazy_pattern(r"\s+")


def inline(text: str) -> str:
    """`text` on one line (white space folded), every Markdown special character escaped: shown
    as it is in a paragraph, a list item, a heading or a table cell."""
    escaped = _SPECIAL.sub(r"\\\1", _SPACE.sub(" ", neutralise(text)).strip())
    return _LINE_START.sub(r"\1\\\2", escaped, count=1)


def fenced(text: str, info: str = "text") -> str:
    """`text` as a fenced code block whose fence is longer than any run of backticks in it."""
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    fence = "`" * max(3, longest + 1)
    body = neutralise(text)
    return f"{fence}{info}\n{body}{'' if body.endswith(chr(10)) else chr(10)}{fence}\n"
