"""The review screen's top line: which file and session (its place and id), and the findings
counted by decision."""

from __future__ import annotations

from textual.content import Content

from inspector.model import Location, Session
from inspector.review.counts import Counts
from inspector.support.counted_words import counted
from inspector.support.safe_text import preview, shown_name

MUTED = "$text-muted"
ID_WIDTH = 40  # a longer session id is cut short (a UUID is 36)
NARROW_ID_WIDTH = 13  # on a terminal narrower than WIDE, so the bar takes two lines at most
WIDE = 100


def status_line(
    path: Location,
    session: Session | None,
    number: int,
    sessions: int,
    counts: Counts | None,
    flagged_only: bool,
    id_width: int = ID_WIDTH,
    following: bool = False,
) -> Content:
    """'NAME · FORMAT · session N of M · id ID · T turns  flagged F  approved A ...' (the counts once
    known; the id of a session that has one, a database's conversation's, as plain text, cut to
    `id_width`), and '· following' while the file is followed as its agent writes it."""
    if session is None:
        return Content(shown_name(path.name))
    parts: list[str | tuple[str, str]] = [(shown_name(path.name), "bold"), f" · {session.format}"]
    if sessions > 1:
        parts.append(f" · session {number + 1} of {sessions}")
    if session.session_id:
        parts += [(" · id ", MUTED), (preview(str(session.session_id), id_width), "bold")]
    parts.append(f" · {counted(len(session.turns), 'turn', 'turns')}  ")
    if counts is not None:
        for label, value, style in (
            ("flagged", counts.flagged, "bold"),
            ("approved", counts.approved, "bold $text-success"),
            ("edited", counts.edited, "bold"),
            ("skipped", counts.skipped, "bold"),
            ("pending", counts.pending, "bold $text-warning"),
        ):
            parts += [(f"{'' if label == 'flagged' else ' · '}{label} ", MUTED), (str(value), style)]
    if flagged_only:
        parts.append((" · flagged only", "$text-accent"))
    if following:
        parts.append((" · following", "$text-accent"))
    return Content.assemble(*parts)
