"""The transcripts of the subagents a session file opened straight away ran, which its agent keeps
beside it (`discovery.subagents_beside`): looked for once the session's review is ready (so the
first flagged turn waits for no discovery), and, while the file is followed, again every
`LOOKED_FOR_AGAIN` seconds (a subagent starts mid-session, and its session's file waits for its
answer). Each one found is said once, and listed with the session when the person goes back."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from textual.app import App
from textual.timer import Timer

LOOKED_FOR_AGAIN = 2.0  # seconds: how often a session followed has its subagents looked for


class SubagentsLook:
    """The look for one session file's subagents, run in the app's thread workers."""

    def __init__(self, app: App[None], path: Path, listed: Callable[[tuple[Path, ...]], None]) -> None:
        """`listed(new)` is called (on the app's thread) with the transcripts found that were not yet."""
        self.app = app
        self.path = path
        self.found: tuple[Path, ...] = ()
        self.looking = False  # a look under way (one at a time)
        self._listed = listed
        self._timer: Timer | None = None

    def start(self, follow: bool) -> None:
        """Look once; with `follow`, again every `LOOKED_FOR_AGAIN` seconds until `stop`."""
        self._look()
        if follow:
            self._timer = self.app.set_interval(LOOKED_FOR_AGAIN, self._look)

    def stop(self) -> None:
        """Look no more (the person left the session: the list shows those found until now)."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def _look(self) -> None:
        if not self.looking:
            self.looking = True
            self.app.run_worker(self._in_thread, thread=True, exit_on_error=False, group="subagents")

    def _in_thread(self) -> None:
        from inspector.sources.discovery import subagents_beside  # every agent's places: after the first screen

        found: tuple[Path, ...] = ()
        try:
            found = subagents_beside(self.path)
        finally:
            self.app.call_from_thread(self._seen, found)

    def _seen(self, found: tuple[Path, ...]) -> None:
        self.looking = False
        new = tuple(path for path in found if path not in self.found)
        if new:
            self.found = (*self.found, *new)
            self._listed(new)
