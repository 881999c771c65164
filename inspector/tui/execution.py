"""The review screen's execute key: run an approved fix's recovered calls through the person's
executor (`inspector PATH --execute CMD`), after asking, in a thread worker.

Nothing can run unless the app was started with `--execute`. The calls and the command are named
in the question; `inspector.repair.execute` runs them (no shell, the call as JSON on standard input), and
`inspector.review.review.Review.record_execution` keeps the answers, which the export then records.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import work

from inspector.repair.execute import ExecutionResult, execute_findings, recovered_calls
from inspector.model import Finding
from inspector.support.safe_text import neutralise
from inspector.tui.decisions import EXECUTE, EXPORT
from inspector.tui.dialogs import Confirm

if TYPE_CHECKING:
    from inspector.tui.review_screen import ReviewScreen

NOT_ENABLED = "Nothing runs unless you start the app with an executor: inspector PATH --execute CMD"


class ExecuteAction:
    """Mixed into `ReviewScreen`: the execute key (X)."""

    def action_execute(self: ReviewScreen) -> None:
        """Run the recovered calls of the approved fix shown through the executor, after asking."""
        command = self.app.execute
        if command is None:
            self._tell(NOT_ENABLED, severity="warning", timeout=8)
            return
        index = self._shown()
        if index is None or self._waiting_for(EXECUTE):
            return
        finding = self.review.approved_finding(self.session_index, index)
        if finding is None:
            self._tell("Approve the fix first (a): only an approved fix's calls are run", severity="warning")
            return
        calls = [call for _, call in recovered_calls([finding])]
        if not calls:
            self._tell("This fix recovers no call to run", severity="warning")
            return
        again = " again" if self.review.executions(self.session_index, index) else ""
        names = ", ".join(call.name for call in calls)
        question = (f"Run {len(calls)} recovered call{'s' if len(calls) != 1 else ''} ({names}){again} through "
                    f"`{command}`? Each call goes to it as JSON on standard input; what it prints is recorded "
                    "as the call's result.")

        def confirmed(yes: bool | None) -> None:
            if yes and not self._waiting_for(EXPORT, EXECUTE):
                self._under_way.add(EXECUTE)
                self._tell(f"Running {names} through {command}…")
                self._execute(command, finding, index)

        self.app.push_screen(Confirm(neutralise(question), yes="Run", no="Cancel", default=False), confirmed)

    @work(thread=True, exclusive=True, group="execute")
    def _execute(self: ReviewScreen, command: str, finding: Finding, index: int) -> None:
        """Run the calls in a thread; the answers are recorded on the app's thread."""
        runs = list(execute_findings(command, self.session, [finding]))
        self.app.call_from_thread(self._executed, index, runs)

    def _executed(self: ReviewScreen, index: int, runs: list[ExecutionResult]) -> None:
        self._under_way.discard(EXECUTE)
        self.review.record_execution(self.session_index, index, runs)
        failed = [run for run in runs if not run.ok]
        self._tell("\n".join(run.describe() for run in runs), title="Executed",
                   severity="error" if failed else "information", timeout=10)
        self._refresh([self.review.findings(self.session_index)[index].turn])
