"""Writing a repaired session file and its audit record, the same way for `inspector fix` and
the TUI's export. Nothing is overwritten without a backup."""

from __future__ import annotations

import json
import shutil
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterable, Sequence

from inspector.repair.audit import audit_entry, ran_by_call
from inspector.errors import InspectorError
from inspector.repair.execute import ExecutionResult
from inspector.sources import render_sessions
from inspector.sources.files.document import write_text_atomic
from inspector.sources.sqlite.audit_table import AUDIT_TABLE
from inspector.sources.sqlite.database import copy_database, is_sqlite
from inspector.sources.sqlite.write import export_database, is_from_sqlite
from inspector.model import Session
from inspector.repair.apply import AppliedFix


def audit_path_for(out: Path) -> Path:
    """Where the audit record of `out` goes: `OUT.audit.jsonl` beside it."""
    return out.with_name(out.name + ".audit.jsonl")


def describe_audit(audit: Path) -> str:
    """Where an export's audit record is, for a person: the `inspector_fixes` table of a database
    (an SQLite export's audit is the written database), else the JSON Lines file."""
    return f"table {AUDIT_TABLE} in {audit}" if is_sqlite(audit) else str(audit)


def backup(path: Path) -> Path:
    """Copy `path` to `PATH.bak` (or `PATH.bak.N` if that exists already) and return the copy's path.
    An SQLite database is copied with SQLite's backup API (a consistent copy even while in use)."""
    target = path.with_name(path.name + ".bak")
    number = 1
    while target.exists():
        target = path.with_name(f"{path.name}.bak.{number}")
        number += 1
    try:
        copy_database(path, target) if is_sqlite(path) else shutil.copy2(path, target)
    except OSError as exc:
        raise InspectorError(f"{target}: cannot write the backup ({exc.strerror}); nothing was changed") from None
    return target


def export(sessions: Sequence[Session], applied: Sequence[tuple[Session, AppliedFix]], out: Path,
           executions: Iterable[ExecutionResult] = ()) -> Path:
    """Write the sessions (all from one file) to `out` and the audit record beside it; returns the
    audit record's path. Both are written atomically. `executions` are the recovered calls the
    user's executor ran, recorded in the audit entries of the fixes that recovered them.

    Sessions read from an SQLite history are written into the database `out` instead (a new one,
    or the source itself in place) with their audit rows, executions included, in its
    `inspector_fixes` table. Returns `out` then."""
    if is_from_sqlite(sessions):
        return export_database(sessions, applied, out, executions)
    write_text_atomic(out, render_sessions(list(sessions)))
    audit = audit_path_for(out)
    stamp = datetime.now(timezone.utc).isoformat(timespec="seconds")
    ran = ran_by_call(executions)
    lines = [json.dumps(audit_entry(fix, session.session_id, str(session.path), stamp, ran), ensure_ascii=False) + "\n"
             for session, fix in applied]
    write_text_atomic(audit, "".join(lines))
    return audit

