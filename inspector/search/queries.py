"""Searching the index: the turns whose words match (best first), or with no words the turns with
findings that match the facets (newest first); and the counts of findings by kind, tool, model
and agent over the sessions a search matches (`facet_counts`)."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

from inspector.errors import InspectorError
from inspector.search.documents import MATCH_END, MATCH_START
from inspector.search.filters import SearchFilter, finding_conditions, session_conditions, turn_conditions, where
from inspector.search.query_words import fts_query

SNIPPET_TOKENS = 16  # words of a snippet around the match
FACETS = ("kind", "tool", "model", "agent")
UNKNOWN = "(unknown)"  # a finding's tool or model, a session's agent, not known


def _selected(turn: str, role: str) -> str:
    """The columns of a hit, its turn's number being `turn` and its role `role`."""
    return (
        f"files.path, s.session_id, s.number, {turn}, {role}, s.agent, s.format, s.project, t.model, s.date, "
        "(SELECT group_concat(kind, ' ') FROM (SELECT DISTINCT kind FROM findings k WHERE k.session = s.id "
        f"AND k.turn = {turn} AND k.role = {role} ORDER BY kind))"
    )


# What a turn found by its findings alone shows: its text, else its calls, else its results (a
# reply that only calls, a tool's result), so that no hit shows an empty line.
_SHOWN_TEXT = "coalesce(nullif(turn_text.text, ''), nullif(turn_text.calls, ''), nullif(turn_text.results, ''), '')"


@dataclass(frozen=True)
class Hit:
    """A turn found: its session (file, session id, number in the file), the turn's number and
    role, the session's facets, the turn's model, the kinds of its findings, and a snippet whose
    matched words lie between `MATCH_START` and `MATCH_END`."""

    path: str
    session_id: str | None
    session: int
    turn: int
    role: str
    agent: str
    format: str
    project: str
    model: str | None
    date: float
    kinds: tuple[str, ...]
    snippet: str


def search(connection: sqlite3.Connection, typed: str, chosen: SearchFilter, limit: int) -> list[Hit]:
    """At most `limit` turns matching the words `typed` and the facets `chosen`."""
    words = fts_query(typed)
    conditions, parameters = session_conditions(chosen)
    turned, turn_parameters = turn_conditions(chosen)
    if words:
        # bm25() rather than `rank`: ordering by `rank` makes FTS5 score every match before the
        # facets are checked; bm25() is computed only for the turns that pass them (same order).
        sql = (
            f"SELECT {_selected('t.number', 't.role')}, snippet(turn_text, -1, ?, ?, '…', {SNIPPET_TOKENS}) FROM turn_text "
            f"JOIN turns t ON t.words = turn_text.rowid JOIN sessions s ON s.id = t.session JOIN files ON files.id = s.file "
            f"WHERE turn_text MATCH ? AND {where(conditions + turned)} ORDER BY bm25(turn_text) LIMIT ?"
        )
        arguments = [MATCH_START, MATCH_END, words, *parameters, *turn_parameters, limit]
    else:
        found, found_parameters = finding_conditions(chosen)
        sql = (
            f"SELECT {_selected('flagged.turn', 'flagged.role')}, substr({_SHOWN_TEXT}, 1, 200) FROM "
            "(SELECT DISTINCT session, turn, role FROM findings f WHERE "
            f"{where(found)}) AS flagged JOIN sessions s ON s.id = flagged.session JOIN files ON files.id = s.file "
            "LEFT JOIN turns t ON t.session = s.id AND t.number = flagged.turn AND t.role = flagged.role "
            f"LEFT JOIN turn_text ON turn_text.rowid = t.words WHERE {where(conditions)} "
            "ORDER BY s.date DESC, files.path, s.number, flagged.turn LIMIT ?"
        )
        arguments = [*found_parameters, *parameters, limit]
    return [_hit(row) for row in _rows(connection, sql, arguments)]


def facet_counts(connection: sqlite3.Connection, typed: str, chosen: SearchFilter) -> dict[str, dict[str, int]]:
    """The findings of the sessions matching `typed` and `chosen` (of its kind and tool, when
    given), counted by kind, tool, model and agent, most first."""
    words = fts_query(typed)
    conditions, parameters = session_conditions(chosen)
    if words:
        turned, turn_parameters = turn_conditions(chosen)
        matched = (
            "SELECT DISTINCT t.session FROM turn_text JOIN turns t ON t.words = turn_text.rowid "
            f"JOIN sessions s ON s.id = t.session WHERE turn_text MATCH ? AND {where(conditions + turned)}"
        )
        matched_parameters: list[Any] = [words, *parameters, *turn_parameters]
    else:
        matched = f"SELECT s.id FROM sessions s WHERE {where(conditions)}"
        matched_parameters = list(parameters)
    found, found_parameters = finding_conditions(chosen)
    columns = {
        "kind": "f.kind",
        "tool": f"coalesce(f.tool, '{UNKNOWN}')",
        "model": f"coalesce(f.model, '{UNKNOWN}')",
        "agent": f"coalesce(nullif(s.agent, ''), s.format, '{UNKNOWN}')",
    }
    # One statement: the matching sessions' findings are gathered once, then counted by each facet.
    gathered = ", ".join(f"{column} AS {facet}" for facet, column in columns.items())
    counted = " UNION ALL ".join(
        f"SELECT {order}, {facet}, count(*) FROM gathered GROUP BY {facet}" for order, facet in enumerate(FACETS)
    )
    sql = (
        f"WITH gathered AS MATERIALIZED (SELECT {gathered} FROM findings f JOIN sessions s ON s.id = f.session "
        f"WHERE f.session IN ({matched}) AND {where(found)}) {counted} ORDER BY 1, 3 DESC, 2"
    )
    counts: dict[str, dict[str, int]] = {facet: {} for facet in FACETS}
    for order, value, n in _rows(connection, sql, [*matched_parameters, *found_parameters]):
        counts[FACETS[order]][str(value)] = n
    return counts


def _rows(connection: sqlite3.Connection, sql: str, arguments: list[Any]) -> list[tuple[Any, ...]]:
    try:
        return connection.execute(sql, arguments).fetchall()
    except sqlite3.Error as error:  # the query is quoted term by term: this is the index's fault
        raise InspectorError(f"the search index could not answer ({error}); --reindex rebuilds it") from None


def _hit(row: tuple[Any, ...]) -> Hit:
    path, session_id, number, turn, role, agent, format_name, project, model, date, kinds, snippet = row
    return Hit(
        path,
        session_id,
        number,
        turn,
        role,
        agent,
        format_name,
        project,
        model,
        date,
        tuple((kinds or "").split()),
        snippet,
    )
