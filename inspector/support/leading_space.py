"""Where a text's content starts, past leading white space, without copying the text (`lstrip`
would) or running a regular expression on the many texts that start with no white space; and the
patterns, such as `SPACE`, that match at any position."""

from __future__ import annotations

import re
import sys
from typing import Protocol, cast


class AlwaysMatching(Protocol):
    """A compiled pattern of optional parts only (`\\s*`): it matches the empty string, so its
    `match` finds a match at any position (`re.Pattern.match` is typed to return None as well)."""

    def match(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str]:
        """The match at `pos` (up to `endpos`), never None."""
        ...


def always_matching(pattern: str) -> AlwaysMatching:
    """`pattern` compiled, typed as matching at any position. It must be made of optional parts
    only (no anchor, no lookaround), and so match the empty string."""
    compiled = re.compile(pattern)
    if compiled.match("") is None:
        raise ValueError(f"{pattern!r} does not match the empty string")
    return cast(AlwaysMatching, compiled)


SPACE = always_matching(r"\s*")


def content_start(text: str, position: int = 0) -> int:
    """The index of the first character of `text` from `position` on that is not white space
    (`len(text)` when there is none): one character looked at when it is not white space."""
    if not text[position : position + 1].isspace():
        return position
    return SPACE.match(text, position).end()
