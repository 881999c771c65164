"""The writes the review screen runs in a thread worker (an export, a run of recovered calls, a
decision on every conversation of a history): a decision, another write, or leaving the screen
waits for them, as each saves the review file when it ends."""

from __future__ import annotations

from inspector.tui.notices import Tell

EXPORT, EXECUTE, BULK = "export", "execute", "bulk"
UNDER_WAY = {
    EXPORT: "Exporting: wait for it to finish",
    EXECUTE: "The recovered calls are running: wait for their answers",
    BULK: "Reading every conversation to decide on them: wait for it to finish, or cancel it with Esc",
}


class WritesUnderWay:
    """Which writes are running in their thread."""

    def __init__(self, tell: Tell) -> None:
        """`tell(message, **options)`: notifies the person."""
        self._tell = tell
        self._running: set[str] = set()

    def start(self, task: str) -> None:
        """`task` (EXPORT, EXECUTE, BULK) starts in its thread."""
        self._running.add(task)

    def done(self, task: str) -> None:
        """`task` has ended (its outcome is being shown)."""
        self._running.discard(task)

    def waiting_for(self, *tasks: str) -> bool:
        """Whether one of `tasks` is under way, after saying so."""
        busy = [task for task in tasks if task in self._running]
        if busy:
            self._tell(UNDER_WAY[busy[0]], severity="warning")
        return bool(busy)
