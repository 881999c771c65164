"""The review screen's decision keys: approve, skip, edit, undo, approve a kind, copy, export.

Each one asks `inspector.review.review.Review` to do the work (it saves the review file at once) and
then redraws; nothing here decides what a fix is.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Callable

from textual import work

from inspector.review.edits import Edit, proposal
from inspector.errors import InspectorError
from inspector.review.preview import preview
from inspector.review.decisions import ReviewError
from inspector.repair.write import WriteOutcome
from inspector.review.review_file import SessionKey
from inspector.support.safe_text import neutralise
from inspector.tui.conversations import describe_missing, include_decided
from inspector.tui.dialogs import Confirm, ExportChoice, ExportDialog
from inspector.tui.editor import FixEditor

if TYPE_CHECKING:
    from inspector.tui.review_screen import ReviewScreen

EXPORT, EXECUTE = "export", "execute"  # the writes done in a thread, which other actions wait for
NOTHING_TO_UNDO = ("Nothing to undo since the review was opened: to change a decision saved before, select its "
                   "finding and decide again (a, s, e)")
UNDER_WAY = {EXPORT: "Exporting: wait for it to finish",
             EXECUTE: "The recovered calls are running: wait for their answers"}


class DecisionActions:
    """Mixed into `ReviewScreen`: the actions that change or export the person's decisions."""

    def _tell(self: ReviewScreen, message: str, **options) -> None:
        """A notification whose text is shown as it is (it may hold paths and model text)."""
        self.notify(neutralise(message), markup=False, **options)

    def _waiting_for(self: ReviewScreen, *tasks: str) -> bool:
        """Whether one of `tasks` (EXPORT, EXECUTE) is under way in its thread, after saying so. A
        decision, or leaving the screen, waits for them: the thread saves the review file when done."""
        busy = [task for task in tasks if task in self._under_way]
        if busy:
            self._tell(UNDER_WAY[busy[0]], severity="warning")
        return bool(busy)

    def _shown(self: ReviewScreen) -> int | None:
        """The index of the finding shown, or None after saying that a flagged turn must be selected
        (or that an export must end first)."""
        if self._waiting_for(EXPORT):
            return None
        if self.review is None:
            self._tell("Still scanning the session: decisions can be made once it is done", severity="warning")
            return None
        index = self._current()
        if index is None:
            self._tell("Select a flagged turn first (n jumps to the next one)", severity="warning")
        return index

    def _decide(self: ReviewScreen, decide: Callable[[int, int], object]) -> None:
        """Apply `decide(session, finding)` to the finding shown, then show the next finding."""
        index = self._shown()
        if index is None:
            return
        try:
            decide(self.session_index, index)
        except ReviewError as error:
            self._tell(str(error), severity="error")
            return
        findings = self.review.findings(self.session_index)
        if index + 1 == len(findings):
            self._refresh([findings[index].turn])
            return
        self._redraw_marks([findings[index].turn])  # selecting the following finding shows its detail
        following = findings[index + 1].turn
        self._select(following, self._by_turn[following].index(index + 1))

    def action_approve(self: ReviewScreen) -> None:
        """Approve the proposed (or edited) fix of the finding shown."""
        self._decide(lambda session, index: self.review.approve(session, index))

    def action_skip(self: ReviewScreen) -> None:
        """Leave the finding shown as it is."""
        self._decide(lambda session, index: self.review.skip(session, index))

    def action_edit(self: ReviewScreen) -> None:
        """Open the fix of the finding shown in the editor; an edit is recorded with the proposal."""
        index = self._shown()
        if index is None:
            return
        s = self.session_index
        finding = self.review.findings(s)[index]
        start = proposal(finding, self.session.turn_at(finding.turn), self.review.decided_fix(s, index))
        tools = tuple(self.review.tool(s, call.name) for call in start.calls)

        def edited(edit: Edit | None) -> None:
            if edit is not None:
                self._decide(lambda session, i: self.review.edit(session, i, edit))

        title = f"Edit the fix · turn {finding.turn} · {finding.kind}"
        self.app.push_screen(FixEditor(start, tools, title, lambda name: self.review.tool(s, name)), edited)

    def action_undo(self: ReviewScreen) -> None:
        """Undo the last decision (any number of times) and show the finding it was about, so the
        next key decides on it again."""
        if self.review is None or self._waiting_for(EXPORT):
            return
        target = self.review.undo_target()
        undone = self.review.undo()
        if undone is None:
            self._tell(NOTHING_TO_UNDO, severity="warning")
            return
        self._tell(undone[:1].upper() + undone[1:])
        self._redraw_marks()
        session, index = target
        turn = self.review.findings(session)[index].turn
        self._select(turn, self._by_turn[turn].index(index))

    def action_approve_all(self: ReviewScreen) -> None:
        """Approve every pending finding of the shown finding's kind, after asking."""
        index = self._shown()
        if index is None:
            return
        s, kind = self.session_index, self.review.findings(self.session_index)[index].kind
        count = len(self.review.approvable(s, kind))
        if not count:
            self._tell(f"No pending {kind} finding has a fix to approve", severity="warning")
            return

        def confirmed(yes: bool | None) -> None:
            if yes:
                approved = self.review.approve_all(s, kind)
                self._tell(f"Approved {approved} {kind} finding{'s' if approved != 1 else ''} (u undoes them all)")
                self._refresh()

        findings = f"all {count} pending {kind} findings" if count != 1 else f"the 1 pending {kind} finding"
        self.app.push_screen(Confirm(f"Approve {findings} of this session?",
                                     yes=f"Approve {count}", no="Cancel"), confirmed)

    def action_copy(self: ReviewScreen) -> None:
        """Copy the arguments of the calls the shown fix recovers or corrects."""
        index = self._shown()
        if index is None:
            return
        s = self.session_index
        finding = self.review.findings(s)[index]
        shown = preview(finding, self.session.turn_at(finding.turn), self.review.decided_fix(s, index))
        calls = [call for call in shown.calls if call.arguments is not None]
        if not calls:
            self._tell("This fix recovers no call arguments to copy", severity="warning")
            return
        value = calls[0].arguments if len(calls) == 1 else [call.arguments for call in calls]
        self.app.copy_to_clipboard(json.dumps(value, indent=2, ensure_ascii=False))
        self._tell(f"Copied the arguments of {', '.join(call.name for call in calls)}")

    def action_export(self: ReviewScreen) -> None:
        """Ask where to write the repaired session, then write it with its audit record."""
        if self.review is None:
            self._tell("Still scanning the session: export once it is done", severity="warning")
            return
        if self._waiting_for(EXPORT, EXECUTE):
            return

        def chosen(choice: ExportChoice | None) -> None:
            if choice is not None and not self._waiting_for(EXPORT, EXECUTE):
                self._under_way.add(EXPORT)
                self._export(choice)

        self.app.push_screen(ExportDialog(self.review.default_export_path(), self.review.path), chosen)

    @work(thread=True, exclusive=True, group="export")
    def _export(self: ReviewScreen, choice: ExportChoice) -> None:
        """Write the export in a thread; the outcome is reported back on the app's thread."""
        try:
            missing = include_decided(self.review)  # of a database: its other conversations' too
            outcome = self.review.export(choice.path, overwrite_input=choice.overwrite_input)
        except InspectorError as error:  # ReviewError, or a write that failed
            self.app.call_from_thread(self._export_failed, str(error))
            return
        self.app.call_from_thread(self._exported, outcome, missing)

    def _export_failed(self: ReviewScreen, error: str) -> None:
        self._under_way.discard(EXPORT)
        self._tell(error, title="Export failed", severity="error", timeout=10)

    def _exported(self: ReviewScreen, outcome: WriteOutcome, missing: list[SessionKey]) -> None:
        self._under_way.discard(EXPORT)
        lines = [f"Wrote {outcome.out}", f"{outcome.applied} fix{'es' if outcome.applied != 1 else ''} applied",
                 f"audit: {outcome.audit_shown}"]
        if outcome.backup is not None:
            lines.append(f"backup of the input: {outcome.backup}")
        self._tell("\n".join(lines), title="Exported", timeout=10)
        if missing:
            self._tell(describe_missing(self.review.path, missing, "Approved fixes"), title="Not exported",
                       severity="warning", timeout=20)
        self._refresh([])
