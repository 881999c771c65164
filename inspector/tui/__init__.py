"""The Textual interface: a picker of sessions (`picker/`), a screen to review each finding
(`review/`), their dialogs (`dialogs/`), and the pieces every screen shares here (the app, themes,
settings, footer, help, command palette, copying, how a history is read).

It only composes the core (`inspector.review.review.Review` for decisions, `inspector.view` for
what a repaired turn looks like); the core never imports it, and the command line imports it only
when the app is asked for.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from inspector.model import Location
    from inspector.sources.discovery import FoundSession
    from inspector.tui.conversations import ReadOptions


def run(
    target: Location | None,
    execute: str | None = None,
    session: str | None = None,
    reading: ReadOptions | None = None,
    found: Sequence[FoundSession] = (),
    notice: str = "",
    follow: bool = False,
) -> int:
    """Open the app on a session file, a directory of them or a PostgreSQL database (its
    `ServerUrl`) (None: on the person's own sessions `found`); return the exit code. `execute` is
    the executor command that approved recovered calls may be run through (never without it);
    `session` the id of the session (a database's conversation) of the file to open straight away;
    `reading` how to read the input (`--format`, `--tools`, `--table`, `--map`, as `inspector scan`
    takes them); `notice` is said when the app opens (and above the list of sessions); `follow`
    shows the turns appended to the session file as another process writes them.

    Raises `InspectorError` (one line), before the app starts, when a directory holds no session
    file, when the file cannot be read as sessions (of the format given), when the table cannot be
    read, or when the server's database cannot be reached or read.
    """
    from inspector.tui.app import InspectorApp
    from inspector.tui.conversations import ReadOptions

    InspectorApp(target, execute, session, reading or ReadOptions(), found, notice, follow).run()
    return 0
