"""The detail's header: which turn is shown and, for a call, where its result is (for a result,
where its call ran), from `inspector.tui.review.call_links`; then when it was written, by which
model and with how many tokens, where the record says (`inspector.tui.review.turn_meta`)."""

from __future__ import annotations

from textual.content import Content

from inspector.model import Turn
from inspector.support.safe_text import one_line
from inspector.tui.review.call_links import CallLinks
from inspector.tui.review.turn_meta import turn_meta

LISTED = 5  # turns named at most; the others are counted
NO_LINK = "This turn holds no call and no result"


def header_line(turn: Turn | None, links: CallLinks | None) -> Content:
    """ "Turn 18 · assistant · the result is at turn 19 (c goes there) · 2026-11-24 03:13:21 UTC ·
    gpt-4o · 1,200 in / 56 out tokens"; empty without a turn."""
    if turn is None:
        return Content("")
    phrase = link_phrase(turn, links) if links is not None else None
    line = Content.assemble((f"Turn {turn.position}", "bold"), f" · {turn.role}")
    if phrase:
        line += Content(f" · {phrase}")
    if links is not None and links.other_end(turn.position):
        line += Content.styled(" (c goes there)", "$text-muted")
    meta = turn_meta(turn).describe()
    return line + Content.styled(f" · {meta}", "$text-muted") if meta else line


def link_phrase(turn: Turn, links: CallLinks) -> str | None:
    """Where the turn's calls were answered, or where the calls its results answer were made;
    None for a turn with neither."""
    position = turn.position
    if turn.tool_calls:
        results, missing = links.results_of.get(position, []), links.unanswered.get(position, [])
        parts = [_at("the result is", "the results are", results)] if results else []
        if missing:
            parts.append(f"no result found for {one_line(', '.join(dict.fromkeys(missing)))}")
        return "; ".join(parts) or "the result is in this turn"
    if turn.tool_results:
        calls = links.calls_of.get(position, [])
        if calls:
            return _at("its call is", "its calls are", calls)  # (made there: it may not have run)
        return "no call found for this result" if position in links.unmatched else "the call is in this turn"
    return None


def _at(one: str, several: str, positions: list[int]) -> str:
    """ "the result is at turn 19", "the results are at turns 19, 20 and 3 more"."""
    if len(positions) == 1:
        return f"{one} at turn {positions[0]}"
    shown = ", ".join(str(position) for position in positions[:LISTED])
    more = f" and {len(positions) - LISTED} more" if len(positions) > LISTED else ""
    return f"{several} at turns {shown}{more}"
