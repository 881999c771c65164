"""The search screen's two lines of status: what the index's update did, and what the latest
query found (how many turns, narrowed how, in how long)."""

from __future__ import annotations

from rich.text import Text

from inspector.search import IndexUpdate
from inspector.support.counted_words import counted
from inspector.support.safe_text import one_line
from inspector.tui.search.facets import FacetChoice
from inspector.tui.search.index_access import Answer


def update_line(update: IndexUpdate) -> str:
    """The index is up to date: how many session files it covers, read, removed, unreadable."""
    if not update.files:
        return "No session files of your own to search"
    said = f"{update.files:,} session files indexed ({update.read:,} read now, {update.removed:,} removed)"
    if update.errors:
        said += f" · {len(update.errors):,} could not be read"
    return said


def answer_line(answer: Answer, limit: int, choice: FacetChoice) -> Text:
    """How many turns the answer holds (the first `limit` when there may be more), the facets
    chosen, and the time the query took."""
    found = len(answer.hits)
    if not found:
        heading = "No turn matches"
    elif found >= limit:
        heading = f"The first {found:,} turns"
    else:
        heading = counted(found, "turn", "turns")
    line = Text(heading, style="bold")
    for facet, value in choice.chosen.items():
        line.append(f" · {facet} {one_line(value)}")
    line.append(f" · {answer.seconds * 1000:,.0f} ms", style="dim")
    return line


def query_error_line(error: str) -> str:
    """Why a query failed, in one line, naming the key that rebuilds the index where the command
    line names its option."""
    return one_line(error.replace("--reindex", "ctrl+r"))
