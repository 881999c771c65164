"""What every SQLite history shares: recognising a database file, opening it read-only with a busy
timeout, turning SQLite's errors into one-line `InspectorError`s, listing its tables, reading rows
conversation by conversation, and copying a database with SQLite's backup API.

Reading never changes a database: it is opened with a `mode=ro` URI, so not even a journal is
created; a database in WAL mode is the one case where files appear beside it (SQLite creates the
`-wal` and `-shm` files it needs to read one, if they are missing; the database itself is not
touched). Every connection opens the file as untrusted, as SQLite advises for files from
elsewhere (`PRAGMA trusted_schema = OFF`, and `SQLITE_DBCONFIG_DEFENSIVE` where Python exposes it).
A database a killed program left with a hot journal is reported as such, with how to roll it back.
"""

from __future__ import annotations

import json
import shlex
import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from itertools import groupby
from operator import itemgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote as quote_url

from inspector.errors import InspectorError
from inspector.sources.location import is_sqlite

if TYPE_CHECKING:  # sqlite_utils is imported when a database is opened: scans of files never pay for it
    import sqlite_utils

    from inspector.model import Turn

BUSY_TIMEOUT = 5.0  # seconds to wait for another program's lock before giving up


def check_header(path: Path) -> None:
    """Fail with one line unless `path` is a regular file that starts with SQLite's header."""
    if not path.exists():
        raise InspectorError(f"{path}: no such file")
    if path.is_dir():
        raise InspectorError(f"{path}: is a directory, not a database")
    if not path.is_file():
        raise InspectorError(f"{path}: is a pipe or a device, not a database file (SQLite reads regular files only)")
    if path.stat().st_size == 0:
        raise InspectorError(f"{path}: file is empty, not an SQLite database")
    if not is_sqlite(path):
        raise InspectorError(f"{path}: not an SQLite database (it does not start with SQLite's header)")


def connect(path: Path, read_only: bool = True, trusted: bool = False) -> sqlite3.Connection:
    """A connection to the database at `path` that waits `BUSY_TIMEOUT` for a lock; read-only
    (a `mode=ro` URI) unless asked otherwise. Unless `trusted`, its schema (views, triggers) may
    call no function or virtual table that SQLite does not deem harmless, and the connection
    cannot be used to corrupt the file (defensive mode, Python 3.12 and later)."""
    path = Path(path)
    if not path.exists():
        raise InspectorError(f"{path}: no such file")
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
def reading(path: Path) -> Iterator[sqlite_utils.Database]:
    """The database at `path` opened read-only, with SQLite errors mapped to `InspectorError`s."""
    conn = connect(path)
    try:
        with mapped_errors(path):
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()  # fails here when not a database
            import sqlite_utils

            yield sqlite_utils.Database(conn)
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
            f"{path}: the database is locked by another program (waited {BUSY_TIMEOUT:g} s)"
            f"{suffix}; close that program or try again"
        )
    if "not a database" in lowered or "malformed" in lowered or "disk image" in lowered:
        return InspectorError(f"{path}: not a readable SQLite database ({text}){suffix}")
    if getattr(exc, "sqlite_errorname", "") == "SQLITE_READONLY_ROLLBACK":
        journal = path.with_name(path.name + "-journal")
        return InspectorError(
            f"{path}: has an unfinished write (a hot journal, {journal.name}, left by a program "
            f"that stopped while writing){suffix}; open it once with write access to roll it back, "
            f"e.g. `sqlite3 {shlex.quote(str(path))} 'PRAGMA integrity_check'`, then try again"
        )
    if "readonly" in lowered or "read-only" in lowered:
        return InspectorError(f"{path}: the database is read-only ({text}){suffix}; write a new one with -o OUT")
    if "unable to open" in lowered:
        return InspectorError(f"{path}: cannot open the database ({text}){suffix}")
    return InspectorError(f"{path}: SQLite error{suffix}: {text}")


def table_columns(db: sqlite_utils.Database) -> dict[str, set[str]]:
    """Every table of the database with its column names."""
    return {table.name: {column.name for column in table.columns} for table in db.tables}


def grouped(rows: Iterable[tuple], key: int) -> Iterator[tuple[Any, list[tuple]]]:
    """Rows already ordered by their column `key` (an index), one group (key, rows) at a time."""
    for value, group in groupby(rows, key=itemgetter(key)):
        yield value, list(group)


def merge_groups(
    primary: Iterable[tuple[Any, list]], secondary: Iterable[tuple[Any, list]]
) -> Iterator[tuple[Any, list, list]]:
    """Join two group streams ordered the same way by their keys: each primary group with the
    secondary group of the same key (or an empty list). Neither stream is held whole."""
    pending = iter(secondary)
    current = next(pending, None)
    for key, rows in primary:
        while current is not None and _before(current[0], key):
            current = next(pending, None)
        if current is not None and current[0] == key:
            yield key, rows, current[1]
            current = next(pending, None)
        else:
            yield key, rows, []


def _before(left: Any, right: Any) -> bool:
    return sqlite_order(left) < sqlite_order(right)


def sqlite_order(value: Any) -> tuple[int, Any]:
    """A sort key putting values in SQLite's order: NULL first, then numbers, then text (by code
    point, as SQLite's binary collation orders UTF-8), then blobs."""
    if value is None:
        return (0, 0)
    if isinstance(value, (int, float)):
        return (1, value)
    return (2, value) if isinstance(value, str) else (3, bytes(value))


def matching(column: str, conversation_id: str | None, start: int = 0, keys: str = "") -> tuple[str, list[Any]]:
    """A `WHERE` clause keeping the rows of one conversation (none for every conversation), written
    so that an index on `column` serves it: the id as text, and as an integer when it is one.
    `start` skips the first conversations, `keys` being the query of the conversation ids in order."""
    conditions: list[str] = []
    params: list[Any] = []
    if conversation_id is not None and conversation_id.lstrip("-").isdigit():
        conditions.append(f"{column} IN (?, ?)")
        params += [conversation_id, int(conversation_id)]
    elif conversation_id is not None:
        conditions.append(f"{column} = ?")
        params.append(conversation_id)
    if start:
        conditions.append(f"{column} >= ({keys} LIMIT 1 OFFSET ?)")
        params.append(start)
    return (f"WHERE {' AND '.join(conditions)}" if conditions else ""), params


def json_or_none(text: Any) -> Any:
    """The JSON value in `text`, or None when it is not a string of JSON."""
    try:
        return json.loads(text) if isinstance(text, str) else None
    except ValueError:
        return None


def has_table(conn: sqlite3.Connection, name: str) -> bool:
    """Whether the database has a table `name`."""
    return conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [name]).fetchone() is not None


def stored_rows(conn: sqlite3.Connection, table: str, owner: str, owner_id: Any) -> list[Any]:
    """The ids of the rows of `table` (`tool_calls` or `tool_results`) whose column `owner` is
    `owner_id`, in id order: the order the readers give a turn its calls and results in, so the
    nth call of a turn is the nth row, whatever its `tool_call_id` (none, or one shared)."""
    return [
        row
        for (row,) in conn.execute(f"SELECT id FROM {quote(table)} WHERE {quote(owner)} = ? ORDER BY id", [owner_id])
    ]


def update_calls(conn: sqlite3.Connection, turn: Turn, owner: str, rows: list[Any] | None = None) -> None:
    """Give each stored call of an edited turn its name (a renamed call) and its arguments when a
    repair replaced them, in a `tool_calls` table whose column `owner` holds the turn's row id
    (`rows`: those rows' ids in id order, when the caller has read them already)."""
    stored = stored_rows(conn, "tool_calls", owner, turn.raw["id"]) if rows is None else rows
    for row, call in zip(stored, turn.tool_calls):
        arguments = json.dumps(call.arguments_raw, ensure_ascii=False) if isinstance(call.arguments_raw, dict) else None
        conn.execute(
            "UPDATE tool_calls SET name = ?, arguments = coalesce(?, arguments) WHERE id = ?",
            [call.name, arguments, row],
        )


def quote(identifier: str) -> str:
    """An SQL identifier, quoted."""
    return '"' + identifier.replace('"', '""') + '"'


def copy_database(source: Path, target: Path) -> None:
    """Copy the database at `source` to `target` (a new or empty file) with SQLite's backup API,
    from a read-only connection of its own: a consistent copy of the last committed state, even
    while another program uses it."""
    with mapped_errors(source, f"copying it to {target}"):
        reader = connect(source)
        try:
            writer = sqlite3.connect(str(target))
            try:
                reader.backup(writer)
            finally:
                writer.close()
        finally:
            reader.close()
