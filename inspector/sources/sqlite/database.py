"""Opening an SQLite history: checking a file is a database, opening it read-only with a busy
timeout, turning SQLite's errors into one-line `InspectorError`s, and copying a database with
SQLite's backup API.

Reading never changes a database: it is opened with a `mode=ro` URI, so not even a journal is
created; a database in WAL mode is the one case where files appear beside it (SQLite creates the
`-wal` and `-shm` files it needs to read one, if they are missing; the database itself is not
touched). A database a killed program left with a hot journal is reported as such, with how to
roll it back.

Every connection treats the file as untrusted, as SQLite advises for files from elsewhere: nothing
the file defines may run but SQLite's own functions that cannot reach past their arguments, yet a
schema indexing JSON (Kilo CLI's `json_extract` indexes) opens. SQLite's `trusted_schema = OFF`
would refuse that schema whole (`json_extract` is deterministic but not marked harmless), so the
connection keeps the schema trusted and narrows it itself (`untrusting`):

- the only functions a file's schema can name are SQLite's built-in ones: Python registers none
  on these connections and never enables loading an extension, and SQLite refuses the built-ins
  it marks direct-only (`load_extension`, `fts3_tokenizer`) in any schema, trusted or not;
- every statement compiled on the connection, with the file's views and triggers it brings in,
  passes an authorizer that lets a function run only when SQLite marks it harmless (innocuous) or
  deterministic, its result a function of its arguments alone (`PURE_FUNCTIONS`): the same as
  `trusted_schema = OFF` allows, plus the JSON functions;
- the expressions of the table definitions (indexes, generated columns, CHECK), which the
  authorizer does not see, SQLite itself limits to deterministic functions; a column's DEFAULT
  runs only when a row is inserted, on a write;
- the file's triggers run only on a write, where `triggers.TriggerGuard` refuses them unless
  allowed (`--allow-triggers` opens the file trusted); no reader selects from a view;
- the connection is read-only (`mode=ro`) unless it writes a repair, and defensive
  (`SQLITE_DBCONFIG_DEFENSIVE`, Python 3.12 and later) so it cannot be used to corrupt the file.

Where SQLite cannot list its functions (`PRAGMA function_list` left out of its build), the
connection falls back to `trusted_schema = OFF`.
"""

from __future__ import annotations

import shlex
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from urllib.parse import quote as quote_url

from inspector.errors import InspectorError
from inspector.sources.location import is_sqlite
from inspector.support.safe_text import shown_name

BUSY_TIMEOUT = 5.0  # seconds to wait for another program's lock before giving up
# the flags of `PRAGMA function_list` (sqlite3.h's SQLITE_INNOCUOUS, _DETERMINISTIC, _DIRECTONLY)
INNOCUOUS, DETERMINISTIC, DIRECT_ONLY = 0x200000, 0x800, 0x80000


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
    (a `mode=ro` URI) unless asked otherwise. Unless `trusted`, no statement, nor the file's views
    and triggers it brings in, may call a function but SQLite's harmless or deterministic ones,
    and the connection cannot be used to corrupt the file (defensive mode, Python 3.12 and
    later): see the module's docstring."""
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
        untrusting(conn)
        if hasattr(conn, "setconfig") and hasattr(sqlite3, "SQLITE_DBCONFIG_DEFENSIVE"):
            conn.setconfig(sqlite3.SQLITE_DBCONFIG_DEFENSIVE, True)
    return conn


def untrusting(conn: sqlite3.Connection) -> None:
    """Let the file's schema open with SQLite's JSON functions in it, while every statement may
    call only `PURE_FUNCTIONS` (`trusted_schema = OFF` where SQLite cannot list its functions)."""
    if not pure_functions():
        conn.execute("PRAGMA trusted_schema = OFF")
        return
    conn.execute("PRAGMA trusted_schema = ON")
    conn.set_authorizer(only_pure_functions)


def only_pure_functions(
    action: int, first: str | None, second: str | None, database: str | None, source: str | None
) -> int:
    """SQLite's authorizer: deny calling a function that is not one of `pure_functions()` (where
    SQLite lists them)."""
    names = pure_functions()
    if action == sqlite3.SQLITE_FUNCTION and names and (second or "").lower() not in names:
        return sqlite3.SQLITE_DENY
    return sqlite3.SQLITE_OK


@cache
def pure_functions() -> frozenset[str]:
    """The names of SQLite's functions whose every form SQLite marks harmless (innocuous) or
    deterministic, and none direct-only; empty where SQLite cannot list them."""
    conn = sqlite3.connect(":memory:")
    try:
        listed = conn.execute("PRAGMA function_list").fetchall()
    except sqlite3.Error:
        listed = []
    finally:
        conn.close()
    impure = {
        name for name, _, _, _, _, flags in listed if not flags & (INNOCUOUS | DETERMINISTIC) or flags & DIRECT_ONLY
    }
    return frozenset(name.lower() for name, *_ in listed if name not in impure)


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
