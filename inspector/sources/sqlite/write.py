"""Writing repaired conversations back to an SQLite history: `DatabaseWriter`, the SQLite source's
`SessionWriter`.

A new database (`-o OUT`) is a copy of the source made with SQLite's backup API into a temporary
file beside OUT, repaired, then renamed to OUT (over an existing OUT only when the person chose to
replace it). In place, the writer first takes the database's write lock (`BEGIN IMMEDIATE`,
waiting for another program's lock up to the busy timeout), then saves `PATH.bak` while holding
it: the copy is made with the backup API by a second, read-only connection, which sees exactly
the last committed state, the one the lock now protects (SQLite's backup API refuses to read
through a connection that holds a write transaction). No other program can commit between the
backup and the write, so no edit is lost, and a second `fix` waits, then finds nothing left to do.
Either way every change is applied in one transaction, with one row per applied fix in the audit
table `inspector_fixes` and one per changed row, with its before- and after-image, in
`inspector_changes` (so `inspector undo` can revert it); any failure rolls the whole transaction back
and is reported as one line saying the file is unchanged. A fix that table records as applied
already (and not undone) is not applied again.

The database's own triggers would run on the rows written, and could change them behind the
audit's back: unless `allow_triggers`, an authorizer refuses any statement that would run one,
and the write is rolled back naming the triggers (`triggers`). The connection is opened defensively
(`database.connect`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TypeVar
from uuid import uuid4

from inspector.errors import InspectorError
from inspector.model import AppliedFix, Session
from inspector.sources.base import AuditPlace, AuditRecord, SessionWriter, WriteOptions, WrittenFix, save_backup
from inspector.sources.schemas.contract import SchemaWriter
from inspector.sources.sql.audit_table import AUDIT_TABLE, create_tables, record, recorded_fixes
from inspector.sources.sql.row_changes import RowChange, record_changes, write_recorded
from inspector.sources.sqlite.database import connect, copy_database, database_error
from inspector.sources.sqlite.statements import SqliteStatements
from inspector.sources.sqlite.triggers import TriggerGuard
from inspector.support.atomic_files import file_mode, land, staged
from inspector.support.safe_text import shown_name

Done = TypeVar("Done")


class DatabaseWriter(SessionWriter):
    """One transaction on the database being written (the source in place, or a temporary copy of
    it renamed to `out` on commit), holding its write lock from the start."""

    def __init__(
        self,
        source: Path,
        out: Path,
        in_place: bool,
        schema_writer: SchemaWriter,
        options: WriteOptions = WriteOptions(),
    ) -> None:
        self._out = out
        self._schema_writer = schema_writer
        self._options = options
        self._stamp = datetime.now(UTC).isoformat(timespec="seconds")
        self._temporary: Path | None = None
        self._triggers: TriggerGuard | None = None  # the database's own, refused unless allowed
        self._run = uuid4().hex  # this write, as the audit tables name it
        self._runs: dict[str | None, str | None] = {}  # each session written -> its run (None: rows not imaged)
        self._changes: list[RowChange] = []
        if in_place:
            self._unchanged = "the file is unchanged"
            target = out
        else:
            self._unchanged = f"{shown_name(out)} was not written"
            if not out.parent.is_dir():
                raise InspectorError(f"{shown_name(out)}: its directory does not exist; nothing was written")
            target = self._temporary = staged(
                out, lambda temporary: copy_database(source, temporary), file_mode(source)
            )
        self._closed = False  # once committed or discarded
        try:
            self._conn = connect(target, read_only=False, trusted=options.allow_triggers)
        except BaseException:
            if self._temporary is not None:
                self._temporary.unlink(missing_ok=True)
            raise
        self._guarded(self._begin)

    def backup(self) -> Path:
        """Save `PATH.bak` while holding the write lock taken at the start (see the module's
        docstring); a backup that fails leaves nothing and rolls back."""
        return self._guarded(lambda: save_backup(self._out, lambda temporary: copy_database(self._out, temporary)))

    def recorded(self, session_id: str | None) -> set[tuple[int, str, str]]:
        """The fixes `inspector_fixes` records for conversation `session_id`: (turn, kind, before)."""
        return self._guarded(lambda: recorded_fixes(SqliteStatements(self._conn), session_id))

    def write(self, session: Session, fixes: Sequence[AppliedFix]) -> list[WrittenFix]:
        """Write one repaired conversation inside the transaction (nothing when it has no fix),
        imaging the rows it changes for the audit."""
        if not fixes:
            return []
        return self._guarded(lambda: self._write(session, fixes))

    def _write(self, session: Session, fixes: Sequence[AppliedFix]) -> list[WrittenFix]:
        written, changed = write_recorded(
            SqliteStatements(self._conn), self._schema_writer, session, fixes, self._stamp
        )
        self._runs[session.session_id] = None if changed is None else self._run
        self._changes.extend(changed or ())
        return written

    def commit(self, audit: Sequence[AuditRecord]) -> AuditPlace:
        """Record the audit rows, check that no foreign key broke, commit, and put a new database in
        place; returns where the audit is."""
        self._guarded(lambda: self._finish(audit))
        self._conn.close()
        self._closed = True
        if self._temporary is not None:
            try:
                land(self._temporary, self._out, self._options.replace_existing)
            except FileExistsError:
                raise InspectorError(f"{shown_name(self._out)}: exists already; nothing was written") from None
            except OSError as exc:
                raise InspectorError(
                    f"{shown_name(self._out)}: cannot write ({exc.strerror}); nothing was written"
                ) from None
        return AuditPlace(self._out, f"table {AUDIT_TABLE} in {shown_name(self._out)}")

    def discard(self) -> None:
        """Roll the transaction back and remove the temporary copy (once; again does nothing)."""
        if self._closed:
            return
        if self._conn.in_transaction:
            self._conn.execute("ROLLBACK")
        self._conn.close()
        self._closed = True
        if self._temporary is not None:
            self._temporary.unlink(missing_ok=True)

    def failed(self, error: BaseException) -> BaseException:
        """The error to report for `error` met while writing: one line saying nothing changed."""
        if self._triggers is not None and self._triggers.refused:
            return self._triggers.refusal(self._out, "this fix writes", self._unchanged)
        if isinstance(error, sqlite3.Error):
            error = database_error(self._out, error, "writing the repair")
        if isinstance(error, UnicodeEncodeError):  # SQLite's text is UTF-8, which cannot hold it
            error = InspectorError(
                f"{shown_name(self._out)}: the repair holds a lone surrogate ({error.object[error.start]!r}), "
                "which SQLite text cannot store"
            )
        elif isinstance(error, (TypeError, ValueError, KeyError, AttributeError, IndexError)):
            error = InspectorError(
                f"{shown_name(self._out)}: a stored row has a shape this schema's writer does not allow "
                f"({type(error).__name__}: {error})"
            )
        if isinstance(error, InspectorError) and "rolled back" not in str(error) and "nothing was" not in str(error):
            return InspectorError(f"{error}; rolled back, {self._unchanged}")
        return error

    def _begin(self) -> None:
        self._conn.execute("PRAGMA foreign_keys = ON")
        self._conn.execute("BEGIN IMMEDIATE")
        self._broken_before = len(self._conn.execute("PRAGMA foreign_key_check").fetchall())
        self._triggers = TriggerGuard(self._conn, self._options.allow_triggers)

    def _finish(self, audit: Sequence[AuditRecord]) -> None:
        statements = SqliteStatements(self._conn)
        create_tables(statements)
        record(statements, audit, self._runs)
        record_changes(statements, self._run, self._changes)
        problems = self._conn.execute("PRAGMA foreign_key_check").fetchall()
        if len(problems) > self._broken_before:  # a history may hold broken keys already: add none
            raise InspectorError(
                f"{shown_name(self._out)}: the repair would break {len(problems) - self._broken_before} "
                f"foreign keys (in table {problems[-1][0]})"
            )
        self._conn.execute("COMMIT")

    def _guarded(self, step: Callable[[], Done]) -> Done:
        """Run `step`; on any failure roll everything back and raise the error as one line."""
        try:
            return step()
        except BaseException as error:
            self.discard()
            raise self.failed(error) from None
