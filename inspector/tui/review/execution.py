"""The review screen's execute key: run an approved fix's recovered calls through the person's
executor (`inspector PATH --execute CMD`), after asking, in a thread worker.

Nothing can run unless the app was started with `--execute`. The calls and the command are named
in the question; `inspector.repair.execute` runs them (no shell, the call as JSON on standard input), and
`inspector.review.review.Review.record_execution` keeps the answers, which the export then records.
"""

from __future__ import annotations

from collections.abc import Callable

from textual.app import App

from inspector.model import Finding
from inspector.repair.execute import ExecutionResult, execute_findings, recovered_calls
from inspector.support.safe_text import neutralise
from inspector.tui.dialogs.confirm import Confirm
from inspector.tui.notices import Tell
from inspector.tui.review.drawing import ReviewDrawing
from inspector.tui.review.shown_session import Reviewed, ShownSession
from inspector.tui.review.writes import EXECUTE, EXPORT, WritesUnderWay

NOT_ENABLED = "Nothing runs unless you start the app with an executor: inspector PATH --execute CMD"


class Executor:
    """The execute key (X): runs the approved fix's recovered calls and records their answers."""

    def __init__(
        self,
        command: str | None,
        shown: ShownSession,
        drawing: ReviewDrawing,
        writes: WritesUnderWay,
        finding_to_decide: Callable[[], tuple[Reviewed, int] | None],
        app: App[object],
        tell: Tell,
        execute_in_thread: Callable[[str, Reviewed, Finding, int], object],
    ) -> None:
        """`command`: the executor (None: the app was not started with `--execute`);
        `finding_to_decide()`: the session reviewed and the index of the finding shown, or None
        after saying why there is none; `tell(message, **options)` notifies the person;
        `execute_in_thread(command, reviewed, finding, index)` starts the screen's execute worker,
        which calls `run`."""
        self.command = command
        self.shown = shown
        self.drawing = drawing
        self.writes = writes
        self._finding_to_decide = finding_to_decide
        self.app = app
        self._tell = tell
        self._execute_in_thread = execute_in_thread

    def execute(self) -> None:
        """Run the recovered calls of the approved fix shown through the executor, after asking."""
        command, writes = self.command, self.writes
        if command is None:
            self._tell(NOT_ENABLED, severity="warning", timeout=8)
            return
        decidable = self._finding_to_decide()
        if decidable is None or writes.waiting_for(EXECUTE):
            return
        reviewed, index = decidable
        finding = reviewed.review.approved_finding(reviewed.index, index)
        if finding is None:
            self._tell("Approve the fix first (a): only an approved fix's calls are run", severity="warning")
            return
        calls = [call for _, call in recovered_calls([finding])]
        if not calls:
            self._tell("This fix recovers no call to run", severity="warning")
            return
        again = " again" if reviewed.review.executions(reviewed.index, index) else ""
        names = ", ".join(call.name for call in calls)
        question = (
            f"Run {len(calls)} recovered call{'s' if len(calls) != 1 else ''} ({names}){again} through "
            f"`{command}`? Each call goes to it as JSON on standard input; what it prints is recorded "
            "as the call's result."
        )

        def confirmed(yes: bool | None) -> None:
            if yes and not writes.waiting_for(EXPORT, EXECUTE):
                writes.start(EXECUTE)
                self._tell(f"Running {names} through {command}…")
                self._execute_in_thread(command, reviewed, finding, index)

        self.app.push_screen(Confirm(neutralise(question), yes="Run", no="Cancel", default=False), confirmed)

    def run(self, command: str, reviewed: Reviewed, finding: Finding, index: int) -> None:
        """Run the calls of `finding` (at `index` in the session `reviewed`), in the execute worker's
        thread; the answers are recorded on the app's thread."""
        runs = list(execute_findings(command, reviewed.session, [finding]))
        self.app.call_from_thread(self._executed, reviewed, index, runs)

    def _executed(self, reviewed: Reviewed, index: int, runs: list[ExecutionResult]) -> None:
        shown = self.shown
        self.writes.done(EXECUTE)
        reviewed.review.record_execution(reviewed.index, index, runs)
        failed = [run for run in runs if not run.ok]
        self._tell(
            "\n".join(run.describe() for run in runs),
            title="Executed",
            severity="error" if failed else "information",
            timeout=10,
        )
        self.drawing.refresh([shown.findings()[index].turn])
