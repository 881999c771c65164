"""A flagged turn as a shared report shows it, side by side: the parts of the turn as it is (its
text, each call as `name(arguments)`, each result) and the parts of the turns the repair writes in
its place (`inspector.view.repaired_turn`).

Each part of the turn as fixed is compared with the same part as it was, whole words at a time
(`inspector.view.word_diff`, `whole_words`): the original side marks what the repair removes, the
repaired side what it adds; what only the repair writes (recovered calls, results recorded) is new
and marked whole. The spans the findings flag are marked as faults. Parts are compared as shown:
with `--redact`, once their secrets are masked, and the faults moved onto the masked text.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from inspector.model import ARGUMENTS_LOST, RECOVERED, Span, ToolCall, ToolResult, Turn
from inspector.report.pieces import ADDED, FAULT, REDACTED, REMOVED, Piece, marked_pieces
from inspector.report.redact import Redacted
from inspector.view.repaired_turn import RepairedTurn
from inspector.view.word_diff import diff_text

Shown = Callable[[str], Redacted]  # how a text is shown: with its secrets masked, or as it is


@dataclass(frozen=True)
class Block:
    """One part of a turn as shown: its text, a call or a result; `new` when the repair adds it."""

    label: str
    pieces: tuple[Piece, ...]
    new: bool = False


_TEXT = ("text", 0)


def turn_sides(turn: Turn, view: RepairedTurn, shown: Shown) -> tuple[tuple[Block, ...], tuple[Block, ...]]:
    """The original turn's blocks and the repaired turns' blocks (none when the repair writes the
    turn as it was), each part of the fixed turn compared with the same part of the original (both
    as shown); what only the repair writes is new."""
    faults = list(view.suspect_spans)
    if view.fixed is None:
        return tuple(
            Block(label, _pieces(shown(text), faults if key == _TEXT else [], ())) for key, label, text in _parts(turn)
        ), ()
    before = {key: (label, shown(text)) for key, label, text in _parts(turn)}
    after = {key: shown(text) for key, _, text in _parts(view.fixed)}
    changes = {key: _changed_spans(old.text, after[key].text) for key, (_, old) in before.items() if key in after}
    original = []
    for key, (label, old) in before.items():
        removed = changes[key][0] if key in changes else [(0, len(old.text))]
        original.append(Block(label, _pieces(old, faults if key == _TEXT else [], removed)))
    repaired = []
    for new_turn in view.written:
        for key, label, text in _parts(new_turn):
            new = after[key] if new_turn is view.fixed else shown(text)
            if new_turn is view.fixed and key in changes:
                repaired.append(Block(label, _added_pieces(new, changes[key][1])))
            else:
                repaired.append(Block(label, _added_pieces(new, [(0, len(new.text))]), new=True))
    return tuple(original), tuple(repaired)


def _changed_spans(before: str, after: str) -> tuple[list[Span], list[Span]]:
    """The spans of `before` the repair removes and those of `after` it adds, whole words each."""
    diff = diff_text(before, after, whole_words=True)
    return [(start, end) for start, end, _ in diff.before_spans()], [
        (start, end) for start, end, _ in diff.after_spans()
    ]


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


_CALL_LABELS = {
    RECOVERED: "recovered call, not executed",
    ARGUMENTS_LOST: "call, its arguments lost: the agent kept its parser's error",
}


def _call_label(call: ToolCall) -> str:
    return _CALL_LABELS.get(call.origin, "call")


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


def _pieces(text: Redacted, faults: Sequence[Span], removed: Sequence[Span]) -> tuple[Piece, ...]:
    """The original side's pieces: the faults (moved onto the shown text), what the repair removes, the masks."""
    return marked_pieces(
        text.text, {FAULT: [text.moved(span) for span in faults], REMOVED: removed, REDACTED: text.masks}
    )


def _added_pieces(text: Redacted, added: Sequence[Span]) -> tuple[Piece, ...]:
    return marked_pieces(text.text, {ADDED: added, REDACTED: text.masks})
