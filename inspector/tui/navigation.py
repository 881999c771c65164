"""The review screen's moving keys: turn by turn, flagged turn by flagged turn, finding by
finding, flagged-only view, search of the turn text, back and help. They only move the selection."""

from __future__ import annotations

from bisect import bisect_left
from typing import TYPE_CHECKING

from textual.widgets import Input

from inspector.tui.commands import help_rows
from inspector.tui.decisions import EXECUTE, EXPORT
from inspector.tui.help import HelpScreen
from inspector.tui.turn_list import TurnList

if TYPE_CHECKING:
    from inspector.tui.review_screen import ReviewScreen


class NavigationActions:
    """Mixed into `ReviewScreen`: the keys that move through the session."""

    def action_move(self: ReviewScreen, step: int) -> None:
        """Move the selection up or down."""
        self.query_one(TurnList).action_move(step)

    def action_next(self: ReviewScreen, forward: bool) -> None:
        """Next (or previous) flagged turn; the next search match while a search is active."""
        turns = self.query_one(TurnList)
        if self._search:
            position = self._match(forward)
            if position is None:
                self._tell(f"No turn contains {self._search!r}", severity="warning")
                return
        else:
            position = turns.next_position(self._flagged, forward)
            if position is None:
                self._tell("Nothing flagged in this session")
                return
        self._select(position)

    def action_finding(self: ReviewScreen, step: int) -> None:
        """Show the next (or previous) finding of the selected turn."""
        indices = self._by_turn.get(self.query_one(TurnList).position, [])
        if len(indices) > 1:
            self._finding_number = (self._finding_number + step) % len(indices)
            self._show_detail()

    def action_flagged_only(self: ReviewScreen) -> None:
        """List only flagged turns, or every turn."""
        turns = self.query_one(TurnList)
        turns.set_flagged_only(not turns.flagged_only)
        self._refresh([])

    def action_search(self: ReviewScreen) -> None:
        """Open the search box."""
        self.query_one("#search-row").add_class("-open")
        box = self.query_one("#search", Input)
        box.value = self._search or ""
        self.call_after_refresh(box.focus)

    def on_input_submitted(self: ReviewScreen, event: Input.Submitted) -> None:
        """Search for what was typed in the search box (a mixin's handler goes by its name, not `@on`)."""
        if event.input.id != "search":
            return
        self._search = event.value or None
        self.query_one("#search-row").set_class(bool(self._search), "-open")  # stays in view while it is used
        self.query_one(TurnList).focus()
        if self._search:
            self.action_next(True)

    def _match(self: ReviewScreen, forward: bool) -> int | None:
        """The next turn (wrapping round) whose text contains the search, ignoring case."""
        needle, turns = self._search.casefold(), self.session.turns
        here = bisect_left(turns, self.query_one(TurnList).position or 0, key=lambda turn: turn.position)
        steps = range(1, len(turns) + 1)
        order = ((here + step) % len(turns) for step in steps) if forward else ((here - step) % len(turns) for step in steps)
        return next((turns[i].position for i in order if needle in turns[i].text.casefold()), None)

    def action_back(self: ReviewScreen) -> None:
        """Close the search, clear it, or go back to the picker."""
        row = self.query_one("#search-row")
        if row.has_class("-open"):
            row.remove_class("-open")
            self._search = None
            self.query_one(TurnList).focus()
        elif not self._waiting_for(EXPORT, EXECUTE):  # else the review file is written after the screen closes
            if self.review is not None and self.review.unexported:
                self._tell(f"Decisions kept in {self.review.review_path.name}, not exported yet")
            self.app.back_to_sessions()

    def action_help(self: ReviewScreen) -> None:
        """Show every key."""
        self.app.push_screen(HelpScreen(help_rows(self)))
