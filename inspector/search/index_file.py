"""The search index's file: one SQLite database (`search.db` in the inspector's state folder)
with an FTS5 table over the turns' text (one row for the turns whose fields are the same: each
turn names its row, `turns.words`, found by the fields' digest in `word_rows`; the index of
turns by their row holds what a search reads of them), and the
sessions' facets and findings beside it; and,
for each file, its sessions' summaries as the scan reports them (`summaries`: the scan's cache),
with its findings as a review names them when they were read with their sessions (`anchors`: what
the app's picker shows a file's review status by, `anchor_blob`).

A file's row says what it was read as: its fingerprint, the key of the detection its findings
were found with (`detection_key`), and whether its turns' words are indexed (`texts`: 0 when a
scan kept its summaries alone; a search reads such a file again).

Opening it never fails on what is in it: a file that is not a database, or holds a schema of
another version, is moved aside (`search.db.broken-<time>`) and a new index is built in its
place. An index another process holds locked past the wait, or that the disk refuses, is left as
it is: opening it fails in one line. Two processes may index at once: the database is in WAL mode (readers never wait for the
writer), the session files are written a few at a time, each batch in one transaction, and a
writer waits for the other's transaction (`BUSY_TIMEOUT`) rather than failing, as does a process
opening a new index while another makes it.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from inspector.errors import InspectorError
from inspector.support.safe_text import shown_name
from inspector.support.state_folder import inspector_state_folder

SCHEMA_VERSION = "4"  # a file of any other version is moved aside and rebuilt
BUSY_TIMEOUT = 30.0  # seconds a writer waits for another process's transaction
_BUSY_PAUSE = 0.02  # seconds between two tries at opening a file SQLite says is busy

_SCHEMA = """
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE files(
    id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL,
    digest TEXT NOT NULL, error TEXT, detection TEXT NOT NULL, texts INTEGER NOT NULL);
CREATE TABLE summaries(
    file INTEGER PRIMARY KEY REFERENCES files(id) ON DELETE CASCADE, read_as TEXT NOT NULL, data BLOB NOT NULL,
    anchors BLOB);
CREATE TABLE sessions(
    id INTEGER PRIMARY KEY, file INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    number INTEGER NOT NULL, session_id TEXT, format TEXT NOT NULL, agent TEXT NOT NULL,
    project TEXT NOT NULL, models TEXT NOT NULL, date REAL NOT NULL, turns INTEGER NOT NULL);
CREATE TABLE turns(
    id INTEGER PRIMARY KEY, session INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    number INTEGER NOT NULL, role TEXT NOT NULL, model TEXT, tools TEXT NOT NULL, digest TEXT NOT NULL,
    words INTEGER NOT NULL);
CREATE TABLE word_rows(id INTEGER PRIMARY KEY, digest INTEGER NOT NULL);
CREATE VIRTUAL TABLE turn_text USING fts5(text, calls, results, thinking, tokenize='unicode61 remove_diacritics 2');
CREATE TABLE findings(
    session INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE, turn INTEGER NOT NULL,
    role TEXT NOT NULL, kind TEXT NOT NULL, severity TEXT NOT NULL, tool TEXT, model TEXT);
CREATE INDEX sessions_by_file ON sessions(file);
CREATE INDEX turns_by_session ON turns(session, number);
CREATE INDEX turns_by_words ON turns(words, session, number, role, tools, model);
CREATE UNIQUE INDEX word_rows_by_digest ON word_rows(digest);
CREATE INDEX findings_by_session ON findings(session, turn);
CREATE INDEX findings_by_kind ON findings(kind);
"""


def index_path() -> Path:
    """Where the person's index is kept: `$XDG_STATE_HOME/inspector/search.db`."""
    return inspector_state_folder() / "search.db"


def open_index(path: Path | None = None, fresh: bool = False) -> sqlite3.Connection:
    """The index at `path` (default `index_path()`), made when there is none; a file that is not
    an index of this version is moved aside first (see the module's docstring). `fresh` starts
    a new, empty index in its place (what a process still reading the old one sees is unchanged)."""
    path = path or index_path()
    if fresh:
        _remove(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise InspectorError(f"{shown_name(path.parent)}: cannot make the index's folder ({error.strerror})") from None
    try:
        return _opened_when_free(path)
    except sqlite3.DatabaseError as error:
        if _not_the_files_fault(error):  # another process holds it, or the disk refuses: it stays as it is
            raise InspectorError(f"{shown_name(path)}: cannot open the search index ({error})") from None
        _move_aside(path)
        try:
            return _opened_when_free(path)
        except sqlite3.Error as error:
            raise InspectorError(f"{shown_name(path)}: cannot make the search index ({error})") from None


def _opened_when_free(path: Path) -> sqlite3.Connection:
    """`_opened`, tried again while SQLite says the file is busy, up to `BUSY_TIMEOUT`: processes
    opening a new index at once each turn it to WAL mode, and SQLite answers all but one busy at
    once rather than after its wait (their locks would wait on each other)."""
    deadline = time.monotonic() + BUSY_TIMEOUT
    while True:
        try:
            return _opened(path)
        except sqlite3.OperationalError as error:
            if _primary_code(error) != sqlite3.SQLITE_BUSY or time.monotonic() > deadline:
                raise
            time.sleep(_BUSY_PAUSE)


# SQLite's primary result codes that say what is around the file, not in it: busy or locked by
# another process, no permission, read-only, out of memory or disk, cannot open, an I/O error.
_AROUND_THE_FILE = frozenset(
    {
        sqlite3.SQLITE_PERM,
        sqlite3.SQLITE_BUSY,
        sqlite3.SQLITE_LOCKED,
        sqlite3.SQLITE_NOMEM,
        sqlite3.SQLITE_READONLY,
        sqlite3.SQLITE_INTERRUPT,
        sqlite3.SQLITE_IOERR,
        sqlite3.SQLITE_FULL,
        sqlite3.SQLITE_CANTOPEN,
    }
)


def _not_the_files_fault(error: sqlite3.DatabaseError) -> bool:
    """Whether `error` says the index could not be used for a reason other than what it holds
    (moving it aside would lose a good index, and a new one would fail alike)."""
    return _primary_code(error) in _AROUND_THE_FILE


def _primary_code(error: sqlite3.DatabaseError) -> int | None:
    """SQLite's primary result code of `error` (its extended code's low byte), None when it has none."""
    code = getattr(error, "sqlite_errorcode", None)
    return None if code is None else code & 0xFF


def _opened(path: Path) -> sqlite3.Connection:
    """The connection, its schema checked (or made, when the file is new or empty)."""
    connection = sqlite3.connect(path, timeout=BUSY_TIMEOUT, isolation_level=None, check_same_thread=False)
    try:
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA foreign_keys=ON")
        connection.execute("PRAGMA synchronous=NORMAL")
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if not tables:
            _create(connection)
        elif "meta" not in tables or _version(connection) != SCHEMA_VERSION:
            raise sqlite3.DatabaseError("not a search index of this version")
        return connection
    except BaseException:
        connection.close()
        raise


def _create(connection: sqlite3.Connection) -> None:
    connection.execute("BEGIN IMMEDIATE")
    try:
        if connection.execute("SELECT count(*) FROM sqlite_master WHERE name='meta'").fetchone()[0]:
            connection.execute("COMMIT")  # another process made it first
            return
        for statement in filter(str.strip, _SCHEMA.split(";")):
            connection.execute(statement)
        connection.execute("INSERT INTO meta VALUES ('schema', ?)", (SCHEMA_VERSION,))
        connection.execute("COMMIT")
    except BaseException:
        connection.execute("ROLLBACK")
        raise


def _version(connection: sqlite3.Connection) -> str | None:
    row = connection.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
    return None if row is None else str(row[0])


def _remove(path: Path) -> None:
    """Remove the index at `path` and its WAL files."""
    for suffix in ("", "-wal", "-shm"):
        try:
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        except OSError as error:
            raise InspectorError(f"{shown_name(path)}: cannot remove the search index ({error.strerror})") from None


def _move_aside(path: Path) -> None:
    """Move a broken index (and its WAL files) out of the way, keeping it for a look."""
    aside = path.with_name(f"{path.name}.broken-{time.strftime('%Y%m%dT%H%M%S')}")
    for suffix in ("", "-wal", "-shm"):
        broken = Path(f"{path}{suffix}")
        try:
            broken.replace(Path(f"{aside}{suffix}"))
        except FileNotFoundError:
            continue
        except OSError as error:
            raise InspectorError(
                f"{shown_name(broken)}: a broken search index that cannot be moved aside ({error.strerror})"
            ) from None


def is_server_key(path: str) -> bool:
    """Whether the index's file `path` is a server's database (its URL, shown without its
    password), which no file on disk stands for: it stays until it is given again or the index
    is rebuilt."""
    return path.startswith(SERVER_SCHEMES)


SERVER_SCHEMES = ("postgresql://", "postgres://")  # a file's path in the index is absolute: never one of these


def forget_file(connection: sqlite3.Connection, path: str) -> None:
    """Remove what the index holds of the file at `path`, in the open transaction."""
    words = connection.execute(
        "SELECT DISTINCT turns.words FROM turns JOIN sessions ON turns.session = sessions.id "
        "JOIN files ON sessions.file = files.id WHERE files.path = ?",
        (path,),
    ).fetchall()
    connection.execute("DELETE FROM files WHERE path = ?", (path,))
    forget_unused_words(connection, words)


def forget_unused_words(connection: sqlite3.Connection, words: list[tuple[int]]) -> None:
    """Remove the rows of words among `words` (their ids) that no turn refers to any more (a
    row of words is shared by the turns whose fields are the same), in the open transaction."""
    unused = [
        (row,)
        for (row,) in words
        if connection.execute("SELECT 1 FROM turns WHERE words = ? LIMIT 1", (row,)).fetchone() is None
    ]
    connection.executemany("DELETE FROM turn_text WHERE rowid = ?", unused)
    connection.executemany("DELETE FROM word_rows WHERE id = ?", unused)
