"""Reverting recorded fixes from a database's own audit (`inspector undo`), on SQLite and
PostgreSQL alike (through `statements`), inside the caller's one transaction.

A fix is undone with every fix written with it to the same conversation by the same `fix` (its
run): they changed the same rows together. Each row that run changed (`inspector_changes`) is
put back as it was before, newest run first, after checking that it still holds what the fix
wrote (its image after): a row changed since is refused, naming it, and nothing is undone. The
fixes are marked undone (`undone_at`, so they may be applied again), and the undo is recorded as
a fix of kind `undo` with its own run, whose changes are the rows it put back. Fixes written by
an older inspector, or as an `llm` fork, have no row images: they cannot be undone.

The database's own triggers would run on the rows undo writes, and could change them as they
would a fix's: as `fix`, undo refuses to run them unless `allow_triggers` (SQLite: an authorizer,
`triggers`; PostgreSQL: the tables' triggers, before anything is written, `check_written`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from typing import Any, NamedTuple
from uuid import uuid4

from inspector.errors import InspectorError
from inspector.sources.sql.audit_table import AUDIT_TABLE, CHANGES_TABLE
from inspector.sources.sql.row_changes import RowChange, record_changes, shown_key
from inspector.sources.sql.statements import Image, Statements

UNDO = "undo"
Group = tuple[str, str | None]  # a run, and the conversation it wrote to


class Recorded(NamedTuple):
    """One fix as `inspector_fixes` records it."""

    id: int
    run: str | None
    session_id: str | None
    applied_at: str
    undone_at: str | None


@dataclass(frozen=True)
class Undone:
    """What an undo reverted: the fixes, the conversations and the rows put back."""

    fixes: list[int]
    conversations: int
    rows: int


def since_time(text: str) -> str:
    """`--since TIME` (an ISO 8601 date or time, UTC unless it says otherwise) as the audit's stamps are."""
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        raise InspectorError(f"--since: {text!r} is not a date or time like 2026-01-23 or 2026-01-23T09:14") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="seconds")


def undo(
    db: Statements,
    fix_id: int | None = None,
    since: str | None = None,
    check_written: Callable[[Sequence[str]], None] | None = None,
) -> Undone:
    """Revert the fix `fix_id`, or every fix applied since `since`, or else the last `fix`'s,
    each with the fixes written with it; refuse (an `InspectorError`) when a row changed since.
    `check_written(tables)`, before anything is written, may refuse the tables undo writes (the
    rows it puts back, and the audit tables)."""
    chosen = _chosen(db, fix_id, since)
    old = [fix.id for fix in chosen if fix.run is None]
    if old:
        raise InspectorError(
            f"fix {', '.join(map(str, old))} has no recorded row images (written by an older inspector, "
            "or as an llm fork): it cannot be undone; nothing was undone"
        )
    groups = sorted(
        {(fix.run, fix.session_id) for fix in chosen if fix.run is not None},  # each has a run: refused above
        key=lambda group: -max(fix.id for fix in chosen if (fix.run, fix.session_id) == group),
    )
    if check_written is not None:
        check_written(sorted({AUDIT_TABLE, CHANGES_TABLE}.union(*(_changed_tables(db, group) for group in groups))))
    stamp = datetime.now(UTC).isoformat(timespec="seconds")
    run, put_back, undone = uuid4().hex, [], []
    for group in groups:
        fixes = _fixes_of(db, *group)
        put_back.extend(_revert(db, group, fixes))
        undone.extend(fixes)
        db.execute(
            f"UPDATE {AUDIT_TABLE} SET undone_at = ? WHERE run = ? AND {_session_is(group[1])}",
            [stamp, group[0], *_session_param(group[1])],
        )
        db.execute(
            f"INSERT INTO {AUDIT_TABLE} (applied_at, session_id, kind, edited, note, run) VALUES (?, ?, ?, 0, ?, ?)",
            [stamp, group[1], UNDO, f"undid fix {', '.join(map(str, fixes))}", run],
        )
    record_changes(db, run, put_back)
    return Undone(sorted(undone), len(groups), len(put_back))


def _chosen(db: Statements, fix_id: int | None, since: str | None) -> list[Recorded]:
    """The recorded fixes the options name (not undone ones, unless named by id: refused)."""
    if not db.has_table(AUDIT_TABLE) or "run" not in db.columns(AUDIT_TABLE) or not db.has_table(CHANGES_TABLE):
        if db.has_table(AUDIT_TABLE):
            raise InspectorError(
                "its fixes were recorded by an older inspector, without row images: they cannot be "
                "undone; nothing was undone"
            )
        raise InspectorError("no fix recorded here (no inspector_fixes table); nothing was undone")
    columns = f"id, run, session_id, applied_at, undone_at FROM {AUDIT_TABLE}"
    if fix_id is not None:
        found = [Recorded(*row) for row in db.execute(f"SELECT {columns} WHERE id = ? AND kind <> ?", [fix_id, UNDO])]
        if not found:
            raise InspectorError(f"no fix {fix_id} in {AUDIT_TABLE}; nothing was undone")
        if found[0].undone_at is not None:
            raise InspectorError(f"fix {fix_id} was undone already ({found[0].undone_at}); nothing was undone")
        return found
    if since is not None:
        found = [
            Recorded(*row)
            for row in db.execute(
                f"SELECT {columns} WHERE applied_at >= ? AND kind <> ? AND undone_at IS NULL ORDER BY id", [since, UNDO]
            )
        ]
        if not found:
            raise InspectorError(f"no fix applied since {since} is left to undo; nothing was undone")
        return found
    last = db.execute(
        f"SELECT run FROM {AUDIT_TABLE} WHERE kind <> ? AND undone_at IS NULL ORDER BY id DESC LIMIT 1", [UNDO]
    ).fetchone()
    if last is None:
        raise InspectorError("no fix is left to undo; nothing was undone")
    if last[0] is None:
        return [
            Recorded(*row)
            for row in db.execute(f"SELECT {columns} WHERE run IS NULL AND undone_at IS NULL ORDER BY id DESC LIMIT 1")
        ]
    return [Recorded(*row) for row in db.execute(f"SELECT {columns} WHERE run = ? AND undone_at IS NULL", [last[0]])]


def _fixes_of(db: Statements, run: str, session_id: str | None) -> list[int]:
    return [
        fix_id
        for (fix_id,) in db.execute(
            f"SELECT id FROM {AUDIT_TABLE} WHERE run = ? AND {_session_is(session_id)} AND kind <> ? ORDER BY id",
            [run, *_session_param(session_id), UNDO],
        )
    ]


def _changed_tables(db: Statements, group: Group) -> set[str]:
    """The tables whose rows the run changed in the conversation."""
    run, session_id = group
    return {
        table
        for (table,) in db.execute(
            f'SELECT DISTINCT "table" FROM {CHANGES_TABLE} WHERE run = ? AND {_session_is(session_id)}',
            [run, *_session_param(session_id)],
        )
    }


def _revert(db: Statements, group: Group, fixes: list[int]) -> list[RowChange]:
    """Put back every row the run changed in the conversation, after checking each still holds
    what the fix wrote; the changes made."""
    run, session_id = group
    changed = list(
        db.execute(
            f'SELECT "table", row_key, before, after FROM {CHANGES_TABLE} WHERE run = ? AND '
            f"{_session_is(session_id)} ORDER BY id DESC",
            [run, *_session_param(session_id)],
        )
    )
    put_back = []
    for table, key, before, after in changed:
        now = db.image(table, key, lock=True)
        if now != _image(after):
            raise InspectorError(
                f"conversation {session_id}: {table} row {shown_key(key)} changed since fix "
                f"{', '.join(map(str, fixes))} wrote it (another program wrote it since); "
                "nothing was undone"
            )
        put_back.append(RowChange(session_id, table, key, now, _image(before)))
    _restore_all(db, put_back)
    return put_back


def _restore_all(db: Statements, changes: list[RowChange]) -> None:
    """Restore every row, in as many passes as the tables' foreign keys need (a row inserted by
    the fix and pointed at by another must go after it): each pass restores what it can."""
    pending = changes
    while pending:
        left = [
            change
            for change in pending
            if not db.tentatively(partial(db.restore, change.table, change.key, change.after))
        ]
        if len(left) == len(pending):
            db.restore(left[0].table, left[0].key, left[0].after)  # fails again, saying why
        pending = left


def _image(text: Any) -> Image | None:
    return None if text is None else json.loads(text)


def _session_is(session_id: str | None) -> str:
    return "session_id IS NULL" if session_id is None else "session_id = ?"


def _session_param(session_id: str | None) -> list[str]:
    return [] if session_id is None else [session_id]
