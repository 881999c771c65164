"""The HTML report (`inspector report --html`): one self-contained page to attach or share.

Inline style sheet, inline SVG bars, no script and no external asset; its Content Security
Policy forbids scripts and loads of any kind, so even a mistake could not run or fetch anything.
Every text from a session or a file name is neutralised (`safe_text.neutralise`: terminal escapes,
control and invisible characters shown as visible escapes) and then HTML-escaped; ids and classes
are the report's own, never taken from a session.
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape
from typing import Any

from inspector import __version__
from inspector.report.html_style import STYLE
from inspector.report.pieces import ADDED, ELIDED, FAULT, REDACTED, REMOVED, Piece
from inspector.report.rates import NOTHING_RATED, RATES_TITLE, rate_cell, rate_rows, rated_kinds
from inspector.report.share_view import ConversationView, FindingView, ReportView, TurnView
from inspector.report.svg_bar import bar
from inspector.report.turn_blocks import Block
from inspector.support.counted_words import counted
from inspector.support.safe_text import neutralise, shown_name

POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"

# how each mark wraps a piece, innermost first
_WRAPS = (
    (REDACTED, '<span class="redacted">', "</span>"),
    (FAULT, '<mark class="fault">', "</mark>"),
    (REMOVED, "<del>", "</del>"),
    (ADDED, "<ins>", "</ins>"),
    (ELIDED, '<span class="elided">', "</span>"),
)


def render_html(view: ReportView) -> str:
    """The whole page."""
    body = "".join([_header(view), _summary(view), _contents(view), *map(_conversation, enumerate(view.conversations))])
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{POLICY}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>inspector report</title><style>{STYLE}</style></head>\n<body>\n{body}</body></html>\n"
    )


def text(value: str) -> str:
    """A text from a session or a file, safe inside HTML: neutralised, then escaped."""
    return escape(neutralise(value), quote=True)


def _header(view: ReportView) -> str:
    sources = ", ".join(text(shown_name(source)) for source in view.sources) or "no sessions"
    redacted = " Secrets and e-mail addresses are redacted." if view.redacted else ""
    return (
        f'<header><h1>inspector report</h1><p class="meta">Read from {sources}; made by inspector {escape(__version__)}'
        f"{' on ' + text(view.generated) if view.generated else ''}.{redacted}</p></header>\n"
    )


def _summary(view: ReportView) -> str:
    flagged = len(view.conversations)
    parts = [
        f'<section id="summary"><h2>Summary</h2><p><strong>{view.sessions:,}</strong> '
        f"session{_s(view.sessions)} ({flagged:,} with findings), <strong>{view.turns:,}</strong> "
        f"turn{_s(view.turns)}, <strong>{view.findings:,}</strong> finding{_s(view.findings)}.</p>"
    ]
    if view.by_kind:
        most = max(count for _, count in view.by_kind)
        rows = "".join(
            f'<tr><td class="kind">{text(kind)}</td><td class="number">{count:,}</td><td>{bar(count, most)}</td></tr>'
            for kind, count in view.by_kind
        )
        parts.append(
            '<h3>Findings by kind</h3><div class="wide"><table class="kinds"><thead><tr><th>kind</th>'
            f'<th class="number">findings</th><th>chart</th></tr></thead><tbody>{rows}</tbody></table></div>'
        )
    parts.append(_rates(view.rates))
    if view.errors:
        items = "".join(f"<li>{text(error)}</li>" for error in view.errors)
        parts.append(f'<h3>Not read</h3><ul class="errors">{items}</ul>')
    parts.append("</section>\n")
    return "".join(parts)


def _rates(rates: dict[str, Any]) -> str:
    """The rates table: all sessions, then each model and each tool with a finding, a column per
    kind found; scrolled sideways in its own box when wider than the page."""
    kinds = rated_kinds(rates)
    head = "".join(f'<th class="number">{text(kind)}</th>' for kind in kinds)
    rows = [_rate_row(label, entry, kinds) for label, entry in rate_rows(rates)]
    note = (
        "Count of each kind, and per 100 tool calls in brackets (blank: none)."
        if kinds
        else f"There is {NOTHING_RATED}."
    )
    return (
        f'<h3>{RATES_TITLE}</h3><p class="note">{note}</p>'
        f'<div class="wide"><table class="rates"><thead><tr><th></th><th class="number">calls</th>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )


def _rate_row(label: str, entry: dict[str, Any], kinds: list[str]) -> str:
    cells = "".join(f'<td class="number">{rate_cell(entry["kinds"].get(kind))}</td>' for kind in kinds)
    return f'<tr><th>{text(label)}</th><td class="number">{entry["calls"]:,}</td>{cells}</tr>'


def _contents(view: ReportView) -> str:
    if not view.conversations:
        return '<p class="note">Nothing was flagged.</p>\n'
    items = "".join(
        f'<li><a href="#c{index + 1}">{_conversation_title(conversation)}</a> ({conversation.finding_count:,})</li>'
        for index, conversation in enumerate(view.conversations)
    )
    legend = (
        '<p class="legend">In each flagged turn: <mark class="fault">flagged</mark> '
        "<del>removed by the repair</del> <ins>added by the repair</ins>.</p>"
    )
    return f"<nav><h2>Flagged conversations</h2><ul>{items}</ul>{legend}</nav>\n"


def _conversation_title(conversation: ConversationView) -> str:
    session = f" · session {text(conversation.session_id)}" if conversation.session_id else ""
    return f"{text(shown_name(conversation.path))}{session}"


def _conversation(numbered: tuple[int, ConversationView]) -> str:
    index, conversation = numbered
    anchor = f"c{index + 1}"
    problems = "".join(f"<li>{text(problem)}</li>" for problem in conversation.problems)
    return (
        f'<section class="conversation" id="{anchor}"><h2>{_conversation_title(conversation)}</h2>'
        f'<p class="meta">{text(conversation.format)}, {counted(conversation.turn_count, "turn", "turns")}, '
        f"{counted(conversation.finding_count, 'finding', 'findings')}</p>"
        + (f'<ul class="problems">{problems}</ul>' if problems else "")
        + "".join(_turn(anchor, turn) for turn in conversation.turns)
        + "</section>\n"
    )


def _turn(anchor: str, turn: TurnView) -> str:
    turn_id = f" <code>{text(turn.turn_id)}</code>" if turn.turn_id else ""
    findings = "".join(map(_finding, turn.findings))
    repaired = _blocks(turn.repaired) if turn.repaired else f'<p class="note">{text(turn.note)}</p>'
    return (
        f'<article class="turn" id="{anchor}-t{turn.position}" data-turn="{turn.position}">'
        f'<h3>Turn {turn.position} · {text(turn.role)}{turn_id}</h3><ul class="findings">{findings}</ul>'
        f'<div class="sides"><section class="side original"><h4>Original</h4>{_blocks(turn.original)}</section>'
        f'<section class="side repaired"><h4>Repaired</h4>{repaired}</section></div></article>\n'
    )


def _finding(finding: FindingView) -> str:
    status = f' <span class="status">{text(finding.status)}</span>' if finding.status else ""
    fix = f'<p class="fix">Fix: {text(finding.fix)}</p>' if finding.fix else ""
    return (
        f'<li class="finding severity-{escape(finding.severity)}"><span class="severity">'
        f'{text(finding.severity)}</span> <span class="kind">{text(finding.kind)}</span>{status}'
        f'<p class="message">{text(finding.message)}</p>{fix}</li>'
    )


def _blocks(blocks: Iterable[Block]) -> str:
    return "".join(
        f'<div class="block{" new" if block.new else ""}"><div class="label">{text(block.label)}</div>'
        + (f"<pre>{''.join(map(_piece, block.pieces))}</pre>" if block.pieces else '<pre class="empty">(empty)</pre>')
        + "</div>"
        for block in blocks
    )


def _piece(piece: Piece) -> str:
    shown = text(piece.text)
    for mark, opening, closing in _WRAPS:
        if mark in piece.marks:
            shown = f"{opening}{shown}{closing}"
    return shown


def _s(count: int) -> str:
    return "" if count == 1 else "s"
