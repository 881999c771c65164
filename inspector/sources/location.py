"""What a path argument names (`location`): a database on a PostgreSQL server by its URL (a
`ServerUrl`), else a file on disk, a session file or an SQLite database file, told apart by its
name or SQLite's header (`is_database`); and, for a session read from a chat history, the
database, schema and table it came from (`HistoryLocation`). The `Location` and `ServerUrl`
values themselves are in `inspector.model`, shared by every stage.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

from inspector.errors import InspectorError
from inspector.model import Location, ServerUrl
from inspector.support.safe_text import shown_name

MAGIC = b"SQLite format 3\x00"  # the first bytes of every SQLite database file
STANDARD_INPUT = "-"  # the path argument naming standard input, as most tools take it
STANDARD_INPUT_FILE = "/dev/stdin"  # where it is read from, as a file (a pipe, or the file it was redirected from)
SUFFIXES = (".db", ".sqlite", ".sqlite3")  # the names of SQLite database files
SCHEMES = ("postgresql://", "postgres://")


@dataclass(frozen=True)
class HistoryLocation:
    """Where a session read from a chat history came from: the database (an SQLite file's path,
    or a server's URL), the name of the schema it is read as and, for a table of messages (named
    with `--table T --map ...`, or Elia's), the table and its column mapping (`role`, `content`,
    `id`, `session`, `order`). Kept as `Session.document`, so the writer knows how to write the
    session back."""

    path: Location
    format: str
    table: str | None = None
    mapping: dict[str, str] = field(default_factory=dict)

    def messages_table(self) -> str:
        """The table of messages this location reads (named with `--table`, or Elia's); one
        `InspectorError` line for a location that names none."""
        if not self.table:
            raise InspectorError(
                f"{shown_name(self.path)}: no table {self.table!r} of messages is named (--table T --map ...)"
            )
        return self.table


def location(text: str) -> Location:
    """What a path argument names: a database on a server (a URL), standard input (`-`, read as
    the file `/dev/stdin`; a file named `-` is `./-`), else a file or directory."""
    if text == STANDARD_INPUT:
        return Path(STANDARD_INPUT_FILE)
    return ServerUrl(text) if is_server_url(text) else Path(text)


def is_server_url(text: object) -> bool:
    """Whether `text` is a string naming a PostgreSQL database by URL."""
    return isinstance(text, str) and text.lower().startswith(SCHEMES)


def is_database(path: Path) -> bool:
    """Whether `path` is read as an SQLite history: its name says so (`.db`, `.sqlite`,
    `.sqlite3`) or, when it does not, its header."""
    return Path(path).suffix.lower() in SUFFIXES or is_sqlite(path)


def is_sqlite(path: Path) -> bool:
    """Whether `path` is a regular file that starts with SQLite's header. Nothing else is opened:
    a pipe's bytes can be read only once (by the session file's reader, which checks its first
    chunk for the header itself), and a device may never end."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return False
        with open(path, "rb") as handle:
            return handle.read(len(MAGIC)) == MAGIC
    except OSError:
        return False
