"""The review screen's copying (Y, then a choice of the copy menu): the selected turn's text, the
finding shown, the session file's path (a server's database: its URL, without its password), or
the recovered arguments (what y copies).

Text the model wrote is copied with its control characters written as escapes
(`inspector.support.safe_text.neutralise`), so pasting it into a terminal cannot send them.
"""

from __future__ import annotations

from collections.abc import Callable

from textual.app import App

from inspector.model import Finding, Location, ServerUrl
from inspector.support.safe_text import neutralise
from inspector.tui.copying import copy_to_clipboard
from inspector.tui.dialogs.copy_menu import ARGUMENTS, FINDING, PATH, TEXT, CopyMenu
from inspector.tui.notices import Tell
from inspector.tui.review.shown_session import ShownSession


def finding_text(finding: Finding) -> str:
    """A finding as a line to paste in a report: "turn 6 · result-prefix (error): message"."""
    return neutralise(f"turn {finding.turn} · {finding.kind} ({finding.severity}): {finding.message}")


class Copier:
    """Copies what the person chooses in the copy menu, of the session shown at `path`."""

    def __init__(
        self,
        path: Location,
        shown: ShownSession,
        position: Callable[[], int | None],
        copy_arguments: Callable[[], object],
        app: App[object],
        tell: Tell,
    ) -> None:
        """`position()`: the selected turn's position; `copy_arguments()` copies the recovered
        arguments (the y key); `tell(message, **options)` notifies the person."""
        self.path = path
        self.shown = shown
        self._position = position
        self._copy_arguments = copy_arguments
        self.app = app
        self._tell = tell

    def menu(self) -> None:
        """Ask what to copy, then copy it."""
        self.app.push_screen(CopyMenu(), lambda what: self.copy(what) if what else None)

    def copy(self, what: str) -> None:
        """Copy `what` (one of `CHOICES`), or say why it cannot be."""
        if what == ARGUMENTS:
            self._copy_arguments()
        elif what == PATH:
            copy_to_clipboard(self.app, *_place(self.path), self._tell)
        elif what == TEXT:
            self._copy_text()
        elif what == FINDING:
            self._copy_finding()

    def _copy_text(self) -> None:
        position = self._position()
        turn = self.shown.session.turn_at(position) if self.shown.session and position is not None else None
        if turn is None or not turn.text:
            self._tell("This turn has no text to copy", severity="warning")
            return
        shown = neutralise(turn.text)
        escaped = ", control characters written as escapes" if shown != turn.text else ""
        copy_to_clipboard(self.app, shown, f"the text of turn {turn.position}{escaped}", self._tell)

    def _copy_finding(self) -> None:
        index = self.shown.current(self._position())
        if index is None:
            self._tell("Select a flagged turn first (n jumps to the next one)", severity="warning")
            return
        finding = self.shown.findings()[index]
        copy_to_clipboard(
            self.app, finding_text(finding), f"the {finding.kind} finding of turn {finding.turn}", self._tell
        )


def _place(path: Location) -> tuple[str, str]:
    """What the copy menu's path choice copies, and what it is: the file's absolute path, or a
    server's database's URL without its password."""
    if isinstance(path, ServerUrl):
        return neutralise(str(path)), "the database's URL"
    return neutralise(str(path.resolve())), "the session file's path"
