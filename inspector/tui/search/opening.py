"""Opening a hit: its session on the review screen, on the hit's turn. A history's conversation
(an SQLite history, such as `llm`'s, or a PostgreSQL server's) is opened by its id, alone; a
session of a file by its number among the file's sessions. A server's database is opened by the
URL it was given by (the index keeps it without its password): a hit of a server the app was not
opened on is not opened (`review_of` gives None)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from inspector.model import Location, ServerUrl
from inspector.search import Hit
from inspector.search.index_file import is_server_key
from inspector.tui.conversations import ReadOptions, is_history
from inspector.tui.review.screen import ReviewScreen

SERVER_NOT_GIVEN = "Its URL is not kept with its password: open it with inspector URL, then search from its list"


def review_of(hit: Hit, named: ReadOptions, servers: Sequence[ServerUrl] = ()) -> ReviewScreen | None:
    """The review screen of `hit`'s session, on its turn; `named`: how the list the search was
    opened from reads its files (`--tools`); `servers`: the servers' databases it lists. None
    for a hit of a server's database not among them."""
    path: Location | None = Path(hit.path)
    if is_server_key(hit.path):
        path = next((server for server in servers if str(server) == hit.path), None)
    if path is None:
        return None
    if hit.session_id is not None and is_history(path):
        return ReviewScreen(path, conversation=hit.session_id, named=named, turn=hit.turn)
    return ReviewScreen(path, hit.session, named=named, turn=hit.turn)
