"""Connecting to a PostgreSQL server with psycopg 3, and its errors as one line.

psycopg is an optional dependency (`pip install 'inspector[postgres]'`); it is imported when a
server is first opened, and its absence is one line saying how to install it. A connection for
reading is read-only (`conn.read_only`) and repeatable-read: every conversation is read from the
one snapshot taken by the first query. A connection for writing waits `LOCK_TIMEOUT` for a row
another program holds locked, then gives up. Messages never show the URL's password.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import TYPE_CHECKING, Any

from inspector.errors import InspectorError
from inspector.model import ServerUrl
from inspector.support.safe_text import shown_name

if TYPE_CHECKING:
    import psycopg

CONNECT_TIMEOUT = 10  # seconds to reach the server
LOCK_TIMEOUT = 10  # seconds to wait for a row another program holds locked


def psycopg_module() -> ModuleType:
    """The psycopg module, or one line saying how to install it."""
    try:
        import psycopg
    except ImportError:
        raise InspectorError(
            "reading PostgreSQL needs psycopg: install inspector[postgres] (pip install 'inspector[postgres]')"
        ) from None
    return psycopg


def connect(url: ServerUrl, read_only: bool = True) -> psycopg.Connection:
    """A connection to the database `url` names (libpq fills in what it leaves out from `PG*`
    variables and `.pgpass`): read-only and repeatable-read, or for one writing transaction."""
    driver = psycopg_module()
    with mapped_errors(url, "connecting"):
        conn: psycopg.Connection = driver.connect(
            url.conninfo, connect_timeout=CONNECT_TIMEOUT, application_name="inspector"
        )
        if read_only:
            conn.read_only = True
            conn.isolation_level = driver.IsolationLevel.REPEATABLE_READ
        else:
            conn.execute(f"SET lock_timeout = '{LOCK_TIMEOUT}s'")
            conn.commit()
    return conn


def only_value(cursor: psycopg.Cursor) -> Any:
    """The value a query that always answers one row gives (a test, a function's value, an
    insert's `RETURNING`): its first row's first column."""
    row = cursor.fetchone()
    assert row is not None, "such a query always answers a row"
    return row[0]


@contextmanager
def reading(url: ServerUrl) -> Iterator[psycopg.Connection]:
    """A read-only connection to `url`, closed (its transaction rolled back) on leaving."""
    conn = connect(url)
    try:
        yield conn
    finally:
        conn.close()


@contextmanager
def mapped_errors(url: ServerUrl, doing: str = "") -> Iterator[None]:
    """Turn any psycopg error raised inside into one `InspectorError` line about `url`."""
    psycopg = psycopg_module()
    try:
        yield
    except psycopg.Error as exc:
        raise server_error(url, exc, doing) from None


def server_error(url: ServerUrl, exc: BaseException, doing: str = "") -> InspectorError:
    """One line saying what went wrong with the server, without the URL's password."""
    lines = [line.strip() for line in str(exc).strip().splitlines() if line.strip()]
    text = (lines[0] if lines else type(exc).__name__).replace(url.conninfo, str(url))  # libpq may quote the URL
    if url.password:
        text = text.replace(url.password, "***")
    state = getattr(exc, "sqlstate", None)
    suffix = f" while {doing}" if doing else ""
    if state == "55P03":
        return InspectorError(
            f"{shown_name(url)}: a row this fix changes is locked by another program (waited {LOCK_TIMEOUT} s){suffix}; try again"
        )
    return InspectorError(f"{shown_name(url)}: PostgreSQL error{suffix}: {text}")
