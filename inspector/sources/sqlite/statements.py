"""The `Statements` a schema writer, the audit and undo use on SQLite (the interface:
`inspector.sources.sql.statements`; PostgreSQL's: `inspector.sources.postgres.statements`).

A row's image is its columns' values as JSON (a blob as `{"$blob": HEX}`); its key is its rowid,
as JSON text. Writing happens in the caller's transaction.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from inspector.sources.sql.statements import Image, quote
from inspector.sources.sqlite.database import has_table


class SqliteStatements:
    """The statements of one SQLite connection, inside its caller's transaction."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def execute(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Cursor:
        """Run `sql` (`?` placeholders); its cursor."""
        return self.conn.execute(sql, params)

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run `sql` once per row of parameters."""
        self.conn.executemany(sql, rows)

    def insert(self, table: str, values: dict[str, Any]) -> Any:
        """Insert a row of `values` into `table`; its id."""
        names = ", ".join(quote(name) for name in values)
        return self.conn.execute(
            f"INSERT INTO {quote(table)} ({names}) VALUES ({', '.join('?' * len(values))})", list(values.values())
        ).lastrowid

    def columns(self, table: str) -> set[str]:
        """The names of the columns of `table`."""
        return {row[1] for row in self.conn.execute(f"PRAGMA table_info({quote(table)})")}

    def has_table(self, name: str) -> bool:
        """Whether the database has a table `name`."""
        return has_table(self.conn, name)

    def images(self, table: str, where: str, params: Sequence[Any], lock: bool = False) -> dict[str, Image]:
        """The images of the rows of `table` that `where` keeps, by key (a write transaction has
        locked the whole database already: `lock` asks nothing more)."""
        cursor = self.conn.execute(f"SELECT rowid, * FROM {quote(table)} WHERE {where}", params)
        names = [column[0] for column in cursor.description[1:]]
        return {json.dumps(row[0]): {name: _jsonable(value) for name, value in zip(names, row[1:])} for row in cursor}

    def image(self, table: str, key: str, lock: bool = False) -> Image | None:
        """The image of the row of `table` whose key is `key` (None when there is none)."""
        return self.images(table, "rowid = ?", [json.loads(key)]).get(key)

    def restore(self, table: str, key: str, image: Image | None) -> None:
        """Make the row of `table` whose key is `key` hold `image` again (None: delete it)."""
        rowid = json.loads(key)
        if image is None:
            self.conn.execute(f"DELETE FROM {quote(table)} WHERE rowid = ?", [rowid])
            return
        values = {name: _stored(value) for name, value in image.items()}
        if self.image(table, key) is None:
            names = ", ".join(["rowid", *map(quote, values)])
            self.conn.execute(
                f"INSERT INTO {quote(table)} ({names}) VALUES ({', '.join('?' * (len(values) + 1))})",
                [rowid, *values.values()],
            )
            return
        assignments = ", ".join(f"{quote(name)} = ?" for name in values)
        self.conn.execute(f"UPDATE {quote(table)} SET {assignments} WHERE rowid = ?", [*values.values(), rowid])

    def tentatively(self, step: Callable[[], None]) -> bool:
        """Run `step` inside a savepoint: True when done, False (and nothing done) when it broke
        a constraint."""
        self.conn.execute("SAVEPOINT tentatively")
        try:
            step()
        except sqlite3.IntegrityError:
            self.conn.execute("ROLLBACK TO tentatively")
            return False
        finally:
            self.conn.execute("RELEASE tentatively")
        return True


def _jsonable(value: Any) -> Any:
    return {"$blob": bytes(value).hex()} if isinstance(value, (bytes, memoryview)) else value


def _stored(value: Any) -> Any:
    return bytes.fromhex(value["$blob"]) if isinstance(value, dict) and "$blob" in value else value
