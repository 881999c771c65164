"""The facets a search is narrowed by, as SQL: the session's (agent, project, model, date) and
the turn's (a finding's kind, a tool it calls or a finding names). Values are always passed as
parameters, never written into the SQL."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class SearchFilter:
    """What to keep: `kind` a finding's kind in the turn; `tool` a tool the turn calls or one of
    its findings names; `model` part of a model's name (any case); `agent` the agent or the format
    (any case); `project` part of the project's folder (any case); `since`/`until` the session's
    date (seconds since the epoch; from `since`, before `until`)."""

    kind: str | None = None
    tool: str | None = None
    model: str | None = None
    agent: str | None = None
    project: str | None = None
    since: float | None = None
    until: float | None = None


def session_conditions(chosen: SearchFilter) -> tuple[list[str], list[Any]]:
    """The conditions on the sessions table `s`, and their parameters."""
    conditions: list[str] = []
    parameters: list[Any] = []
    if chosen.agent is not None:
        conditions.append("(lower(s.agent) = lower(?) OR lower(s.format) = lower(?))")
        parameters += [chosen.agent, chosen.agent]
    for column, value in (("s.project", chosen.project), ("s.models", chosen.model)):
        if value is not None:
            conditions.append(f"instr(lower({column}), lower(?)) > 0")
            parameters.append(value)
    if chosen.since is not None:
        conditions.append("s.date >= ?")
        parameters.append(chosen.since)
    if chosen.until is not None:
        conditions.append("s.date < ?")
        parameters.append(chosen.until)
    return conditions, parameters


def finding_conditions(chosen: SearchFilter, findings: str = "f") -> tuple[list[str], list[Any]]:
    """The conditions on a findings table (`findings`) for `kind` and `tool`, and their parameters."""
    conditions: list[str] = []
    parameters: list[Any] = []
    for column, value in (("kind", chosen.kind), ("tool", chosen.tool)):
        if value is not None:
            conditions.append(f"{findings}.{column} = ?")
            parameters.append(value)
    return conditions, parameters


def turn_conditions(chosen: SearchFilter) -> tuple[list[str], list[Any]]:
    """The conditions on a turn `t` of the session `s` for `kind` and `tool`: with a kind, a
    finding of that kind (about that tool, with one) in the turn; with a tool alone, the turn
    calls it or a finding in it names it."""
    if chosen.kind is None and chosen.tool is None:
        return [], []
    found, parameters = finding_conditions(chosen, "f")
    exists = f"EXISTS (SELECT 1 FROM findings f WHERE f.session = s.id AND f.turn = t.number AND f.role = t.role AND {' AND '.join(found)})"
    if chosen.kind is not None:
        return [exists], parameters
    return [f"(instr(' ' || t.tools || ' ', ' ' || ? || ' ') > 0 OR {exists})"], [chosen.tool, *parameters]


def where(conditions: list[str]) -> str:
    """`conditions` joined for a WHERE clause (always true when there are none)."""
    return " AND ".join(conditions) if conditions else "1"
