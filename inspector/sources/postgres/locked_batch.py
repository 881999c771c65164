"""Writing a batch of conversations to PostgreSQL under their rows' locks, in a few round trips
whatever the batch's size and its conversations' length (each statement to a server is a round
trip: a conversation at a time, locks, checks and images took about forty).

The rows each conversation's write may change (the schema writer's `changed_rows`) are locked in one pipeline,
conversation after conversation and each table's rows in key order (`FOR UPDATE`, waiting up to
the lock timeout for another program's lock), which gives each row's version (`xmin`: the
transaction that wrote it as it now is, which any update changes); their versions as the fix read
them come from the snapshot, in one more. A row whose version differs is compared whole (its
image) with the snapshot's: a row changed or gone since the fix read it refuses the fix, so
another program's update is never overwritten. Only then are the conversations written, by the
schema's writer. The versions read again after the write name the rows it changed (a locked row
with a new version or gone: only this transaction can have updated or deleted it; a new row whose
version is this transaction's, never one another program added meanwhile, which undo would
delete), and only those are imaged: before, as the fix read them (the snapshot's image, which the
lock has kept as it was; for a row another program added between the read and the lock, its image
taken under the lock before the write), and after. The writes run at the transaction's top level
(no savepoint, whose rows would carry another id).
"""

from __future__ import annotations

from collections.abc import Sequence

from inspector.model import AppliedFix, Session
from inspector.sources.base import WrittenFix
from inspector.sources.postgres.statements import PostgresStatements, Versions, canonical_key
from inspector.sources.schemas.contract import SchemaWriter
from inspector.sources.sql.row_changes import Images, RowChange, changes, check_unchanged

Written = tuple[list[WrittenFix], list[RowChange] | None]


def write_locked(
    db: PostgresStatements,
    as_read: PostgresStatements,
    writer: SchemaWriter,
    batch: Sequence[tuple[Session, Sequence[AppliedFix]]],
    stamp: str,
) -> list[Written]:
    """Lock the rows of every conversation of `batch`, refuse any changed since it was read
    through `as_read`, write each with the schema's `writer`, and image the rows the writes
    changed; for each conversation, its audit rows and its changed rows (None when its rows
    cannot be named)."""
    scopes = [None if writer.changed_rows is None else writer.changed_rows(db, session) for session, _ in batch]
    named = [scope or [] for scope in scopes]
    locked = db.versions(named, lock=True)
    read = as_read.versions(named)
    _refuse_changed([session for session, _ in batch], locked, read, db, as_read)
    appeared = db.images_of(key for now, then in zip(locked, read) for key in now.keys() - then.keys())
    with db.pipelined():  # a statement whose result the writer does not read waits for no answer
        written = [writer.write(db, session, fixes, stamp) for session, fixes in batch]
    after, mine = db.versions(named), db.transaction_id()
    changed = [
        sorted(
            key
            for key in now.keys() | later.keys()
            if now.get(key) != later.get(key) and (key in now or later[key] == mine)
        )
        for now, later in zip(locked, after)
    ]
    before = {**as_read.images_of(key for keys, then in zip(changed, read) for key in keys if key in then), **appeared}
    after_images = db.images_of(key for keys in changed for key in keys)
    return [
        (
            wrote,
            None
            if scope is None
            else changes(session.session_id, _of(before, keys), _of(after_images, keys), session.masked),
        )
        for (session, _), scope, wrote, keys in zip(batch, scopes, written, changed)
    ]


def _refuse_changed(
    sessions: list[Session],
    locked: list[Versions],
    read: list[Versions],
    db: PostgresStatements,
    as_read: PostgresStatements,
) -> None:
    """Fail naming the first conversation with a row no longer as the fix read it: its version
    changed and so did its image, or it is gone."""
    differing = [
        sorted(key for key, version in then.items() if now.get(key) != version) for now, then in zip(locked, read)
    ]
    wanted = [key for keys in differing for key in keys]
    if not wanted:
        return
    now, then = db.images_of(wanted), as_read.images_of(wanted)
    for session, keys in zip(sessions, differing):
        check_unchanged(session, _of(now, keys), _of(then, keys))


def _of(images: Images, keys: list[tuple[str, str]]) -> Images:
    """The images of the rows `keys` names (key texts), by table and key as the audit writes it."""
    return {(table, canonical_key(key)): images[table, key] for table, key in keys if (table, key) in images}
