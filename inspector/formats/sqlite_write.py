"""Writing repaired conversations back to an SQLite history, the same way for `inspector fix` and
the TUI's export (both go through `inspector.export.export`).

A new database (`-o OUT`) is a copy of the source made with SQLite's backup API into a temporary
file beside OUT, repaired, then renamed over OUT. In place, the caller has already saved
`PATH.bak` (with the backup API too). Either way every change is applied in one transaction, with
one row per applied fix in the audit table `inspector_fixes`; any failure rolls the whole
transaction back and is reported as one line saying the file is unchanged.

A schema's writer is a function `(conn, source, session, fixes, stamp) -> list[AuditRow]` that
writes one repaired session; `WRITERS` maps schema names to them.
"""

from __future__ import annotations

import os
import sqlite3
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from inspector.errors import InspectorError
from inspector.formats import sqlite_llm_fork, sqlite_rubyllm_write, sqlite_text_write
from inspector.formats.sqlite_audit import AUDIT_SCHEMA, AuditRow, record
from inspector.formats.sqlite_db import SqliteSource, connect, copy_database, database_error
from inspector.model import Session
from inspector.repair import AppliedFix

WRITERS: dict[str, Callable[..., list[AuditRow]]] = {
    "rubyllm": sqlite_rubyllm_write.write_session,
    "llm": sqlite_llm_fork.write_session,
    **{name: sqlite_text_write.write_session for name in sqlite_text_write.SCHEMAS},
}


def is_from_sqlite(sessions: Sequence[Session]) -> bool:
    """Whether the sessions were read from an SQLite history."""
    return bool(sessions) and isinstance(sessions[0].document, SqliteSource)


def export_database(sessions: Sequence[Session], applied: Sequence[tuple[Session, AppliedFix]], out: Path,
                    executions: Iterable[Any] = ()) -> Path:
    """Write the repaired sessions into `out` (the source itself for an in-place fix, else a new
    database made from a copy of it) with the audit table; returns `out`. `executions` are what
    the user's executor did with recovered calls (`ExecutionResult`s), recorded with their fixes."""
    ran = {(execution.session_id, execution.call.id): execution for execution in executions}
    source: SqliteSource = sessions[0].document
    out = Path(out)
    if out.resolve() == source.path.resolve():
        _apply(out, source, sessions, applied, ran, "the file is unchanged")
        return out
    temporary = out.with_name(f".{out.name}.{os.getpid()}.tmp")
    temporary.unlink(missing_ok=True)
    try:
        copy_database(source.path, temporary)
        _apply(temporary, source, sessions, applied, ran, f"{out} was not written")
        os.replace(temporary, out)
    except OSError as exc:
        raise InspectorError(f"{out}: cannot write ({exc.strerror}); nothing was written") from None
    finally:
        temporary.unlink(missing_ok=True)
    return out


def _apply(path: Path, source: SqliteSource, sessions: Sequence[Session],
           applied: Sequence[tuple[Session, AppliedFix]], ran: dict, unchanged: str) -> None:
    writer = WRITERS.get(source.format)
    if writer is None:
        raise InspectorError(f"{source.path}: writing back to the {source.format} schema is not supported yet")
    by_session: dict[str | None, list[AppliedFix]] = {}
    for session, fix in applied:
        by_session.setdefault(session.session_id, []).append(fix)
    stamp = datetime.now(timezone.utc).isoformat(timespec="seconds")
    conn = connect(path, read_only=False)
    try:
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute("BEGIN IMMEDIATE")
        broken_before = len(conn.execute("PRAGMA foreign_key_check").fetchall())
        conn.execute(AUDIT_SCHEMA)
        for session in sessions:
            fixes = by_session.get(session.session_id)
            if fixes:
                record(conn, writer(conn, source, session, fixes, stamp), stamp, ran)
        problems = conn.execute("PRAGMA foreign_key_check").fetchall()
        if len(problems) > broken_before:  # a history may hold broken keys already: add none
            raise InspectorError(f"{source.path}: the repair would break {len(problems) - broken_before} "
                                 f"foreign keys (in table {problems[-1][0]})")
        conn.execute("COMMIT")
    except sqlite3.Error as exc:
        _roll_back(conn)
        error = database_error(source.path, exc, "writing the repair")
        raise InspectorError(f"{error}; rolled back, {unchanged}") from None
    except InspectorError as error:
        _roll_back(conn)
        raise InspectorError(f"{error}; rolled back, {unchanged}") from None
    except BaseException:
        _roll_back(conn)
        raise
    finally:
        conn.close()


def _roll_back(conn: sqlite3.Connection) -> None:
    if conn.in_transaction:
        conn.execute("ROLLBACK")
