"""Running recovered tool calls through the user's own executor command.

A repair recovers calls the model only wrote as text; by default they are recorded as "not
executed". With an executor (`inspector fix --execute CMD`, or the TUI's execute action) each
recovered call of an approved finding is run once: CMD is started without a shell, receives
`{"name", "arguments", "session_id", "turn"}` as JSON on its standard input, and its standard
output becomes the call's result (the parsed JSON value when it is JSON, else the text). Nothing
the model wrote is ever put on the command line, only on standard input.

A non-zero exit, a time-out or a command that cannot be started gives an error result naming
what happened, with the last lines of the command's standard error; nothing else changes. The
command runs in its own process group, stopped whole at the time-out; what it prints is kept up to
1 MiB (`bounded_run`), and reading stops once it has exited, even if a process it left in the
background still holds its output.
"""

from __future__ import annotations

import json
import shlex
import shutil
import signal
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any

from inspector.errors import InspectorError
from inspector.model import NOT_EXECUTED, RECOVERED, Finding, Session, ToolCall, ToolResult
from inspector.repair import DEFAULT_TIMEOUT
from inspector.repair.bounded_run import MAX_OUTPUT, Finished, run_bounded

STDERR_LINES = 5
STDERR_CHARS = 2000


@dataclass(frozen=True)
class ExecutionResult:
    """One recovered call as run by the executor.

    `output` is the command's standard output (parsed JSON, or text without its final line
    ending) when it succeeded; `error` says what went wrong otherwise, and `stderr` holds the last
    lines of its standard error. `exit_status` is None when the command never started or was
    stopped at the time-out.
    """

    command: str
    session_id: str | None
    turn: int
    call: ToolCall
    exit_status: int | None
    output: Any = None
    error: str | None = None
    stderr: str = ""

    @property
    def ok(self) -> bool:
        """True when the command ran and exited with status 0."""
        return self.error is None

    @property
    def result(self) -> ToolResult:
        """The result to record for the call in the repaired session."""
        if self.ok:
            return ToolResult(self.call.id, self.call.name, self.output)
        content = {"error": self.error, "stderr": self.stderr} if self.stderr else {"error": self.error}
        return ToolResult(self.call.id, self.call.name, content, is_error=True)

    def describe(self) -> str:
        """One line for the terminal: which call ran and how it went."""
        where = f"session {self.session_id}, turn {self.turn}" if self.session_id else f"turn {self.turn}"
        return f"execute {self.call.name} ({where}): " + ("ok" if self.ok else f"error: {self.error}")

    def to_json(self) -> dict[str, Any]:
        """The audit record of this execution: call, command, exit status and recorded result."""
        return {
            "call_id": self.call.id,
            "name": self.call.name,
            "command": self.command,
            "exit_status": self.exit_status,
            "ok": self.ok,
            "result": self.result.content,
        }


def check_command(command: str) -> list[str]:
    """The command split into its arguments, or an `InspectorError` when it is empty, cannot be
    split (an unclosed quote) or names a program that cannot be found."""
    argv = _split(command)
    if shutil.which(argv[0]) is None:
        raise InspectorError(f"--execute: {argv[0]}: command not found or not executable; nothing was run")
    return argv


def execute_call(
    command: str, call: ToolCall, session_id: str | None, turn: int, timeout: float = DEFAULT_TIMEOUT
) -> ExecutionResult:
    """Run `command` once for `call` and return what happened. A non-zero exit, a time-out or a
    command that cannot start is an error result; only a command string that is empty or cannot
    be split raises (`InspectorError`)."""
    argv = _split(command)
    request = {
        "name": call.name,
        "arguments": call.arguments if call.arguments is not None else call.arguments_raw,
        "session_id": session_id,
        "turn": turn,
    }
    started = ExecutionResult(command, session_id, turn, call, None)
    try:
        done = run_bounded(argv, json.dumps(request, ensure_ascii=False).encode("utf-8", "surrogatepass"), timeout)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        return _failed(started, f"{NOT_EXECUTED} Its executor `{command}` could not be started: {argv[0]}: {reason}.")
    if done.status is None:  # stopped at the time-out
        return _failed(
            started,
            f"`{command}` did not finish within {timeout:g} s and was stopped (with every process it started)",
            done.stderr,
        )
    if done.status != 0:
        exited = replace(started, exit_status=done.status)
        return _failed(exited, f"`{command}` {_exit_wording(done.status)}", done.stderr)
    return replace(started, exit_status=0, output=_output(done), stderr=_tail(done.stderr))


def recovered_calls(findings: Iterable[Finding]) -> Iterator[tuple[Finding, ToolCall]]:
    """Every call the findings' fixes recover from text (so it never ran), with its finding."""
    for finding in findings:
        if finding.fix is not None:
            for call in finding.fix.add_calls:
                if call.origin == RECOVERED:
                    yield finding, call


def execute_findings(
    command: str, session: Session, findings: Iterable[Finding], timeout: float = DEFAULT_TIMEOUT
) -> Iterator[ExecutionResult]:
    """Run `command` for each recovered call of the approved `findings` of `session`, in order,
    yielding each outcome as soon as the command has finished."""
    for finding, call in recovered_calls(findings):
        yield execute_call(command, call, session.session_id, finding.turn, timeout)


def results_by_call(executions: Iterable[ExecutionResult]) -> Mapping[str, ToolResult]:
    """The results to record, by recovered call id, as `repair.apply_fixes` takes them."""
    return {execution.call.id: execution.result for execution in executions if execution.call.id is not None}


def _failed(started: ExecutionResult, error: str, stderr: str | bytes | None = None) -> ExecutionResult:
    return replace(started, error=error, stderr=_tail(stderr))


def _split(command: str) -> list[str]:
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise InspectorError(f"--execute: cannot split {command!r} into arguments ({exc})") from None
    if not argv:
        raise InspectorError("--execute: the command is empty")
    return argv


def _exit_wording(status: int) -> str:
    if status < 0:
        try:
            return f"was stopped by signal {signal.Signals(-status).name}"
        except ValueError:
            return f"was stopped by signal {-status}"
    return f"exited with status {status}"


def _output(done: Finished) -> Any:
    """What the executor printed: its JSON value, else its text; when it printed more than
    `MAX_OUTPUT` bytes, the text kept and a line saying how much was cut."""
    stdout = done.stdout.decode("utf-8", errors="replace")
    if done.cut:
        return (
            f"{stdout}\n[inspector: the executor printed {done.cut:,} more bytes, cut after the first {MAX_OUTPUT:,}]"
        )
    try:
        return json.loads(stdout)
    except (ValueError, RecursionError):
        return stdout.removesuffix("\n").removesuffix("\r")


def _tail(stderr: str | bytes | None) -> str:
    if not stderr:
        return ""
    if isinstance(stderr, bytes):
        stderr = stderr.decode("utf-8", errors="replace")
    return "\n".join(stderr.rstrip().splitlines()[-STDERR_LINES:])[-STDERR_CHARS:]
