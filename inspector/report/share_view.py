"""What a shared report (`inspector report --html/--markdown`) shows, built once from the scan's
summaries and rendered by the HTML and Markdown writers alike.

The totals, the findings by kind and the rates (`total`, with `by_model` and `by_tool`) are the
`--json` report's. Each flagged turn of
each flagged conversation is shown as it is and as `fix` would write it: all of the turn's fixes
applied together (`inspector.repair.apply.apply_fixes`, the one way fixes are applied), with the
calls recovered before it and the results recorded after it. The text and each call are compared
word by word (`word_diff`); the spans detectors flagged are marked as faults. With `redact`, every
text shown has its secrets masked first (`redact`), and spans are moved onto the masked text.
Texts stay as the session holds them: each writer escapes them for its own output.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from inspector.model import RECOVERED, Finding, Session, Span, ToolCall, ToolResult, Turn
from inspector.repair.apply import apply_fixes
from inspector.report.pieces import ADDED, FAULT, REDACTED, REMOVED, Piece, marked_pieces
from inspector.report.redact import Redacted, redact_text
from inspector.report.word_diff import changed_spans
from inspector.scan.rates import Rates
from inspector.scan.summary import SessionSummary

NO_FIX = "No automatic fix: what to do is for a person to decide."
LEFT_AS_IS = "Not repaired automatically: the fixes together would leave an empty reply (edit it in the app)."


@dataclass(frozen=True)
class Block:
    """One part of a turn as shown: its text, a call or a result; `new` when the repair adds it."""

    label: str
    pieces: tuple[Piece, ...]
    new: bool = False


@dataclass(frozen=True)
class FindingView:
    """One finding as listed above its turn."""

    kind: str
    severity: str
    message: str
    status: str
    fix: str


@dataclass(frozen=True)
class TurnView:
    """A flagged turn: its findings, the original and the repaired side (empty, with `note`
    saying why, when nothing would be repaired)."""

    position: int
    turn_id: str | None
    role: str
    findings: tuple[FindingView, ...]
    original: tuple[Block, ...]
    repaired: tuple[Block, ...]
    note: str = ""


@dataclass(frozen=True)
class ConversationView:
    """A conversation with findings, and its flagged turns in order."""

    path: str
    session_id: str | None
    format: str
    turn_count: int
    finding_count: int
    problems: tuple[str, ...]
    turns: tuple[TurnView, ...]


@dataclass(frozen=True)
class ReportView:
    """The whole shared report: what was read and when, totals, findings by kind (most first), the
    `--json` report's rates (`total`, with `by_model` and `by_tool`), the flagged conversations and
    the errors."""

    sources: tuple[str, ...]
    generated: str
    sessions: int
    turns: int
    findings: int
    by_kind: tuple[tuple[str, int], ...]
    rates: dict[str, Any]
    conversations: tuple[ConversationView, ...]
    errors: tuple[str, ...]
    redacted: bool


def build_view(
    summaries: Sequence[SessionSummary],
    errors: Sequence[str] = (),
    redact: bool = False,
    sources: Sequence[str] = (),
    generated: str = "",
) -> ReportView:
    """The report of the scanned sessions (and of the files that could not be read) of `sources`,
    made at `generated`; with `redact`, secrets and e-mail addresses masked in every text it shows."""
    shown = redact_text if redact else Redacted
    by_kind: dict[str, int] = {}
    rates = Rates()
    for summary in summaries:
        rates.update(summary.rates)
        for finding in summary.findings:
            by_kind[finding.kind] = by_kind.get(finding.kind, 0) + 1
    return ReportView(
        sources=tuple(shown(source).text for source in sources),
        generated=generated,
        sessions=len(summaries),
        turns=sum(summary.turn_count for summary in summaries),
        findings=sum(by_kind.values()),
        by_kind=tuple(sorted(by_kind.items(), key=lambda item: (-item[1], item[0]))),
        rates=_shown_rates(rates.to_json(), shown),
        conversations=tuple(_conversation(summary, shown) for summary in summaries if summary.findings),
        errors=tuple(shown(error).text for error in errors),
        redacted=redact,
    )


_Shown = Callable[[str], Redacted]  # how a text is shown: with its secrets masked, or as it is


def _shown_rates(rates: dict[str, Any], shown: _Shown) -> dict[str, Any]:
    """The rates with model and tool names as shown (two names masked alike kept apart: `NAME #2`)."""
    return {
        **rates,
        **{
            group: _apart((shown(name).text, entry) for name, entry in rates[group].items())
            for group in ("by_model", "by_tool")
        },
    }


def _apart(entries: Iterable[tuple[str, Any]]) -> dict[str, Any]:
    named: dict[str, Any] = {}
    for name, entry in entries:
        shown_name, count = name, 1
        while shown_name in named:
            count += 1
            shown_name = f"{name} #{count}"
        named[shown_name] = entry
    return named


def _conversation(summary: SessionSummary, shown: _Shown) -> ConversationView:
    by_turn: dict[int, list[Finding]] = {}
    for finding in summary.findings:
        by_turn.setdefault(finding.turn, []).append(finding)
    turns = tuple(_turn(summary, position, findings, shown) for position, findings in sorted(by_turn.items()))
    return ConversationView(
        shown(str(summary.path)).text,
        _maybe(summary.session_id, shown),
        summary.format,
        summary.turn_count,
        len(summary.findings),
        tuple(shown(problem).text for problem in summary.problems),
        turns,
    )


def _turn(summary: SessionSummary, position: int, findings: list[Finding], shown: _Shown) -> TurnView:
    first = findings[0]
    listed = tuple(_finding(finding, shown) for finding in findings)
    turn = summary.turn_at(position)
    if turn is None:  # a finding about the session rather than one of its turns
        return TurnView(position, _maybe(first.turn_id, shown), first.role, listed, (), (), NO_FIX)
    faults = [span for finding in findings for span in _fault_spans(finding)]
    fixable = [finding for finding in findings if finding.fix is not None]
    repaired_turns = _repaired(summary, turn, fixable)
    if repaired_turns is None:
        original = tuple(
            Block(label, _pieces(shown(text), faults if key == _TEXT else [], ())) for key, label, text in _parts(turn)
        )
        return TurnView(
            position, _maybe(turn.id, shown), turn.role, listed, original, (), LEFT_AS_IS if fixable else NO_FIX
        )
    original, repaired = _sides(turn, repaired_turns, faults, shown)
    return TurnView(position, _maybe(turn.id, shown), turn.role, listed, original, repaired)


def _finding(finding: Finding, shown: _Shown) -> FindingView:
    status = ""
    if finding.tool:
        status = finding.tool + {True: ", ran", False: ", not executed", None: ""}[finding.executed]
    fix = finding.fix.summary if finding.fix is not None else ""
    return FindingView(finding.kind, finding.severity, shown(finding.message).text, shown(status).text, shown(fix).text)


def _fault_spans(finding: Finding) -> list[Span]:
    """The span of the turn's text a finding flags, if any."""
    return [finding.span] if finding.span else []


def _repaired(summary: SessionSummary, turn: Turn, fixable: list[Finding]) -> tuple[Turn, ...] | None:
    """The turns the repair writes in place of `turn` (recovered calls, the fixed turn, results
    recorded), or None when it changes nothing."""
    if not fixable:
        return None
    alone = Session(summary.format, summary.path, (turn,))
    repaired, applied = apply_fixes(alone, fixable)
    return repaired.turns if applied else None


_TEXT = ("text", 0)


def _parts(turn: Turn) -> list[tuple[tuple[str, int], str, str]]:
    """The parts of a turn shown as blocks, each keyed so that a repaired turn's parts pair with
    its original's: the text (unless it is empty beside calls or results, or only repeats the
    result it holds), each call, each result."""
    parts: list[tuple[tuple[str, int], str, str]] = []
    results = [_result_text(result) for result in turn.tool_results]
    if (turn.text or not (turn.tool_calls or turn.tool_results)) and turn.text not in results:
        parts.append((_TEXT, "text", turn.text))
    parts.extend((("call", index), _call_label(call), _call_text(call)) for index, call in enumerate(turn.tool_calls))
    parts.extend(
        (("result", index), _result_label(result), text)
        for index, (result, text) in enumerate(zip(turn.tool_results, results))
    )
    return parts


def _call_label(call: ToolCall) -> str:
    return "recovered call, not executed" if call.origin == RECOVERED else "call"


def _call_text(call: ToolCall) -> str:
    """A call as `name(arguments)`: the parsed arguments as JSON, else the raw text stored."""
    if call.arguments is not None:
        arguments = json.dumps(call.arguments, ensure_ascii=False, default=str)
    elif isinstance(call.arguments_raw, str):
        arguments = call.arguments_raw
    else:
        arguments = json.dumps(call.arguments_raw, ensure_ascii=False, default=str)
    return f"{call.name}({arguments})"


def _result_label(result: ToolResult) -> str:
    answers = result.name or result.call_id
    return "result" + (f" of {answers}" if answers else "") + (" (error)" if result.is_error else "")


def _result_text(result: ToolResult) -> str:
    content = result.content
    return content if isinstance(content, str) else json.dumps(content, ensure_ascii=False, default=str)


def _sides(
    turn: Turn, repaired_turns: tuple[Turn, ...], faults: list[Span], shown: _Shown
) -> tuple[tuple[Block, ...], tuple[Block, ...]]:
    """The original turn's blocks and the repaired turns' blocks, each part of the fixed turn
    compared with the same part of the original (both as shown); what only the repair writes is new."""
    fixed = _fixed(turn, repaired_turns)
    before = {key: (label, shown(text)) for key, label, text in _parts(turn)}
    after = {key: shown(text) for key, _, text in _parts(fixed)} if fixed is not None else {}
    changes = {key: changed_spans(old.text, after[key].text) for key, (_, old) in before.items() if key in after}
    original = []
    for key, (label, old) in before.items():
        removed = changes[key][0] if key in changes else [(0, len(old.text))]
        original.append(Block(label, _pieces(old, faults if key == _TEXT else [], removed)))
    repaired = []
    for new_turn in repaired_turns:
        for key, label, text in _parts(new_turn):
            new = after[key] if new_turn is fixed else shown(text)
            if new_turn is fixed and key in changes:
                repaired.append(Block(label, _added_pieces(new, changes[key][1])))
            else:
                repaired.append(Block(label, _added_pieces(new, [(0, len(new.text))]), new=True))
    return tuple(original), tuple(repaired)


def _fixed(turn: Turn, repaired_turns: tuple[Turn, ...]) -> Turn | None:
    """Among the repaired turns, the original turn as fixed (the others are added by the repair)."""
    for candidate in repaired_turns:
        if candidate is turn or (candidate.edited and candidate.role == turn.role and candidate.raw is turn.raw):
            return candidate
    return None


def _pieces(text: Redacted, faults: list[Span], removed: list[Span]) -> tuple[Piece, ...]:
    """The original side's pieces: the faults (moved onto the shown text), what the repair removes, the masks."""
    return marked_pieces(
        text.text, {FAULT: [text.moved(span) for span in faults], REMOVED: removed, REDACTED: text.masks}
    )


def _added_pieces(text: Redacted, added: list[Span]) -> tuple[Piece, ...]:
    return marked_pieces(text.text, {ADDED: added, REDACTED: text.masks})


def _maybe(text: str | None, shown: _Shown) -> str | None:
    return None if text is None else shown(text).text
