"""The review screen's decision keys: approve, skip, edit, undo, approve a kind, copy, export.

Each one asks `inspector.review.review.Review` to do the work (it saves the review file at once) and
then redraws; nothing here decides what a fix is.
"""

from __future__ import annotations

import json
from typing import Callable

from textual.app import App

from inspector.errors import InspectorError
from inspector.repair.write import WriteOutcome
from inspector.review.edits import Edit, proposal
from inspector.review.preview import preview
from inspector.review.review_file import SessionKey
from inspector.review.state import ReviewError
from inspector.sources import ServerUrl
from inspector.tui.conversations import describe_missing, include_decided
from inspector.tui.copying import copy_to_clipboard
from inspector.tui.dialogs import OPENAI, Confirm, ExportChoice, ExportDialog
from inspector.tui.drawing import ReviewDrawing
from inspector.tui.editor import FixEditor
from inspector.tui.server_export import ServerExportDialog
from inspector.tui.shown_session import ShownSession
from inspector.tui.writes import EXECUTE, EXPORT, WritesUnderWay

NOTHING_TO_UNDO = ("Nothing to undo since the review was opened: to change a decision saved before, select its "
                   "finding and decide again (a, s, e)")


class Decider:
    """The actions that change or export the person's decisions on the session shown."""

    def __init__(self, shown: ShownSession, drawing: ReviewDrawing, writes: WritesUnderWay, app: App,
                 tell: Callable[..., object], export_in_thread: Callable[[ExportChoice], object]) -> None:
        """`tell(message, **options)` notifies the person; `export_in_thread(choice)` starts the
        screen's export worker, which calls `write_export`."""
        self.shown = shown
        self.drawing = drawing
        self.writes = writes
        self.app = app
        self._tell = tell
        self._export_in_thread = export_in_thread

    def finding_to_decide(self) -> int | None:
        """The index of the finding shown, or None after saying that a flagged turn must be selected
        (or that an export must end first)."""
        if self.writes.waiting_for(EXPORT):
            return None
        if self.shown.review is None:
            self._tell("Still scanning the session: decisions can be made once it is done", severity="warning")
            return None
        index = self.drawing.current()
        if index is None:
            self._tell("Select a flagged turn first (n jumps to the next one)", severity="warning")
        return index

    def _decide(self, decide: Callable[[int, int], object]) -> None:
        """Apply `decide(session, finding)` to the finding shown, then show the next finding."""
        index = self.finding_to_decide()
        if index is None:
            return
        try:
            decide(self.shown.session_index, index)
        except ReviewError as error:
            self._tell(str(error), severity="error")
            return
        self._tell_unsaved()
        findings = self.shown.findings()
        if index + 1 == len(findings):
            self.drawing.refresh([findings[index].turn])
            return
        self.drawing.redraw_marks([findings[index].turn])  # selecting the following finding shows its detail
        self.drawing.select(*self.shown.place_of(index + 1))

    def _tell_unsaved(self) -> None:
        """Say once that decisions cannot be saved, and why; say once what the save took in from
        another inspector on the same review (and show those decisions)."""
        notice = self.shown.review.unsaved_notice()
        if notice is not None:
            self._tell(notice, severity="warning", timeout=20)
        merged = self.shown.review.merge_notice()
        if merged is not None:
            self._tell(merged, severity="warning", timeout=20)
            self.drawing.redraw_marks()

    def approve(self) -> None:
        """Approve the proposed (or edited) fix of the finding shown."""
        self._decide(lambda session, index: self.shown.review.approve(session, index))

    def skip(self) -> None:
        """Leave the finding shown as it is."""
        self._decide(lambda session, index: self.shown.review.skip(session, index))

    def edit(self) -> None:
        """Open the fix of the finding shown in the editor; an edit is recorded with the proposal."""
        index = self.finding_to_decide()
        if index is None:
            return
        review, s = self.shown.review, self.shown.session_index
        finding = review.findings(s)[index]
        start = proposal(finding, self.shown.session.turn_at(finding.turn), review.decided_fix(s, index))
        tools = tuple(review.tool(s, call.name) for call in start.calls)

        def edited(edit: Edit | None) -> None:
            if edit is not None:
                self._decide(lambda session, i: review.edit(session, i, edit))

        title = f"Edit the fix · turn {finding.turn} · {finding.kind}"
        self.app.push_screen(FixEditor(start, tools, title, lambda name: review.tool(s, name)), edited)

    def undo(self) -> None:
        """Undo the last decision (any number of times) and show the finding it was about, so the
        next key decides on it again."""
        review = self.shown.review
        if review is None or self.writes.waiting_for(EXPORT):
            return
        target = review.undo_target()
        undone = review.undo()
        if undone is None:
            self._tell(NOTHING_TO_UNDO, severity="warning")
            return
        self._tell(undone[:1].upper() + undone[1:])
        self._tell_unsaved()
        self.drawing.redraw_marks()
        session, index = target
        turn = review.findings(session)[index].turn
        self.drawing.select(turn, self.shown.by_turn[turn].index(index))

    def approve_all(self) -> None:
        """Approve every pending finding of the shown finding's kind, after asking."""
        index = self.finding_to_decide()
        if index is None:
            return
        review, s = self.shown.review, self.shown.session_index
        kind = review.findings(s)[index].kind
        count = len(review.approvable(s, kind))
        if not count:
            self._tell(f"No pending {kind} finding has a fix to approve", severity="warning")
            return

        def confirmed(yes: bool | None) -> None:
            if yes:
                approved = review.approve_all(s, kind)
                self._tell(f"Approved {approved} {kind} finding{'s' if approved != 1 else ''} (u undoes them all)")
                self._tell_unsaved()
                self.drawing.refresh()

        findings = f"all {count} pending {kind} findings" if count != 1 else f"the 1 pending {kind} finding"
        self.app.push_screen(Confirm(f"Approve {findings} of this session?",
                                     yes=f"Approve {count}", no="Cancel"), confirmed)

    def copy(self) -> None:
        """Copy the arguments of the calls the shown fix recovers or corrects."""
        index = self.finding_to_decide()
        if index is None:
            return
        review, s = self.shown.review, self.shown.session_index
        finding = review.findings(s)[index]
        shown = preview(finding, self.shown.session.turn_at(finding.turn), review.decided_fix(s, index))
        calls = [call for call in shown.calls if call.arguments is not None]
        if not calls:
            self._tell("This fix recovers no call arguments to copy", severity="warning")
            return
        value = calls[0].arguments if len(calls) == 1 else [call.arguments for call in calls]
        copy_to_clipboard(self.app, json.dumps(value, indent=2, ensure_ascii=False),
                          f"the arguments of {', '.join(call.name for call in calls)}", self._tell)

    def export(self) -> None:
        """Ask where to write the repaired session, then write it with its audit record."""
        review = self.shown.review
        if review is None:
            self._tell("Still scanning the session: export once it is done", severity="warning")
            return
        if self.writes.waiting_for(EXPORT, EXECUTE):
            return

        def chosen(choice: ExportChoice | None) -> None:
            if choice is not None and not self.writes.waiting_for(EXPORT, EXECUTE):
                self.writes.start(EXPORT)
                self._export_in_thread(choice)

        self.app.push_screen(self._export_dialog(), chosen)

    def _export_dialog(self) -> ExportDialog | ServerExportDialog:
        """Where the review may be exported: a new file or over the input; a server's database,
        which cannot be copied, in place or to a new OpenAI file."""
        review = self.shown.review
        if isinstance(review.path, ServerUrl):
            return ServerExportDialog(review.path, review.default_export_path(OPENAI))
        return ExportDialog(review.default_export_path(), review.path, review.default_export_path(OPENAI))

    def write_export(self, choice: ExportChoice) -> None:
        """Write the export (in the export worker's thread); the outcome is reported back on the
        app's thread."""
        review = self.shown.review
        try:
            missing = include_decided(review)  # of a database: its other conversations' too
            outcome = review.export(choice.path, overwrite_input=choice.overwrite_input,
                                    replace_existing=choice.replace_existing, to=choice.to)
        except InspectorError as error:  # ReviewError, or a write that failed
            self.app.call_from_thread(self._export_failed, str(error))
            return
        self.app.call_from_thread(self._exported, outcome, missing)

    def _export_failed(self, error: str) -> None:
        self.writes.done(EXPORT)
        self._tell(error, title="Export failed", severity="error", timeout=10)

    def _exported(self, outcome: WriteOutcome, missing: list[SessionKey]) -> None:
        self.writes.done(EXPORT)
        lines = [f"Wrote {outcome.out}", f"{outcome.applied} fix{'es' if outcome.applied != 1 else ''} applied",
                 f"audit: {outcome.audit_shown}"]
        if outcome.backup is not None:
            lines.append(f"backup of the input: {outcome.backup}")
        if isinstance(outcome.out, ServerUrl):  # in place: the audit is the backup
            lines.append(f"`inspector undo {outcome.out}` reverts it")
        if outcome.left_out:
            lines.append(outcome.left_out)
        self._tell("\n".join(lines), title="Exported", timeout=10)
        self._tell_unsaved()
        if missing:
            self._tell(describe_missing(self.shown.review.path, missing, "Approved fixes"), title="Not exported",
                       severity="warning", timeout=20)
        self.drawing.refresh([])
