"""Applying accepted fixes to a session, giving a new session and a record of every change.

Fixes on the same turn are combined: their removed spans are cut from the original text together
(when the cuts reach the end of the reply, the white space they leave before it goes too: a leaked
call and the fake result after it, stripped by two fixes, leave no trailing line), a person's
edited text replaces it, and every recovered call is recorded, in order, as one
assistant turn with structured calls followed by one tool turn whose results say the calls were
recovered from text and not executed (or hold what the user's executor answered, see
`inspector.repair.execute`), both placed just before the fixed turn; a reply that is left with nothing
once the leaked call is cut out becomes that call itself, since APIs reject an empty message.
Strips that together would leave a reply with no text and no call (a fake result followed by
example markup, say) are not applied: that turn is left as it was, for a person to edit.
Results a fix adds for unanswered calls go in one tool turn just after it. A call a fix renames
keeps its id and arguments, and every result answering it (by its id, or by name and order where
the result has no id) takes the new name, so a format that names results (Gemini's
`functionResponse`, OpenAI's `function` messages, ...) still pairs them. A fix that masks a
secret replaces it, after every cut, in the turn's text, its calls' arguments and its results
(a database's writer rewrites the turn's rows; a file is masked whole as it is written), and the session keeps the pair (`Session.masked`) for its file to be masked whole when written.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Iterable, Mapping
from dataclasses import replace
from operator import attrgetter

from inspector.model import (
    ASSISTANT,
    NOT_EXECUTED,
    TOOL,
    AppliedFix,
    Finding,
    Fix,
    Session,
    ToolCall,
    ToolResult,
    Turn,
    masked_in,
    masked_text,
    remove_spans,
)

_POSITION = attrgetter("position")


def accepted_findings(findings: Iterable[Finding], kinds: Collection[str]) -> list[Finding]:
    """The findings of the `kinds` a person accepted that have a fix to apply."""
    return [finding for finding in findings if finding.kind in kinds and finding.fix is not None]


def apply_fixes(
    session: Session, findings: Iterable[Finding], executed: Mapping[str, ToolResult] | None = None
) -> tuple[Session, list[AppliedFix]]:
    """The session with the fixes of `findings` applied (findings without a fix are ignored).

    `executed` maps the id of a recovered call to the result to record for it (what the user's
    executor answered); any other recovered call gets a result saying it was not executed."""
    executed = executed or {}
    by_turn: dict[int, list[tuple[Finding, Fix]]] = {}
    for finding in findings:
        if finding.fix is not None:
            by_turn.setdefault(finding.turn, []).append((finding, finding.fix))
    if not by_turn:
        return session, []
    turns: list[Turn] = []
    applied: list[AppliedFix] = []
    renamed: dict[int, str] = {}  # id of a call a fix renamed -> the name it had
    kept = 0  # the first turn not yet in `turns`: those up to a turn with fixes are copied at once
    for index in [index for index, position in enumerate(map(_POSITION, session.turns)) if position in by_turn]:
        turn = session.turns[index]
        turns += session.turns[kept:index]
        kept = index + 1
        fixes = by_turn[turn.position]
        fixed = _fixed_turn(turn, fixes)
        recovered = tuple(_masked_call(call, _masks(fixes)) for _, fix in fixes for call in fix.add_calls)
        if not recovered and _emptied(turn, fixed, fixes):
            turns.append(turn)
            continue
        renamed.update(
            (id(new), old.name) for old, new in zip(turn.tool_calls, fixed.tool_calls) if old.name != new.name
        )
        if recovered:
            results = Turn(
                turn.position,
                TOOL,
                "",
                tool_results=tuple(_recorded_result(call, executed) for call in recovered),
            )
            if _left_empty(fixed):  # the reply was only the leaked call: it becomes that call
                turns += [replace(fixed, text="", tool_calls=recovered, edited=True), results]
            else:
                turns += [Turn(turn.position, ASSISTANT, "", tool_calls=recovered), results, fixed]
        else:
            turns.append(fixed)
        answers = tuple(result for _, fix in fixes for result in fix.add_results)
        if answers:
            turns.append(Turn(turn.position, TOOL, "", tool_results=answers))
        masks = _masks(fixes)
        applied.extend(AppliedFix(finding, turn.text, fixed.text, fix.add_calls, masks=masks) for finding, fix in fixes)
    turns += session.turns[kept:]
    if renamed:
        turns = _with_results_renamed(turns, renamed)
    masked = tuple(pair for fixes in by_turn.values() for _, fix in fixes for pair in fix.masks)
    return replace(session, turns=tuple(turns), masked=session.masked + masked), applied


def _recorded_result(call: ToolCall, executed: Mapping[str, ToolResult]) -> ToolResult:
    """What the user's executor answered for a recovered call, else a result saying it was not executed."""
    answer = executed.get(call.id) if call.id is not None else None
    return answer or ToolResult(call.id, call.name, NOT_EXECUTED)


def _with_results_renamed(turns: list[Turn], renamed: dict[int, str]) -> list[Turn]:
    """The turns with each result answering a renamed call under the call's new name; a session's
    own turn so changed is marked edited, for its writer to write the name where it keeps one.

    A result with an id answers the call with that id; one without answers the first call before
    it of its name (the name the call had) that no result answers by id, as Gemini and OpenAI's
    legacy `function` messages pair them."""
    answered = {result.call_id for turn in turns for result in turn.tool_results if result.call_id}
    by_id: dict[str, str] = {}  # id of a renamed call -> its new name
    waiting: dict[str, deque[str | None]] = {}  # a name calls had -> the new name of each waiting call (None: kept)
    out = []
    for turn in turns:
        for call in turn.tool_calls:
            was = renamed.get(id(call))
            if call.id and call.id in answered:
                if was is not None:
                    by_id[call.id] = call.name
            else:
                waiting.setdefault(was or call.name, deque()).append(call.name if was is not None else None)
        results = tuple(_renamed(result, by_id, waiting) for result in turn.tool_results)
        if results != turn.tool_results:
            turn = replace(turn, tool_results=results, edited=turn.edited or turn.raw is not None)
        out.append(turn)
    return out


def _renamed(result: ToolResult, by_id: dict[str, str], waiting: dict[str, deque[str | None]]) -> ToolResult:
    if result.call_id:
        name = by_id.get(result.call_id)
    else:
        calls = waiting.get(result.name) if result.name is not None else None
        name = calls.popleft() if calls else None
    if name is None or result.name in (None, name):  # a result that names no tool is left so
        return result
    return replace(result, name=name)


def _left_empty(turn: Turn) -> bool:
    """Whether a fixed assistant turn has nothing left: no text and no calls of its own."""
    return turn.role == ASSISTANT and not turn.text.strip() and not turn.tool_calls


def _emptied(turn: Turn, fixed: Turn, fixes: list[tuple[Finding, Fix]]) -> bool:
    """Whether strips, none of them a person's edit, would leave a reply that said something with
    nothing at all."""
    return _left_empty(fixed) and not _left_empty(turn) and all(fix.text is None for _, fix in fixes)


def _fixed_turn(turn: Turn, fixes: list[tuple[Finding, Fix]]) -> Turn:
    person = [fix.text for _, fix in fixes if fix.text is not None]
    masks = _masks(fixes)
    if person:
        text = person[-1]
    else:
        spans = [span for _, fix in fixes for span in fix.remove]
        text = remove_spans(turn.text, spans)
        if any(end >= len(turn.text) for _, end in spans):  # what the cuts leave before the reply's end goes too
            text = text.rstrip()
    calls = list(turn.tool_calls)
    for _, fix in fixes:
        for index, arguments in fix.replace_arguments:
            if 0 <= index < len(calls):
                calls[index] = replace(calls[index], arguments_raw=arguments, arguments=arguments)
        for index, name in fix.rename_calls:
            if 0 <= index < len(calls):
                calls[index] = replace(calls[index], name=name)  # same id and arguments
    results = tuple(replace(result, content=masked_in(result.content, masks)) for result in turn.tool_results)
    fixed = (masked_text(text, masks), tuple(_masked_call(call, masks) for call in calls), results)
    if fixed == (turn.text, turn.tool_calls, turn.tool_results):
        return turn
    return replace(turn, text=fixed[0], tool_calls=fixed[1], tool_results=fixed[2], edited=True)


def _masks(fixes: list[tuple[Finding, Fix]]) -> tuple[tuple[str, str], ...]:
    """Every (secret, mask) of the fixes, the longest secret first (one inside another is masked whole)."""
    return tuple(sorted({pair for _, fix in fixes for pair in fix.masks}, key=lambda pair: -len(pair[0])))


def _masked_call(call: ToolCall, masks: tuple[tuple[str, str], ...]) -> ToolCall:
    if not masks:
        return call
    return replace(call, arguments_raw=masked_in(call.arguments_raw, masks), arguments=masked_in(call.arguments, masks))
