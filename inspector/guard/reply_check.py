"""`check_reply`: the findings of one reply of a model, the reply repaired, and the calls recovered
from its text, for a loop to act on before anyone reads the reply.

The reply is checked as the last turn of a session of one exchange: the calls the model made on
the way (`calls`), their results (`results`), then the reply's `text`; with the loop's `tools`
when given (a call checked against its schema, a name that is no tool). Every detector runs, the
same as `scan`'s, so a reply checked here and the same reply in a scanned session are flagged alike.
"""

from __future__ import annotations

from dataclasses import dataclass

from inspector.detect import detect_findings
from inspector.errors import InspectorError
from inspector.guard.loop_values import CallsGiven, ResultsGiven, ToolsGiven, calls_of, results_of, tools_of
from inspector.guard.reasons import block_reason
from inspector.model import ASSISTANT, ERROR, TOOL, USER, Finding, Session, ToolCall, Turn
from inspector.repair.apply import apply_fixes

_PROMPT = Turn(0, USER, "")  # the exchange starts where the person's message was: what came before is not checked


@dataclass(frozen=True)
class Check:
    """What `check_reply` found in one reply.

    `findings` are in the order of the exchange (the calls' own problems first, then the reply's);
    `text` is the reply with every proposed fix applied (a tool result the model wrote itself, or a
    call it printed, taken out); `calls` are the calls recovered from the reply's text, never run:
    run them and give the model their results, or tell it to make them (`reason`)."""

    findings: tuple[Finding, ...]
    text: str
    calls: tuple[ToolCall, ...]

    @property
    def ok(self) -> bool:
        """True when nothing of severity "error" was found (warnings and notes may remain)."""
        return not any(finding.severity == ERROR for finding in self.findings)

    @property
    def reason(self) -> str:
        """What to tell the model so it does the work for real: one sentence per error ("" when ok)."""
        return block_reason([finding for finding in self.findings if finding.severity == ERROR])


def check_reply(
    text: str,
    *,
    tools: ToolsGiven | None = None,
    calls: CallsGiven | None = None,
    results: ResultsGiven | None = None,
) -> Check:
    """Check a model's reply `text`, after the `calls` it made in this exchange and their `results`
    (values of the model or the provider's dictionaries: `inspector.guard.loop_values`), against
    the loop's `tools`. A value that is no call, result or tool definition raises `InspectorError`."""
    if not isinstance(text, str):
        raise InspectorError(f"the reply must be text, not {type(text).__name__}")
    made = calls_of(calls)
    answered = results_of(results, made)
    turns = [_PROMPT]
    if made or answered:
        turns.append(Turn(1, ASSISTANT, "", tool_calls=made))
        turns.append(Turn(2, TOOL, "", tool_results=answered))
    reply = Turn(len(turns), ASSISTANT, text)
    session = Session(format="reply", path=None, turns=(*turns, reply), tools=tools_of(tools))
    findings = detect_findings(session)
    _, applied = apply_fixes(session, [finding for finding in findings if finding.turn == reply.position])
    after = next((fix.after for fix in applied if fix.finding.turn == reply.position), text)
    recovered = tuple(call for fix in applied for call in fix.recovered)
    return Check(tuple(findings), after, recovered)
