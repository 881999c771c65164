"""Detector `claimed-success`: the model says it did the thing right after that tool failed.

The analyst sample: `send_email` answers `{"error": "missing required argument: to"}` and the next
reply says "I've emailed Priya the chart and summary." The user believes it; nothing was sent.
A reply is flagged when its last call of some task (a tool; for a shell tool, a command's program
and subcommand) since the previous reply or user message failed, however its result says so
(`failure_forms`: an error flag or object, `Error: ...`, `{"ok": false}`, an HTTP status of 400
or more, a non-zero exit code, a traceback, ...), and one of its sentences claims that task done
(`success_claims`): a sentence using a word of the failed tool's name ("emailed" for
`send_email`) or of its command ("pushed" for `git push`, "tests pass" for `pytest`), or, when
no call since the previous reply succeeded, a bare claim ("Done.", "All set!", "Saved the
file"). The message names the failed call and quotes the claim. No fix: only a person knows what
was really done.

Clean: a reply that admits the failure ("The email could not be sent", "I couldn't", "failed",
"error", an apology), one that retries the failed task, a task retried successfully before the
reply, a result that only mentions an error in its data (a log file's lines, `"errors": []`,
`exit code 0`), and claims about another tool that succeeded ("I've created the chart" when only
the email failed). The reply is judged on the calls and results recorded before it, so its finding on
a prefix of the session is its finding on the whole.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from typing import Any

from inspector.detect.call_identity import answer
from inspector.detect.context import ScanContext
from inspector.detect.contract import Detector
from inspector.detect.failure_forms import failure
from inspector.detect.success_claims import Claim, admits_failure, claims, past_forms
from inspector.detect.task_words import call_forms, command_of, tool_forms, words
from inspector.detect.tool_error import results_that_may_report_error
from inspector.model import ASSISTANT, USER, WARNING, Finding, Severity, ToolCall, ToolResult, Turn
from inspector.support.safe_text import preview, preview_value

KIND = "claimed-success"
SEVERITY: Severity = WARNING

_QUOTE = 120
_PREVIEW = 80


class _Call:
    """A call of the current exchange, with its turn and its result once recorded."""

    __slots__ = ("call", "failure", "result", "turn")

    def __init__(self, call: ToolCall, turn: int) -> None:
        self.call = call
        self.turn = turn
        self.result: ToolResult | None = None
        self.failure: Any = None  # what the result says of its failure, when it says one


class _Exchange:
    """The calls of an exchange's turns, with their results paired (by id, else by name in order)
    as they are recorded."""

    def __init__(self, turns: tuple[Turn, ...]) -> None:
        self.calls: list[_Call] = []
        self.may_have_failed = False  # whether a result says it failed (most exchanges have none)
        self._by_id: dict[str, _Call] = {}
        self._by_name: dict[str, deque[_Call]] = {}
        for turn in turns:
            self._add_calls(turn)
            self._add_results(turn)

    def _add_calls(self, turn: Turn) -> None:
        for call in turn.tool_calls:
            entry = _Call(call, turn.position)
            self.calls.append(entry)
            if call.id:
                self._by_id[call.id] = entry
            self._by_name.setdefault(call.name, deque()).append(entry)

    def _add_results(self, turn: Turn) -> None:
        for result in turn.tool_results:
            entry = self._by_id.pop(result.call_id, None) if result.call_id else self._first_waiting(result.name)
            if entry is not None and entry.result is None:
                entry.result = result
                entry.failure = failure(result, entry.call.name)
                self.may_have_failed = self.may_have_failed or entry.failure is not None

    def _first_waiting(self, name: str | None) -> _Call | None:
        waiting = self._by_name.get(name) if name else None
        while waiting:
            entry = waiting.popleft()
            if entry.result is None:
                return entry
        return None

    def outcomes(self) -> tuple[dict[str, _Call], dict[str, _Call], bool]:
        """The tasks (`_task`) whose last call failed and those whose last call succeeded, each
        with that call (a call with no result yet, or inspector's own answer, counts as neither),
        and whether any call succeeded (an earlier call of a task whose last call failed, say)."""
        answers = [(entry, answer(entry.result)) for entry in self.calls]
        last = {_task(entry.call): (entry, answered) for entry, answered in answers}
        failed: dict[str, _Call] = {}
        succeeded: dict[str, _Call] = {}
        for tool, (entry, answered) in last.items():
            if answered is not None:
                (failed if entry.failure is not None else succeeded)[tool] = entry
        any_succeeded = any(answered is not None and entry.failure is None for entry, answered in answers)
        return failed, succeeded, any_succeeded


def detect(context: ScanContext) -> Iterator[Finding]:
    """A finding for each reply that claims done what the tool it just called failed to do.

    Only an exchange holding a result that says it failed (few do) can end in such a reply, so
    only those exchanges are found (around each such result's turn) and their calls paired with
    their results."""
    turns = context.session.turns
    judged = 0  # the turns before this index are in exchanges already judged
    for turn in _turns_with_failures(context):
        index = context.index_of(turn)
        if index < judged:
            continue  # another result of an exchange already judged
        start, end = _exchange_around(turns, index, judged)
        judged = end
        reply = turns[end] if end < len(turns) else None
        if reply is not None and reply.role == ASSISTANT and _has_text(reply):
            exchange = _Exchange(turns[start:end])
            finding = _claimed_success(reply, exchange) if exchange.may_have_failed else None
            if finding is not None:
                yield finding


def _turns_with_failures(context: ScanContext) -> list[Turn]:
    """The turns holding a result that says it failed (`failure_forms`), in order. The results
    that may report an error are those `tool-error` lists: the others' errors are not looked for."""
    names = context.call_names_by_id
    reporting = {id(result) for _, result in results_that_may_report_error(context)}
    found = []
    for turn in context.turns_with_results:  # (a loop, not `any` over a generator: every result is read)
        for result in turn.tool_results:
            name = result.name or (names.get(result.call_id) if result.call_id else None)
            if failure(result, name, id(result) in reporting) is not None:
                found.append(turn)
                break
    return found


def _exchange_around(turns: tuple[Turn, ...], index: int, first: int) -> tuple[int, int]:
    """The exchange holding `turns[index]`, not starting before `first` (a turn that ends an
    exchange, or the first turn): the index of its first turn (the last turn up to `index` that ends
    the exchange before it, else `first`) and that of the turn ending it (`len(turns)` if none does)."""
    start = index
    while start > first and not _ends_exchange(turns[start]):
        start -= 1
    end = index + 1
    while end < len(turns) and not _ends_exchange(turns[end]):
        end += 1
    return start, end


def _ends_exchange(turn: Turn) -> bool:
    """Whether `turn` ends the exchange before it: a reply (an assistant turn with text or no
    call), or the user's own message (text, no result). Its calls and results start the next one.
    (An exchange without calls pairs nothing, so where it ends changes no finding.)"""
    if turn.role == ASSISTANT:
        return not turn.tool_calls or _has_text(turn)
    return turn.role == USER and not turn.tool_results and _has_text(turn)


def _has_text(turn: Turn) -> bool:
    """Whether the turn has text besides white space (without copying it, as `strip` would)."""
    return bool(turn.text) and not turn.text.isspace()


def _claimed_success(reply: Turn, exchange: _Exchange) -> Finding | None:
    failed, succeeded, any_succeeded = exchange.outcomes()
    retried = {_task(call): call for call in reply.tool_calls}
    failed = {task: entry for task, entry in failed.items() if task not in retried}
    if not failed:
        return None
    calls = {**{task: entry.call for task, entry in (*failed.items(), *succeeded.items())}, **retried}
    forms = {task: tool_forms(call.name) | call_forms(call) for task, call in calls.items()}
    if admits_failure(reply.text, frozenset().union(*forms.values())):
        return None
    done_by_others = frozenset().union(*(forms[tool] for tool in succeeded))
    verbs = past_forms(frozenset().union(*forms.values()))
    for claim in claims(reply.text, verbs):
        entry = _claimed_call(claim, failed, forms, done_by_others, any_succeeded)
        if entry is not None:
            return _finding(reply, entry, claim)
    return None


def _task(call: ToolCall) -> str:
    """What a call does, to tell a retry from another task of the same tool: its tool's name, and
    for a shell call its command's first two words that are no option (`bash: git push`, `bash:
    npm test`, `bash: pytest tests/` for `pytest -q tests/`)."""
    command = command_of(call)
    if command is None:
        return call.name
    return f"{call.name}: {' '.join([word for word in command[:200].split() if not word.startswith('-')][:2])}"


def _claimed_call(
    claim: Claim,
    failed: dict[str, _Call],
    forms: dict[str, frozenset[str]],
    done_by_others: frozenset[str],
    any_succeeded: bool,
) -> _Call | None:
    """The failed call a claim is about: the latest one whose tool's words (those no tool that
    succeeded shares) the claim uses; else, for a bare claim ("Done.") when no call since the
    previous reply succeeded, the latest failed call."""
    said = words(claim.sentence)
    named = [entry for tool, entry in failed.items() if said & (forms[tool] - done_by_others)]
    if named:
        return max(named, key=lambda entry: entry.turn)
    if any_succeeded or not claim.bare:
        return None
    return max(failed.values(), key=lambda entry: entry.turn)


def _finding(reply: Turn, failed: _Call, claim: Claim) -> Finding:
    call, start, sentence = failed.call, claim.start, claim.sentence
    error = failed.failure
    quoted = preview(sentence, _QUOTE)
    message = (
        f'The reply says "{quoted}", but the {call.name} call at turn {failed.turn} failed: '
        f"{preview_value(error, _PREVIEW)}"
    )
    return Finding.at(
        reply,
        KIND,
        SEVERITY,
        message,
        (start, start + len(sentence)),
        call.name,
        call.arguments,
        payload={"claim": sentence, "call_id": call.id, "call_turn": failed.turn, "error": error},
    )


DETECTOR = Detector(KIND, SEVERITY, detect)
