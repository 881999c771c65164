"""A PostgreSQL server's database named on the command line: `postgresql://user@host:port/db` or
`postgres://...`, handed to libpq as it is (so libpq's `PG*` environment variables and `.pgpass`
fill in what it leaves out), and shown everywhere without its password."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qsl, unquote, urlencode, urlsplit, urlunsplit

SCHEMES = ("postgresql://", "postgres://")


def is_server_url(text: object) -> bool:
    """Whether `text` is a string naming a PostgreSQL database by URL."""
    return isinstance(text, str) and text.lower().startswith(SCHEMES)


def location(text: str) -> Path | ServerUrl:
    """What a path argument names: a database on a server (a URL), else a file or directory."""
    return ServerUrl(text) if is_server_url(text) else Path(text)


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
        return unquote(urlsplit(self.conninfo).path.lstrip("/"))

    @property
    def password(self) -> str | None:
        """The password the URL holds, if any (to be scrubbed from any message)."""
        parts = urlsplit(self.conninfo)
        userinfo = parts.netloc.rpartition("@")[0]
        in_query = [value for key, value in parse_qsl(parts.query) if key == "password"]
        if ":" in userinfo:
            return unquote(userinfo.partition(":")[2])
        return in_query[0] if in_query else None


def shown_url(url: str) -> str:
    """`url` without a password, in its user part or its query."""
    parts = urlsplit(url)
    userinfo, at, hosts = parts.netloc.rpartition("@")
    netloc = f"{userinfo.partition(':')[0]}{at}{hosts}"
    query = urlencode([(key, value) for key, value in parse_qsl(parts.query, keep_blank_values=True)
                       if key != "password"])
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))
