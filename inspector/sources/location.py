"""Where sessions live (`Location`): a file on disk (a session file, or an SQLite database file,
told apart by its name or SQLite's header, `is_database`) or a database on a PostgreSQL server
(`ServerUrl`); what a path argument names (`location`); and, for a session read from a chat
history, the database, schema and table it came from (`HistoryLocation`).

A server's database is named by a URL, `postgresql://user@host:port/db` or `postgres://...`,
handed to libpq as it is (so libpq's `PG*` environment variables and `.pgpass` fill in what it
leaves out), and shown everywhere without its password. A URL Python's parser refuses (an
unclosed `[`) is split by hand, so that even then its password is never shown.
"""

from __future__ import annotations

import json
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import SplitResult, parse_qsl, unquote, urlencode, urlsplit, urlunsplit

MAGIC = b"SQLite format 3\x00"  # the first bytes of every SQLite database file
SUFFIXES = (".db", ".sqlite", ".sqlite3")  # the names of SQLite database files
SCHEMES = ("postgresql://", "postgres://")


@dataclass(frozen=True)
class ServerUrl:
    """A database on a PostgreSQL server. `conninfo` is the URL as given, password included: it
    goes to libpq only; `str()` and `repr()` show it without the password."""

    conninfo: str

    def __str__(self) -> str:
        return shown_url(self.conninfo)

    def __repr__(self) -> str:
        return f"ServerUrl({str(self)!r})"

    @property
    def name(self) -> str:
        """The database's name as the URL gives it ('' when libpq's default applies)."""
        return unquote(url_parts(self.conninfo).path.lstrip("/"))

    @property
    def identity(self) -> str:
        """What tells this database from any other, without the password: the user, host(s) and
        port(s), database and connection options (a schema's search path among them) as the URL
        gives them (the key of its review file)."""
        parts = url_parts(self.conninfo)
        userinfo, _, hosts = parts.netloc.rpartition("@")
        options = sorted(
            (key, value) for key, value in parse_qsl(parts.query, keep_blank_values=True) if key != "password"
        )
        return json.dumps([unquote(userinfo.partition(":")[0]), hosts.lower(), self.name, options])

    @property
    def password(self) -> str | None:
        """The password the URL holds, if any (to be scrubbed from any message)."""
        parts = url_parts(self.conninfo)
        userinfo = parts.netloc.rpartition("@")[0]
        in_query = [value for key, value in parse_qsl(parts.query) if key == "password"]
        if ":" in userinfo:
            return unquote(userinfo.partition(":")[2])
        return in_query[0] if in_query else None


Location = Path | ServerUrl  # a file or folder on disk, or a database on a server


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


def location(text: str) -> Location:
    """What a path argument names: a database on a server (a URL), else a file or directory."""
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


def shown_url(url: str) -> str:
    """`url` without a password, in its user part or its query."""
    parts = url_parts(url)
    userinfo, at, hosts = parts.netloc.rpartition("@")
    netloc = f"{userinfo.partition(':')[0]}{at}{hosts}"
    query = urlencode(
        [(key, value) for key, value in parse_qsl(parts.query, keep_blank_values=True) if key != "password"]
    )
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


def url_parts(url: str) -> SplitResult:
    """`url` split into scheme, host part, path, query and fragment; by hand when Python's parser
    refuses it (the host part then runs up to the first `/`, `?` or `#`)."""
    try:
        return urlsplit(url)
    except ValueError:
        scheme, _, rest = url.partition("://")
        end = min((at for at in (rest.find(mark) for mark in "/?#") if at >= 0), default=len(rest))
        netloc, rest = rest[:end], rest[end:]
        rest, _, fragment = rest.partition("#")
        path, _, query = rest.partition("?")
        return SplitResult(scheme, netloc, path, query, fragment)
