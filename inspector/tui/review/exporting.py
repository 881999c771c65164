"""The review screen's export key (x): ask where to write the repaired session, saying what the
export will do, then write it with its audit record in a thread worker; a failed export opens the
dialog again as the person left it, saying why.

A file's review is exported to a new file or over the input (`ExportDialog`); a server's database,
which cannot be copied, in place or to a new OpenAI file (`ServerExportDialog`). The writing is
`inspector.review.review.Review.export`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from textual.app import App

from inspector.errors import InspectorError
from inspector.model import ServerUrl
from inspector.repair.write import WriteOutcome
from inspector.review.counts import ExportPlan
from inspector.review.review import Review
from inspector.review.review_file import SessionKey
from inspector.sources.formats.openai import NAME as OPENAI  # an export may be written as OpenAI JSON
from inspector.support.safe_text import shown_name
from inspector.tui.conversations import describe_missing, include_decided
from inspector.tui.dialogs.export import ExportDialog
from inspector.tui.dialogs.export_frame import ExportChoice
from inspector.tui.dialogs.server_export import ServerExportDialog
from inspector.tui.notices import Tell
from inspector.tui.review.drawing import ReviewDrawing
from inspector.tui.review.resume_hint import resume_hint
from inspector.tui.review.shown_session import ShownSession
from inspector.tui.review.writes import BULK, EXECUTE, EXPORT, WritesUnderWay


class Exporter:
    """The export of the review of the session shown."""

    def __init__(
        self,
        shown: ShownSession,
        drawing: ReviewDrawing,
        writes: WritesUnderWay,
        app: App[object],
        tell: Tell,
        tell_unsaved: Callable[[Review], object],
        in_thread: Callable[[Review, ExportChoice], object],
    ) -> None:
        """`tell(message, **options)` notifies the person, `tell_unsaved(review)` says what the
        review's last save could not do or took in; `in_thread(review, choice)` starts the screen's
        export worker, which calls `write_export`."""
        self.shown = shown
        self.drawing = drawing
        self.writes = writes
        self.app = app
        self._tell = tell
        self._tell_unsaved = tell_unsaved
        self._in_thread = in_thread

    def export(self) -> None:
        """Ask where to write the repaired session, saying what the export will do, then write it
        with its audit record."""
        review = self.shown.review
        if review is None:
            self._tell("Still scanning the session: export once it is done", severity="warning")
            return
        if self.writes.waiting_for(EXPORT, EXECUTE, BULK):
            return
        self._ask_export(review, None, "")

    def _ask_export(self, review: Review, earlier: ExportChoice | None, problem: str) -> None:
        """Open the export dialog of `review` (holding the `earlier` choice and why it failed, if it did)."""

        def chosen(choice: ExportChoice | None) -> None:
            if choice is not None and not self.writes.waiting_for(EXPORT, EXECUTE, BULK):
                self.writes.start(EXPORT)
                self._in_thread(review, choice)

        self.app.push_screen(self._export_dialog(review, earlier, problem), chosen)

    def _export_dialog(
        self, review: Review, earlier: ExportChoice | None, problem: str
    ) -> ExportDialog | ServerExportDialog:
        """Where `review` may be exported: a new file or over the input (saying what the export
        will do, holding the `earlier` choice and why it failed); a server's database, which cannot
        be copied, in place or to a new OpenAI file."""
        if isinstance(review.path, ServerUrl):
            if problem:  # this dialog holds no message: the notice says why the export failed
                self._tell(problem.partition(": ")[2], title="Export failed", severity="error", timeout=15)
            return ServerExportDialog(review.path, review.default_export_path(OPENAI))
        return ExportDialog(
            review.default_export_path(),
            review.path,
            review.default_export_path(OPENAI),
            describe_plan(review.export_plan(), review.source.streams),
            earlier,
            problem,
        )

    def write_export(self, review: Review, choice: ExportChoice) -> None:
        """Write the export of `review` (in the export worker's thread); the outcome is reported
        back on the app's thread."""
        try:
            missing = include_decided(review)  # of a database: its other conversations' too
            outcome = review.export(
                choice.path if isinstance(choice.path, Path) else None,  # (a server's URL: in place)
                overwrite_input=choice.overwrite_input,
                replace_existing=choice.replace_existing,
                to=choice.to,
            )
        except InspectorError as error:  # ReviewError, or a write that failed
            self.app.call_from_thread(self._export_failed, review, choice, str(error))
            return
        self.app.call_from_thread(self._exported, review, outcome, missing)

    def _export_failed(self, review: Review, choice: ExportChoice, error: str) -> None:
        """Open the dialog again as the person left it, saying why the export failed."""
        self.writes.done(EXPORT)
        if self.shown.review is not None:  # else the screen closed meanwhile
            self._ask_export(review, choice, f"Export failed: {error}")

    def _exported(self, review: Review, outcome: WriteOutcome, missing: list[SessionKey]) -> None:
        self.writes.done(EXPORT)
        out = outcome.out.resolve() if isinstance(outcome.out, Path) else outcome.out
        lines = [
            f"Wrote {shown_name(out)}",
            f"{outcome.applied} fix{'es' if outcome.applied != 1 else ''} applied",
            f"audit: {outcome.audit_shown}",
        ]
        if outcome.backup is not None:
            lines.append(f"backup of the input: {shown_name(outcome.backup)}")
        if isinstance(outcome.out, ServerUrl) or outcome.backup is not None:
            lines.append(f"`inspector undo {shown_name(outcome.out)}` reverts it")
        if outcome.left_out:
            lines.append(outcome.left_out)
        if outcome.baseline is not None:
            lines.append(f"the findings you skipped: {shown_name(outcome.baseline)} (`inspector scan` leaves them out)")
        session = self.shown.session
        hint = resume_hint(review.path, out, session.session_id if session is not None else None)
        if hint is not None:
            lines.append(hint)
        self._tell("\n".join(lines), title="Exported", timeout=20 if hint else 10)
        self._tell_unsaved(review)
        if missing:
            self._tell(
                describe_missing(review, missing, "Approved fixes"),
                title="Not exported",
                severity="warning",
                timeout=20,
            )
        self.drawing.refresh([])


def describe_plan(plan: ExportPlan, history: bool) -> str:
    """What an export will do, in a line: '5 approved fixes applied (1 edited), 4 pending left as
    they are, 2 skipped.'; of a `history`, that of this conversation, and the approved fixes of
    its other conversations."""
    line = (
        f"{_fixes(plan.approved)} applied{f' ({plan.edited} edited)' if plan.edited else ''}, "
        f"{plan.pending} pending left as they are, {plan.skipped} skipped"
    )
    if not history:
        return line + "."
    opened = "This conversation" if plan.sessions == 1 else f"The {plan.sessions} conversations opened"
    others = f"{plan.elsewhere_sessions} other conversation{'s' if plan.elsewhere_sessions != 1 else ''}"
    return f"{opened}: {line}" + (f"; {_fixes(plan.elsewhere)} of {others}." if plan.elsewhere else ".")


def _fixes(count: int) -> str:
    return f"{count} approved fix{'es' if count != 1 else ''}"
