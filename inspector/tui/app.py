"""The Textual app: the picker for a directory or a database's conversations, or a session file
(or the conversation `--session ID` names) straight in review. A database's messages are read
from the table `--table T --map ...` names when given, as `inspector scan` reads them."""

from __future__ import annotations

from pathlib import Path

from textual.app import App

from inspector.errors import InspectorError
from inspector.review.review import Review
from inspector.sources import session_files
from inspector.support.safe_text import neutralise
from inspector.tui.conversations import NamedTable, check_named_table
from inspector.tui.dialogs import Confirm
from inspector.tui.picker import PickerScreen
from inspector.tui.review_screen import ReviewScreen


class InspectorApp(App[None]):
    """Review the findings of session files and export the repaired sessions."""

    TITLE = "inspector"

    def __init__(self, target: Path, execute: str | None = None, session: str | None = None,
                 named: NamedTable = NamedTable()) -> None:
        """`execute`: the command recovered calls may be run through (`--execute CMD`); None, nothing runs.
        `session`: the id of the session (a database's conversation) of the file `target` to open.
        `named`: the table (and its columns) of the database `target` to read conversations from.
        Raises `InspectorError` (one line) when `target` is a directory without session files, or
        when `named` cannot be read from it (the line `inspector scan` gives)."""
        super().__init__()
        self.target = target
        self.execute = execute
        self.open_session = session
        self.named = named
        if named.given:
            if not target.is_file():
                raise InspectorError(f"{target}: --table and --map read one database, not a directory")
            check_named_table(target, named)
        self.files = [target] if target.is_file() else session_files(target)
        self.lists_conversations = target.is_file() and named.open(target).streams
        if not self.files:
            raise InspectorError(f"{target}: no session files (*.json, *.jsonl) in this directory")
        # the latest review opened of each file (a database's conversations share one review file),
        # so quitting can ask about unexported decisions
        self.reviews: dict[Path, Review] = {}
        self._asking_to_quit = False

    def on_mount(self) -> None:
        if self.target.is_file() and self.open_session is not None:
            self.push_screen(ReviewScreen(self.target, conversation=self.open_session, named=self.named))
        elif self.target.is_file() and not self.lists_conversations:  # a history lists its conversations
            self.push_screen(ReviewScreen(self.target))
        else:
            self.push_screen(self._picker())

    def action_quit(self) -> None:
        """Quit (q, ctrl+q), first asking when a review has decisions not exported; asked again, quits."""
        names = [review.path.name for review in self.reviews.values() if review.unexported]
        if not names or self._asking_to_quit:
            self.exit()
            return

        def answered(yes: bool | None) -> None:
            self._asking_to_quit = False
            if yes:
                self.exit()

        self._asking_to_quit = True
        self.push_screen(Confirm(f"Decisions on {neutralise(', '.join(names))} are not exported yet (they are kept "
                                 "in the review file). Quit anyway?", yes="Quit", no="Stay"), answered)

    def back_to_sessions(self) -> None:
        """Leave the review screen for the list of sessions (of its file, when it was opened directly)."""
        if isinstance(self.screen_stack[-2], PickerScreen):
            self.pop_screen()
        else:
            self.switch_screen(self._picker())

    def _picker(self) -> PickerScreen:
        where = self.target.name if self.target.is_file() else str(self.target)
        kind = "Conversations" if self.lists_conversations else "Sessions"
        table = f" (table {self.named.table})" if self.named.table else ""
        return PickerScreen(self.files, f"{kind} in {where}{table} · Enter opens one", self.named)
