"""Writing repaired conversations back to an SQLite history, the same way for `inspector fix` and
the TUI's export (both go through `inspector.repair.write.export`).

A new database (`-o OUT`) is a copy of the source made with SQLite's backup API into a temporary
file beside OUT, repaired, then renamed over OUT. In place, the caller has already saved
`PATH.bak` (with the backup API too). Either way every change is applied in one transaction, with
one row per applied fix in the audit table `inspector_fixes`; any failure rolls the whole
transaction back and is reported as one line saying the file is unchanged.

A schema's writer is a function `(conn, session, fixes, stamp) -> list[AuditRow]` that
writes one repaired session; `WRITERS` maps schema names to them.
"""

from __future__ import annotations

import os
import sqlite3
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Collection, Iterable, Iterator, Sequence

from inspector.repair.audit import ran_by_call
from inspector.errors import InspectorError
from inspector.repair.execute import ExecutionResult, results_by_call
from inspector.sources.sqlite import llm_fork as sqlite_llm_fork, rubyllm_write as sqlite_rubyllm_write, text_write as sqlite_text_write
from inspector.sources.sqlite.audit_table import AuditRow, create_table, record
from inspector.sources.sqlite.database import SqliteSource, connect, copy_database, database_error
from inspector.model import Session
from inspector.repair.apply import AppliedFix, accepted_findings, apply_fixes
from inspector.scan.scanner import ScanResult

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
    ran = ran_by_call(executions)
    by_session: dict[str | None, list[AppliedFix]] = {}
    for session, fix in applied:
        by_session.setdefault(session.session_id, []).append(fix)
    source = sessions[0].document.path
    out = Path(out)
    repaired = ((session, by_session.get(session.session_id, [])) for session in sessions)
    return _write(source, out, out.resolve() == source.resolve(), repaired, ran)


def fix_history(read_from: Path, results: Iterable[ScanResult], accepted: Collection[str], out: Path,
                in_place: bool, executions: Iterable[ExecutionResult] = ()) -> tuple[int, int]:
    """`inspector fix` with memory for one conversation: each scanned conversation of `results`
    (read from `read_from`) gets its fixes of the `accepted` kinds and is written into `out` as
    it comes, all in one transaction. In place, `out` is the source and `results` are read from
    its backup; else `out` is a new database copied from `read_from`. `executions` are what the
    user's executor answered for recovered calls of these conversations (run before this write):
    each is recorded as its call's result and in the audit. Returns the number of findings and of
    fixes applied."""
    executions = list(executions)
    by_session: dict[str | None, list[ExecutionResult]] = {}
    for execution in executions:
        by_session.setdefault(execution.session_id, []).append(execution)
    counts = [0, 0]

    def repaired() -> Iterator[tuple[Session, list[AppliedFix]]]:
        for result in results:
            answered = results_by_call(by_session.get(result.session.session_id, ()))
            session, fixes = apply_fixes(result.session, accepted_findings(result.findings, accepted), answered)
            counts[0] += len(result.findings)
            counts[1] += len(fixes)
            yield session, fixes

    _write(read_from, Path(out), in_place, repaired(), ran_by_call(executions))
    return counts[0], counts[1]


def _write(source: Path, out: Path, in_place: bool, repaired: Iterable[tuple[Session, list[AppliedFix]]],
           ran: dict) -> Path:
    if in_place:
        _apply(out, out, repaired, ran, "the file is unchanged")
        return out
    if not out.parent.is_dir():
        raise InspectorError(f"{out}: its directory does not exist; nothing was written")
    temporary = out.with_name(f".{out.name}.{os.getpid()}.tmp")
    temporary.unlink(missing_ok=True)
    try:
        copy_database(source, temporary)
        _apply(temporary, source, repaired, ran, f"{out} was not written")
        os.replace(temporary, out)
    except OSError as exc:
        raise InspectorError(f"{out}: cannot write ({exc.strerror}); nothing was written") from None
    finally:
        temporary.unlink(missing_ok=True)
    return out


def _apply(path: Path, shown: Path, repaired: Iterable[tuple[Session, list[AppliedFix]]], ran: dict,
           unchanged: str) -> None:
    """Write each repaired session with its fixes into the database at `path` (named `shown` in
    messages) in one transaction, consuming `repaired` inside it."""
    stamp = datetime.now(timezone.utc).isoformat(timespec="seconds")
    conn = connect(path, read_only=False)
    try:
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute("BEGIN IMMEDIATE")
        broken_before = len(conn.execute("PRAGMA foreign_key_check").fetchall())
        create_table(conn)
        for session, fixes in repaired:
            if fixes:
                record(conn, _writer(session)(conn, session, fixes, stamp), str(session.path), stamp, ran)
        problems = conn.execute("PRAGMA foreign_key_check").fetchall()
        if len(problems) > broken_before:  # a history may hold broken keys already: add none
            raise InspectorError(f"{shown}: the repair would break {len(problems) - broken_before} "
                                 f"foreign keys (in table {problems[-1][0]})")
        conn.execute("COMMIT")
    except sqlite3.Error as exc:
        _roll_back(conn)
        error = database_error(shown, exc, "writing the repair")
        raise InspectorError(f"{error}; rolled back, {unchanged}") from None
    except InspectorError as error:
        _roll_back(conn)
        raise InspectorError(f"{error}; rolled back, {unchanged}") from None
    except BaseException:
        _roll_back(conn)
        raise
    finally:
        conn.close()


def _writer(session: Session) -> Callable[..., list[AuditRow]]:
    source: SqliteSource = session.document
    writer = WRITERS.get(source.format)
    if writer is None:
        raise InspectorError(f"{source.path}: writing back to the {source.format} schema is not supported yet")
    return writer


def _roll_back(conn: sqlite3.Connection) -> None:
    if conn.in_transaction:
        conn.execute("ROLLBACK")
