"""Every row a conversation's write changed, with its image before and after: what the audit
table `inspector_changes` keeps (the backup a server's database has) and `inspector undo` reverts.

The rows the write may change (the schema writer's `changed_rows`) are imaged before it and
after it; a row whose image differs is a change: updated (both images), inserted (no image
before) or deleted (no image after). SQLite's write holds the whole database's lock; PostgreSQL's writer
(`inspector.sources.postgres.locked_batch`) locks a batch's rows, compares them with the rows as
the fix read them (`check_unchanged`: a row another program changed since is refused, never
overwritten) and images only the rows whose version changed.

A secret the write masked (`Session.masked`) is masked in the images before too, so that the
audit never keeps what the fix took out of the rows: the secret stays only where the database
was read from (the input of `fix -o`, or the backup `fix --in-place` made), and `undo` puts the
row back as it was with the secret still masked.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from inspector.errors import InspectorError
from inspector.model import AppliedFix, Session
from inspector.sources.base import WrittenFix
from inspector.sources.schemas.contract import SchemaWriter
from inspector.sources.sql.audit_table import CHANGES_TABLE
from inspector.sources.sql.statements import Image, Scope, Statements
from inspector.support.secret_patterns import masked_everywhere

Images = dict[tuple[str, str], Image]


@dataclass(frozen=True)
class RowChange:
    """One row a write changed: its table and key, its image before (None: inserted) and after
    (None: deleted)."""

    session_id: str | None
    table: str
    key: str
    before: Image | None
    after: Image | None


def write_recorded(
    db: Statements, writer: SchemaWriter, session: Session, fixes: Sequence[AppliedFix], stamp: str
) -> tuple[list[WrittenFix], list[RowChange] | None]:
    """Write `session` with the schema's `writer`, imaging the rows it may change before and
    after; the audit rows and the changes (None when the schema's rows cannot be named)."""
    if writer.changed_rows is None:
        return writer.write(db, session, fixes, stamp), None
    scope = writer.changed_rows(db, session)
    before = images(db, scope)
    written = writer.write(db, session, fixes, stamp)
    return written, changes(session.session_id, before, images(db, scope), session.masked)


def images(db: Statements, scope: Scope) -> Images:
    """The images of the rows `scope` names, by (table, key)."""
    return {
        (table, key): image for table, where, params in scope for key, image in db.images(table, where, params).items()
    }


def check_unchanged(session: Session, now: Images, as_read: Images) -> None:
    """Fail when a row read with the conversation is no longer as it was read."""
    for (table, key), image in as_read.items():
        if now.get((table, key)) != image:
            raise InspectorError(
                f"conversation {session.session_id}: {table} row {shown_key(key)} changed since this fix "
                "read it (another program wrote it meanwhile); run the fix again"
            )


def changes(
    session_id: str | None, before: Images, after: Images, masks: Iterable[tuple[str, str]] = ()
) -> list[RowChange]:
    """The rows whose images differ, in a stable order; each image before with the secrets of
    `masks` (the write's) masked."""
    masks = tuple(masks)
    return [
        RowChange(session_id, table, key, _masked(before.get((table, key)), masks), after.get((table, key)))
        for table, key in sorted(before.keys() | after.keys())
        if before.get((table, key)) != after.get((table, key))
    ]


def _masked(image: Image | None, masks: tuple[tuple[str, str], ...]) -> Image | None:
    """The image with every secret of `masks` masked in its text cells (as they are, or as JSON holds them)."""
    if image is None or not masks:
        return image
    return {
        column: masked_everywhere(value, masks) if isinstance(value, str) else value for column, value in image.items()
    }


def record_changes(db: Statements, run: str, row_changes: Sequence[RowChange]) -> None:
    """Insert the changes of `run` into `inspector_changes` (in the caller's transaction)."""
    db.executemany(
        f'INSERT INTO {CHANGES_TABLE} (run, session_id, "table", row_key, before, after) VALUES (?, ?, ?, ?, ?, ?)',
        [
            (run, change.session_id, change.table, change.key, _json(change.before), _json(change.after))
            for change in row_changes
        ],
    )


def _json(image: Image | None) -> str | None:
    return None if image is None else json.dumps(image, ensure_ascii=False, sort_keys=True)


def shown_key(key: str) -> str:
    """A row's key as a person reads it: `6` for `[6]`."""
    value = json.loads(key)
    return str(value[0] if isinstance(value, list) and len(value) == 1 else value)
