"""Where a text's content starts, past leading white space, without copying the text (`lstrip`
would) or running a regular expression on the many texts that start with no white space."""

from __future__ import annotations

import re

_SPACE = re.compile(r"\s*")


def content_start(text: str, position: int = 0) -> int:
    """The index of the first character of `text` from `position` on that is not white space
    (`len(text)` when there is none): one character looked at when it is not white space."""
    if not text[position : position + 1].isspace():
        return position
    return _SPACE.match(text, position).end()
