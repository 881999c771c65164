"""The Markdown report (`inspector report --markdown`): the HTML report's content, to paste into
an issue or a pull request.

The chart is a column of bars drawn with block characters in the kinds table. Each flagged turn
shows its original and its repaired side one after the other, each part in a fenced block with
the changes marked in the text: `[-removed-]`, `{+added+}`, and `[!flagged!]` for a flagged span
the repair keeps. Model text goes only into fenced blocks and escaped inline text
(`markdown_text`), never into Markdown it could change.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import groupby
from typing import Any

from inspector import __version__
from inspector.report.markdown_text import fenced, inline
from inspector.report.pieces import ADDED, FAULT, REMOVED, Piece
from inspector.report.rates import NOTHING_RATED, RATES_TITLE, rate_cell, rate_rows, rated_kinds
from inspector.report.share_view import ConversationView, FindingView, ReportView, TurnView
from inspector.report.turn_blocks import Block
from inspector.support.counted_words import counted
from inspector.support.safe_text import shown_name

BAR = "█"
BAR_LENGTH = 24
LEGEND = "Marks in the turns: `[-…-]` removed by the repair, `{+…+}` added by the repair, `[!…!]` flagged and kept."


def render_markdown(view: ReportView) -> str:
    """The whole report as Markdown."""
    sections = [_header(view), _summary(view), _contents(view), *map(_conversation, view.conversations)]
    return "\n".join(sections)


def _header(view: ReportView) -> str:
    sources = ", ".join(inline(shown_name(source)) for source in view.sources) or "no sessions"
    when = f" on {view.generated}" if view.generated else ""
    redacted = " Secrets and e-mail addresses are redacted." if view.redacted else ""
    return f"# inspector report\n\nRead from {sources}; made by inspector {__version__}{when}.{redacted}\n"


def _summary(view: ReportView) -> str:
    lines = [
        "## Summary",
        "",
        f"**{view.sessions:,}** session{_s(view.sessions)} ({len(view.conversations):,} with findings), "
        f"**{view.turns:,}** turn{_s(view.turns)}, **{view.findings:,}** finding{_s(view.findings)}.",
        "",
    ]
    if view.by_kind:
        most = max(count for _, count in view.by_kind)
        lines += ["### Findings by kind", "", "| kind | findings | |", "|---|---:|---|"]
        lines += [
            f"| {inline(kind)} | {count:,} | {BAR * max(1, round(BAR_LENGTH * count / most))} |"
            for kind, count in view.by_kind
        ]
        lines.append("")
    lines += _rates(view.rates)
    if view.errors:
        lines += ["### Not read", "", *(f"- {inline(error)}" for error in view.errors), ""]
    return "\n".join(lines)


def _rates(rates: dict[str, Any]) -> list[str]:
    kinds = rated_kinds(rates)
    lines = [
        f"### {RATES_TITLE}",
        "",
        "Count of each kind, and per 100 tool calls in brackets (blank: none)."
        if kinds
        else f"There is {NOTHING_RATED}.",
        "",
        "| " + " | ".join(["", "calls", *(inline(kind) for kind in kinds)]) + " |",
        "|---|---:|" + "---:|" * len(kinds),
    ]
    lines += [_rate_row(label, entry, kinds) for label, entry in rate_rows(rates)]
    return [*lines, ""]


def _rate_row(label: str, entry: dict[str, Any], kinds: list[str]) -> str:
    cells = [inline(label), f"{entry['calls']:,}", *(rate_cell(entry["kinds"].get(kind)) for kind in kinds)]
    return "| " + " | ".join(cells) + " |"


def _contents(view: ReportView) -> str:
    if not view.conversations:
        return "Nothing was flagged.\n"
    items = [
        f"- {_conversation_title(conversation)} ({conversation.finding_count:,})" for conversation in view.conversations
    ]
    return "\n".join(["## Flagged conversations", "", *items, "", LEGEND, ""])


def _conversation_title(conversation: ConversationView) -> str:
    session = f" · session {inline(conversation.session_id)}" if conversation.session_id else ""
    return f"{inline(shown_name(conversation.path))}{session}"


def _conversation(conversation: ConversationView) -> str:
    lines = [
        f"## {_conversation_title(conversation)}",
        "",
        f"{inline(conversation.format)}, {counted(conversation.turn_count, 'turn', 'turns')}, "
        f"{counted(conversation.finding_count, 'finding', 'findings')}",
        "",
    ]
    if conversation.problems:
        lines += [*(f"- problem: {inline(problem)}" for problem in conversation.problems), ""]
    return "\n".join(lines + [_turn(turn) for turn in conversation.turns])


def _turn(turn: TurnView) -> str:
    turn_id = f" · {inline(turn.turn_id)}" if turn.turn_id else ""
    lines = [
        f"### Turn {turn.position} · {inline(turn.role)}{turn_id}",
        "",
        *map(_finding, turn.findings),
        "",
        "**Original**",
        "",
        _blocks(turn.original),
        "**Repaired**",
        "",
    ]
    lines.append(_blocks(turn.repaired) if turn.repaired else f"{inline(turn.note)}\n")
    return "\n".join(lines)


def _finding(finding: FindingView) -> str:
    status = f" ({inline(finding.status)})" if finding.status else ""
    fix = f" Fix: {inline(finding.fix)}" if finding.fix else ""
    return f"- **{inline(finding.severity)}** {inline(finding.kind)}{status}: {inline(finding.message)}{fix}"


def _blocks(blocks: Iterable[Block]) -> str:
    return "\n".join(
        f"*{inline(block.label)}*{' (new)' if block.new else ''}\n\n"
        f"{fenced(_marked(block.pieces)) if block.pieces else '(empty)' + chr(10)}"
        for block in blocks
    )


def _marked(pieces: Iterable[Piece]) -> str:
    """The pieces' text with each run of one mark enclosed once in that mark's brackets."""
    return "".join(
        opening + "".join(piece.text for piece in run) + closing
        for (opening, closing), run in groupby(pieces, key=_brackets)
    )


def _brackets(piece: Piece) -> tuple[str, str]:
    if REMOVED in piece.marks:
        return "[-", "-]"
    if ADDED in piece.marks:
        return "{+", "+}"
    if FAULT in piece.marks:
        return "[!", "!]"
    return "", ""


def _s(count: int) -> str:
    return "" if count == 1 else "s"
