"""A hit as the search screen shows it: a line saying where it is (the agent, the project or
the file's name, the session's date, the turn's number and role, the kinds of its findings),
and its snippet, the matched words highlighted. Everything is plain `Text` (never markup), every
piece from a session neutralised: no escape it holds reaches the terminal."""

from __future__ import annotations

import time
from pathlib import PurePath

from rich.text import Text

from inspector.search import Hit
from inspector.search.documents import MATCH_END, MATCH_START
from inspector.support.lazy_pattern import lazy_pattern
from inspector.support.safe_text import neutralise, one_line

MATCHED = "bold reverse"  # the style of a matched word
_SPACES = lazy_pattern(r"\s+")
_MARKS = lazy_pattern(f"([{MATCH_START}{MATCH_END}])")


def hit_text(hit: Hit) -> Text:
    """The two lines of `hit`: where it is, then its snippet."""
    text = where_line(hit)
    text.append("\n  ")
    text.append_text(snippet_text(hit.snippet))
    return text


def where_line(hit: Hit) -> Text:
    """The agent (or the format), the project (or the file's name), the date, the turn and the
    kinds of its findings."""
    place = hit.project or PurePath(hit.path).name
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(hit.date))
    line = Text()
    line.append(one_line(hit.agent or hit.format), style="bold")
    line.append(f" · {one_line(place)} · {when} · ")
    line.append(f"turn {hit.turn} {one_line(hit.role)}", style="bold")
    if hit.kinds:
        line.append("  ")
        line.append(one_line(", ".join(hit.kinds)), style="bold red")
    return line


def snippet_text(snippet: str) -> Text:
    """The snippet on one line, white space folded, the words between the match marks in `MATCHED`."""
    text = Text()
    matched = False
    for piece in _MARKS.split(_SPACES.sub(" ", snippet).strip()):
        if piece == MATCH_START:
            matched = True
        elif piece == MATCH_END:
            matched = False
        elif piece:
            text.append(neutralise(piece), style=MATCHED if matched else "")
    return text
