"""The review screen's decision keys: approve, skip, edit, undo, approve or skip (acknowledge) a
kind in this session or in every one (a history's conversations read in a thread, showing how far
it got; Escape cancels it, deciding the conversations read by then), and copying the arguments
of the calls a fix recovers or corrects. Exporting is `exporting`'s.

Each one asks `inspector.review.review.Review` to do the work (it saves the review file at once) and
then redraws; nothing here decides what a fix is.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from contextlib import closing

from textual.app import App

from inspector.errors import InspectorError
from inspector.model import WARNING
from inspector.review.edits import Edit, proposal
from inspector.review.finding_names import DecisionKey
from inspector.review.review import Review
from inspector.review.review_error import ReviewError
from inspector.review.review_file import APPROVED, SKIPPED
from inspector.scan.scanner import iter_scan
from inspector.support.safe_text import neutralise, shown_name
from inspector.tui.copying import copy_to_clipboard
from inspector.tui.dialogs.choose import Choose
from inspector.tui.dialogs.confirm import Confirm
from inspector.tui.notices import Tell
from inspector.tui.review.bulk_progress import BulkProgress, EveryConversation
from inspector.tui.review.drawing import ReviewDrawing
from inspector.tui.review.shown_session import Reviewed, ShownSession
from inspector.tui.review.writes import BULK, EXPORT, WritesUnderWay
from inspector.view.repaired_turn import fix_preview

NOTHING_TO_UNDO = (
    "Nothing to undo since the review was opened: to change a decision saved before, select its "
    "finding and decide again (a, s, e)"
)


class Decider:
    """The actions that change or export the person's decisions on the session shown."""

    def __init__(
        self,
        shown: ShownSession,
        drawing: ReviewDrawing,
        writes: WritesUnderWay,
        app: App[object],
        tell: Tell,
        everywhere_in_thread: Callable[[EveryConversation], object],
        progress: BulkProgress,
    ) -> None:
        """`tell(message, **options)` notifies the person; `everywhere_in_thread(run)` starts the worker
        deciding on a kind in every conversation of a history, which calls `find_everywhere`, while
        `progress` shows how far it got."""
        self.shown = shown
        self.drawing = drawing
        self.writes = writes
        self.app = app
        self._tell = tell
        self._everywhere_in_thread = everywhere_in_thread
        self._progress = progress
        self._run: EveryConversation | None = None  # the decision on every conversation under way

    def finding_to_decide(self) -> tuple[Reviewed, int] | None:
        """The session reviewed and the index of the finding shown, or None after saying that a
        flagged turn must be selected (or that an export must end first)."""
        if self.writes.waiting_for(EXPORT, BULK):
            return None
        reviewed = self.shown.reviewed()
        if reviewed is None:
            self._tell("Still scanning the session: decisions can be made once it is done", severity="warning")
            return None
        index = self.drawing.current()
        if index is None:
            self._tell("Select a flagged turn first (n jumps to the next one)", severity="warning")
            return None
        return reviewed, index

    def _decide(self, decide: Callable[[Review, int, int], object]) -> None:
        """Apply `decide(review, session, finding)` to the finding shown, then show the next finding."""
        shown = self.finding_to_decide()
        if shown is None:
            return
        reviewed, index = shown
        try:
            decide(reviewed.review, reviewed.index, index)
        except ReviewError as error:
            self._tell(str(error), severity="error")
            return
        self.tell_unsaved(reviewed.review)
        findings = self.shown.findings()
        if index + 1 == len(findings):
            self.drawing.refresh([findings[index].turn])
            return
        self.drawing.redraw_marks([findings[index].turn])  # selecting the following finding shows its detail
        self.drawing.select(*self.shown.place_of(index + 1))

    def tell_unsaved(self, review: Review) -> None:
        """Say once that decisions on `review` cannot be saved, and why; say once what the save took
        in from another inspector on the same review (and show those decisions)."""
        notice = review.unsaved_notice()
        if notice is not None:
            self._tell(notice, severity="warning", timeout=20)
        merged = review.merge_notice()
        if merged is not None:
            self._tell(merged, severity="warning", timeout=20)
            self.drawing.redraw_marks()

    def approve(self) -> None:
        """Approve the proposed (or edited) fix of the finding shown."""
        self._decide(lambda review, session, index: review.approve(session, index))

    def skip(self) -> None:
        """Leave the finding shown as it is."""
        self._decide(lambda review, session, index: review.skip(session, index))

    def edit(self) -> None:
        """Open the fix of the finding shown in the editor; an edit is recorded with the proposal."""
        shown = self.finding_to_decide()
        if shown is None:
            return
        reviewed, index = shown
        review, s = reviewed.review, reviewed.index
        finding = review.findings(s)[index]
        start = proposal(finding, review.turn_of(s, finding), review.decided_fix(s, index))
        tools = tuple(review.tool(s, call.name) for call in start.calls)

        def edited(edit: Edit | None) -> None:
            if edit is not None:
                self._decide(lambda review, session, i: review.edit(session, i, edit))

        title = f"Edit the fix · turn {finding.turn} · {finding.kind}"
        from inspector.tui.review.editor import FixEditor  # (its text areas: imported when first asked for)

        self.app.push_screen(FixEditor(start, tools, title, lambda name: review.tool(s, name)), edited)

    def undo(self) -> None:
        """Undo the last decision (any number of times) and show the finding it was about, so the
        next key decides on it again."""
        review = self.shown.review
        if review is None or self.writes.waiting_for(EXPORT, BULK):
            return
        target = review.undo_target()
        undone = review.undo()
        if undone is None:
            self._tell(NOTHING_TO_UNDO, severity="warning")
            return
        self._tell(undone[:1].upper() + undone[1:])
        self.tell_unsaved(review)
        self.drawing.redraw_marks()
        if target is None or target[0] != self.shown.session_index:  # it changed other sessions only
            self.drawing.show_detail()
            return
        turn = review.findings(target[0])[target[1]].turn
        self.drawing.select(turn, self.shown.by_turn[turn].index(target[1]))

    def approve_all(self) -> None:
        """Approve every pending finding of the shown finding's kind (of this session, or of every
        one: asks)."""
        self._decide_kind(APPROVED)

    def skip_all(self) -> None:
        """Skip (acknowledge, when it has no fix) every pending finding of the shown finding's kind
        (of this session, or of every one: asks)."""
        self._decide_kind(SKIPPED)

    def _decide_kind(self, status: str) -> None:
        """Ask, then give `status` to every pending finding of the shown finding's kind: of this
        session, or (in a file of several sessions, or a history) of every one."""
        shown = self.finding_to_decide()
        if shown is None:
            return
        reviewed, index = shown
        review, s = reviewed.review, reviewed.index
        kind = review.findings(s)[index].kind
        verb = _verb(status, any(f.fix is not None for f in review.findings(s) if f.kind == kind))
        here = len(review.decidable(s, kind, status))
        if len(review.results) == 1 and not review.source.streams:
            self._confirm_kind(review, s, kind, status, verb, here)
            return
        unit, history = ("conversation", True) if review.source.streams else ("session", False)
        total = (
            "" if history else f" ({sum(len(review.decidable(i, kind, status)) for i in range(len(review.results)))})"
        )

        def chosen(answer: str | None) -> None:
            if answer == "t":
                self._decided(review, verb, kind, *review.decide_all(kind, status, [s]))
            elif answer == "a" and history:
                self._tell(f"Reading every conversation of {shown_name(review.path.name)} for pending {kind} findings…")
                self._start_everywhere(EveryConversation(kind, status, verb))
            elif answer == "a":
                self._decided(review, verb, kind, *review.decide_all(kind, status, range(len(review.results))))

        scanned = " (each is read and scanned)" if history else ""
        question = (
            f"{verb} every pending {kind} finding of this {unit} ({here}), or of every {unit} of "
            f"{shown_name(review.path.name)}{scanned}?"
        )
        self.app.push_screen(
            Choose(neutralise(question), [("t", f"This {unit}"), ("a", f"Every {unit}{total}")]), chosen
        )

    def _confirm_kind(self, review: Review, s: int, kind: str, status: str, verb: str, count: int) -> None:
        """In a file of one session (the session `s` of `review`): ask, then give `status` to its
        `count` pending `kind` findings."""
        if not count:
            self._decided(review, verb, kind, 0, 0)
            return

        def confirmed(yes: bool | None) -> None:
            if yes:
                self._decided(review, verb, kind, *review.decide_all(kind, status, [s]))

        findings = f"all {count} pending {kind} findings" if count != 1 else f"the 1 pending {kind} finding"
        question = f"{verb} {findings} of this session?{_warnings_among(review, s, kind, status, count)}"
        self.app.push_screen(Confirm(question, yes=f"{verb} {count}", no="Cancel"), confirmed)

    def _start_everywhere(self, run: EveryConversation) -> None:
        """Start `run` in the bulk worker, showing its progress."""
        self._run = run
        self.writes.start(BULK)
        self._progress.follow(run)
        self._everywhere_in_thread(run)

    def cancel_everywhere(self, say: bool = True) -> bool:
        """Cancel the decision on every conversation under way, if one is (saying so, unless not
        `say`): the conversations read by then are decided when the worker stops. Whether one was."""
        run = self._run
        if run is None:
            return False
        if not run.cancelled and say:
            self._tell("Cancelling: only the conversations read so far will be decided")
        run.cancel()
        return True

    def find_everywhere(self, run: EveryConversation) -> None:
        """Read and scan every conversation of the history not read into the review for its pending
        `run.kind` findings (in the bulk worker's thread; only their keys are kept), counting them
        in `run` and stopping between two conversations when it is cancelled, then decide on them
        with this one's, back on the app's thread."""
        review = self.shown.review
        if review is None:  # the screen closed before the worker started: nothing is decided
            return
        elsewhere: list[DecisionKey] = []
        try:
            run.total = len(review.source.listing())
            with closing(iter_scan(review.source, review.extra_tools)) as results:
                for result in results:
                    if run.cancelled:
                        break
                    if not review.holds(result):
                        elsewhere += review.decidable_elsewhere(result, run.kind, run.status)
                    run.read += 1
        except InspectorError as error:
            self.app.call_from_thread(self._everywhere_failed, str(error))
            return
        self.app.call_from_thread(self._decide_everywhere, run, elsewhere)

    def _end_everywhere(self) -> None:
        self._run = None
        self._progress.stop()
        self.writes.done(BULK)

    def _decide_everywhere(self, run: EveryConversation, elsewhere: list[DecisionKey]) -> None:
        """Decide on the findings of the conversations read (all, or those read before the run
        was cancelled, each whole) and of those read into the review, as one undo step."""
        self._end_everywhere()
        review = self.shown.review
        if review is None:  # the screen closed meanwhile: nothing is decided
            return
        if run.cancelled:
            self._tell(
                f"Cancelled after reading {run.read:,} of {max(run.total or 0, run.read):,} conversations: only "
                "their findings (and this one's) are decided",
                severity="warning",
                timeout=10,
            )
        self._decided(
            review, run.verb, run.kind, *review.decide_all(run.kind, run.status, range(len(review.results)), elsewhere)
        )

    def _everywhere_failed(self, error: str) -> None:
        self._end_everywhere()
        self._tell(f"{error} (nothing was decided)", severity="error", timeout=10)

    def _decided(self, review: Review, verb: str, kind: str, count: int, places: int) -> None:
        """Say what `verb` (`_verb`'s) did on a kind of `review`'s findings: `count` findings in
        `places` sessions; redraw."""
        if not count:
            wanted = "has a fix to approve" if verb == "Approve" else "is left to decide"
            self._tell(f"No pending {kind} finding {wanted}", severity="warning")
            return
        unit = "conversations" if review.source.streams else "sessions"
        where = f" in {places} {unit}" if places > 1 else ""
        past = {"Approve": "Approved", "Skip": "Skipped", "Acknowledge": "Acknowledged"}[verb]
        self._tell(f"{past} {count} {kind} finding{'s' if count != 1 else ''}{where} (u undoes them all)")
        self.tell_unsaved(review)
        self.drawing.refresh()

    def copy(self) -> None:
        """Copy the arguments of the calls the shown fix recovers or corrects."""
        shown = self.finding_to_decide()
        if shown is None:
            return
        reviewed, index = shown
        review, s = reviewed.review, reviewed.index
        finding = review.findings(s)[index]
        preview = fix_preview(finding, review.turn_of(s, finding), review.decided_fix(s, index))
        calls = [call for call in preview.calls if call.arguments is not None]
        if not calls:
            self._tell("This fix recovers no call arguments to copy", severity="warning")
            return
        value = calls[0].arguments if len(calls) == 1 else [call.arguments for call in calls]
        copy_to_clipboard(
            self.app,
            json.dumps(value, indent=2, ensure_ascii=False),
            f"the arguments of {', '.join(call.name for call in calls)}",
            self._tell,
        )


def _verb(status: str, with_fixes: bool) -> str:
    """How the person's choice is named: Approve, Skip, or Acknowledge (skipping findings that
    have no fix: decided, the turns left as they are)."""
    if status == APPROVED:
        return "Approve"
    return "Skip" if with_fixes else "Acknowledge"


def _warnings_among(review: Review, s: int, kind: str, status: str, count: int) -> str:
    """' 1 of them is a warning (...): cancel to read it first.' when approving findings some of
    which are warnings (a repair that guessed, such as cut-off arguments completed), else ''."""
    if status != APPROVED:
        return ""
    findings = review.findings(s)
    warned = sum(findings[index].severity == WARNING for index in review.decidable(s, kind, status))
    if not warned:
        return ""
    if count == 1:
        which, them = "It is a warning", "it"
    else:
        which = f"{warned} of them {'is a warning' if warned == 1 else 'are warnings'}"
        them = "it" if warned == 1 else "them"
    return f" {which} (its repair guessed, or the finding is less sure): cancel to read {them} first."
