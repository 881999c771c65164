"""What `inspector search` prints: hits as lines of text (the matched words bold on a terminal,
between `**` in a pipe), facet counts as a table, or one JSON document (`search_document`, schema
`JSON_SCHEMA`, described in docs/search.md). Text from sessions is neutralised: no terminal
escape it holds reaches the terminal."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from inspector.search.dates import shown_date
from inspector.search.documents import MATCH_END, MATCH_START
from inspector.search.filters import SearchFilter
from inspector.search.indexer import IndexUpdate
from inspector.search.queries import Hit
from inspector.support.lazy_pattern import lazy_pattern
from inspector.support.safe_text import neutralise, shown_name

JSON_SCHEMA = 1
BOLD, PLAIN = ("\x1b[1m", "\x1b[0m"), ("**", "**")  # a match's ends on a terminal, and in a pipe
_SPACES = lazy_pattern(r"\s+")


def hits_as_text(hits: Sequence[Hit], terminal: bool) -> str:
    """Each hit in two lines: where it is (path, session id, turn, role, its findings' kinds), and
    its snippet, indented."""
    start, end = BOLD if terminal else PLAIN
    lines: list[str] = []
    for hit in hits:
        session = f"  session {shown_name(hit.session_id)}" if hit.session_id else ""
        kinds = f"  [{', '.join(hit.kinds)}]" if hit.kinds else ""
        lines.append(f"{shown_name(hit.path)}{session}  turn {hit.turn} {hit.role}{kinds}")
        shown = neutralise(_SPACES.sub(" ", hit.snippet).strip())
        lines.append("    " + shown.replace(MATCH_START, start).replace(MATCH_END, end))
    return "".join(line + "\n" for line in lines)


def facets_as_text(counts: dict[str, dict[str, int]]) -> str:
    """The counts of findings by each facet, most first."""
    lines: list[str] = []
    for facet, values in counts.items():
        lines.append(f"findings by {facet}:")
        lines.extend(f"  {count:>7,}  {shown_name(value)}" for value, count in values.items())
        if not values:
            lines.append("  none")
    return "".join(line + "\n" for line in lines)


def search_document(
    typed: str,
    chosen: SearchFilter,
    hits: Sequence[Hit],
    counts: dict[str, dict[str, int]] | None,
    update: IndexUpdate,
    index: str,
) -> dict[str, Any]:
    """The `--json` document: the query, the filter, the hits, the facet counts (None without
    `--facets`), and what the index update did."""
    return {
        "schema": JSON_SCHEMA,
        "query": typed,
        "filter": {
            "kind": chosen.kind,
            "tool": chosen.tool,
            "model": chosen.model,
            "agent": chosen.agent,
            "project": chosen.project,
            "since": None if chosen.since is None else shown_date(chosen.since),
            "until": None if chosen.until is None else shown_date(chosen.until),
        },
        "hits": [_hit(hit) for hit in hits],
        "facets": counts,
        "index": {
            "path": index,
            "files": update.files,
            "read": update.read,
            "appended": update.appended,
            "unchanged": update.unchanged,
            "removed": update.removed,
            "errors": list(update.errors),
        },
    }


def _hit(hit: Hit) -> dict[str, Any]:
    text, highlights = _highlights(hit.snippet)
    return {
        "path": hit.path,
        "session_id": hit.session_id,
        "session": hit.session,
        "turn": hit.turn,
        "role": hit.role,
        "agent": hit.agent,
        "format": hit.format,
        "project": hit.project,
        "model": hit.model,
        "date": shown_date(hit.date),
        "kinds": list(hit.kinds),
        "snippet": text,
        "highlights": highlights,
    }


def _highlights(snippet: str) -> tuple[str, list[list[int]]]:
    """The snippet without its match marks, and the [start, end) of each match in it."""
    pieces: list[str] = []
    spans: list[list[int]] = []
    length = 0
    for index, piece in enumerate(re.split(f"[{MATCH_START}{MATCH_END}]", snippet)):
        if index % 2:
            spans.append([length, length + len(piece)])
        pieces.append(piece)
        length += len(piece)
    return "".join(pieces), spans
