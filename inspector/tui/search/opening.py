"""Opening a hit: its session on the review screen, on the hit's turn. A history's conversation
(an SQLite history, such as `llm`'s) is opened by its id, alone; a session of a file by its
number among the file's sessions."""

from __future__ import annotations

from pathlib import Path

from inspector.search import Hit
from inspector.tui.conversations import ReadOptions, is_history
from inspector.tui.review.screen import ReviewScreen


def review_of(hit: Hit, named: ReadOptions) -> ReviewScreen:
    """The review screen of `hit`'s session, on its turn; `named`: how the list the search was
    opened from reads its files (`--tools`)."""
    path = Path(hit.path)
    if hit.session_id is not None and is_history(path):
        return ReviewScreen(path, conversation=hit.session_id, named=named, turn=hit.turn)
    return ReviewScreen(path, hit.session, named=named, turn=hit.turn)
