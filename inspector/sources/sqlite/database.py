"""Opening an SQLite history: checking a file is a database, opening it read-only with a busy
timeout, turning SQLite's errors into one-line `InspectorError`s, and copying a database with
SQLite's backup API.

Reading never changes a database: it is opened with a `mode=ro` URI, so not even a journal is
created; a database in WAL mode is the one case where files appear beside it (SQLite creates the
`-wal` and `-shm` files it needs to read one, if they are missing; the database itself is not
touched). Every connection opens the file as untrusted, as SQLite advises for files from
elsewhere (`PRAGMA trusted_schema = OFF`, and `SQLITE_DBCONFIG_DEFENSIVE` where Python exposes it).
A database a killed program left with a hot journal is reported as such, with how to roll it back.
"""

from __future__ import annotations

import shlex
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote as quote_url

from inspector.errors import InspectorError
from inspector.sources.location import is_sqlite
from inspector.support.safe_text import shown_name

BUSY_TIMEOUT = 5.0  # seconds to wait for another program's lock before giving up


def check_header(path: Path) -> None:
    """Fail with one line unless `path` is a regular file that starts with SQLite's header."""
    if not path.exists():
        raise InspectorError(f"{shown_name(path)}: no such file")
    if path.is_dir():
        raise InspectorError(f"{shown_name(path)}: is a directory, not a database")
    if not path.is_file():
        raise InspectorError(
            f"{shown_name(path)}: is a pipe or a device, not a database file (SQLite reads regular files only)"
        )
    if path.stat().st_size == 0:
        raise InspectorError(f"{shown_name(path)}: file is empty, not an SQLite database")
    if not is_sqlite(path):
        raise InspectorError(f"{shown_name(path)}: not an SQLite database (it does not start with SQLite's header)")


def connect(path: Path, read_only: bool = True, trusted: bool = False) -> sqlite3.Connection:
    """A connection to the database at `path` that waits `BUSY_TIMEOUT` for a lock; read-only
    (a `mode=ro` URI) unless asked otherwise. Unless `trusted`, its schema (views, triggers) may
    call no function or virtual table that SQLite does not deem harmless, and the connection
    cannot be used to corrupt the file (defensive mode, Python 3.12 and later)."""
    path = Path(path)
    if not path.exists():
        raise InspectorError(f"{shown_name(path)}: no such file")
    mode = "ro" if read_only else "rw"
    try:
        conn = sqlite3.connect(
            f"file:{quote_url(str(path.resolve()))}?mode={mode}", uri=True, timeout=BUSY_TIMEOUT, isolation_level=None
        )
    except sqlite3.Error as exc:
        raise database_error(path, exc) from None
    if not trusted:
        conn.execute("PRAGMA trusted_schema = OFF")
        if hasattr(conn, "setconfig") and hasattr(sqlite3, "SQLITE_DBCONFIG_DEFENSIVE"):
            conn.setconfig(sqlite3.SQLITE_DBCONFIG_DEFENSIVE, True)
    return conn


@contextmanager
def reading(path: Path) -> Iterator[sqlite3.Connection]:
    """The database at `path` opened read-only, with SQLite errors mapped to `InspectorError`s."""
    conn = connect(path)
    try:
        with mapped_errors(path):
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()  # fails here when not a database
            yield conn
    finally:
        conn.close()


@contextmanager
def mapped_errors(path: Path, doing: str = "") -> Iterator[None]:
    """Turn any `sqlite3.Error` raised inside into one `InspectorError` line about `path`."""
    try:
        yield
    except sqlite3.Error as exc:
        raise database_error(path, exc, doing) from None


def database_error(path: Path, exc: sqlite3.Error, doing: str = "") -> InspectorError:
    """One line saying what went wrong with the database at `path`, and what to do about it."""
    text = str(exc)
    lowered = text.lower()
    suffix = f" while {doing}" if doing else ""
    if "locked" in lowered or "busy" in lowered:
        return InspectorError(
            f"{shown_name(path)}: the database is locked by another program (waited {BUSY_TIMEOUT:g} s)"
            f"{suffix}; close that program or try again"
        )
    if "not a database" in lowered or "malformed" in lowered or "disk image" in lowered:
        return InspectorError(f"{shown_name(path)}: not a readable SQLite database ({text}){suffix}")
    if getattr(exc, "sqlite_errorname", "") == "SQLITE_READONLY_ROLLBACK":
        journal = path.with_name(path.name + "-journal")
        return InspectorError(
            f"{shown_name(path)}: has an unfinished write (a hot journal, {journal.name}, left by a program "
            f"that stopped while writing){suffix}; open it once with write access to roll it back, "
            f"e.g. `sqlite3 {shlex.quote(str(path))} 'PRAGMA integrity_check'`, then try again"
        )
    if "readonly" in lowered or "read-only" in lowered:
        return InspectorError(
            f"{shown_name(path)}: the database is read-only ({text}){suffix}; write a new one with -o OUT"
        )
    if "unable to open" in lowered:
        return InspectorError(f"{shown_name(path)}: cannot open the database ({text}){suffix}")
    return InspectorError(f"{shown_name(path)}: SQLite error{suffix}: {text}")


def has_table(conn: sqlite3.Connection, name: str) -> bool:
    """Whether the database has a table `name`."""
    return conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [name]).fetchone() is not None


def copy_database(source: Path, target: Path) -> None:
    """Copy the database at `source` to `target` (a new or empty file) with SQLite's backup API,
    from a read-only connection of its own: a consistent copy of the last committed state, even
    while another program uses it."""
    with mapped_errors(source, f"copying it to {shown_name(target)}"):
        reader = connect(source)
        try:
            writer = sqlite3.connect(str(target))
            try:
                reader.backup(writer)
            finally:
                writer.close()
        finally:
            reader.close()
