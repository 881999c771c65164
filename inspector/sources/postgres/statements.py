"""The statements a schema writer asks of PostgreSQL (see `inspector.sources.sqlite.statements`,
the same methods on SQLite): `?` placeholders become psycopg's `%s`, an insert returns its row's
primary key, columns come from the catalog, and a row's image is `to_jsonb(row)`, its key the
JSON list of its primary key's values. Reading images can lock the rows (`FOR UPDATE`) until the
transaction ends."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Callable, Iterable, Sequence

from inspector.errors import InspectorError
from inspector.sources.postgres.connection import psycopg_module
from inspector.sources.postgres.table import primary_key
from inspector.sources.sqlite.database import quote

if TYPE_CHECKING:
    import psycopg

Image = dict[str, Any]


def placeholders(sql: str) -> str:
    """`sql` with each `?` outside quotes as `%s`, and every `%` doubled (psycopg reads `%` as
    the start of a placeholder even inside quotes). One pass: linear in the statement's length."""
    out: list[str] = []
    quoting = ""
    for char in sql:
        if char in "'\"":
            quoting = "" if quoting == char else quoting or char
        out.append("%%" if char == "%" else "%s" if char == "?" and not quoting else char)
    return "".join(out)


class PostgresStatements:
    """The statements of one PostgreSQL connection, inside its caller's transaction."""

    def __init__(self, conn: psycopg.Connection) -> None:
        self.conn = conn
        self._keys: dict[str, list[str]] = {}

    def execute(self, sql: str, params: Sequence[Any] = ()) -> psycopg.Cursor:
        """Run `sql` (`?` placeholders); its cursor."""
        return self.conn.execute(placeholders(sql), list(params))

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run `sql` once per row of parameters."""
        with self.conn.cursor() as cursor:
            cursor.executemany(placeholders(sql), [list(row) for row in rows])

    def insert(self, table: str, values: dict[str, Any]) -> Any:
        """Insert a row of `values` into `table`; its id (its primary key's first column)."""
        names = ", ".join(quote(name) for name in values)
        sql = (f"INSERT INTO {quote(table)} ({names}) VALUES ({', '.join('?' * len(values))}) "
               f"RETURNING {quote(self.key(table)[0])}")
        return self.execute(sql, list(values.values())).fetchone()[0]

    def columns(self, table: str) -> set[str]:
        """The names of the columns of `table` (as the search path finds it)."""
        return {name for (name,) in self.conn.execute(
            "SELECT attname FROM pg_attribute WHERE attrelid = to_regclass(%s) AND attnum > 0 AND NOT attisdropped",
            [quote(table)])}

    def has_table(self, name: str) -> bool:
        """Whether the search path finds a table `name`."""
        return self.conn.execute("SELECT to_regclass(%s) IS NOT NULL", [quote(name)]).fetchone()[0]

    def key(self, table: str) -> list[str]:
        """The primary key's columns of `table`; a table without one cannot be written (its rows'
        before-values could not be told apart)."""
        if table not in self._keys:
            self._keys[table] = primary_key(self.conn, table)
            if not self._keys[table]:
                raise InspectorError(f"table {table!r} has no primary key: the rows a fix changes could not be "
                                     "recorded with their before-values")
        return self._keys[table]

    def images(self, table: str, where: str, params: Sequence[Any], lock: bool = False) -> dict[str, Image]:
        """The images of the rows of `table` that `where` (`?` placeholders) keeps, by key; with
        `lock`, the rows stay locked against other writers until the transaction ends."""
        sql = f"SELECT to_jsonb(t) FROM {quote(table)} t WHERE {where}" + (" FOR UPDATE" if lock else "")
        key = self.key(table)
        return {json.dumps([image[name] for name in key]): image
                for (image,) in self.conn.execute(placeholders(sql), list(params))}

    def image(self, table: str, key: str, lock: bool = False) -> Image | None:
        """The image of the row of `table` whose key is `key` (None when there is none)."""
        return self.images(table, self._matching(table), [self._key_record(table, key)], lock).get(key)

    def restore(self, table: str, key: str, image: Image | None) -> None:
        """Make the row of `table` whose key is `key` hold `image` again (None: delete it)."""
        if image is None:
            self.execute(f"DELETE FROM {quote(table)} t WHERE {self._matching(table)}", [self._key_record(table, key)])
            return
        names = ", ".join(quote(name) for name in image)
        record = f"jsonb_populate_record(NULL::{quote(table)}, ?::jsonb)"
        if self.image(table, key) is None:
            self.execute(f"INSERT INTO {quote(table)} ({names}) OVERRIDING SYSTEM VALUE SELECT {names} FROM {record}",
                         [json.dumps(image)])
            return
        self.execute(f"UPDATE {quote(table)} t SET ({names}) = (SELECT {names} FROM {record}) WHERE {self._matching(table)}",
                     [json.dumps(image), self._key_record(table, key)])

    def tentatively(self, step: Callable[[], None]) -> bool:
        """Run `step` inside a savepoint: True when done, False (and nothing done) when it broke
        a constraint (a foreign key, a unique index)."""
        try:
            with self.conn.transaction():
                step()
        except psycopg_module().errors.IntegrityError:
            return False
        return True

    def _matching(self, table: str) -> str:
        """A `WHERE` condition keeping the row whose key's record is the one parameter."""
        names = ", ".join(f"t.{quote(name)}" for name in self.key(table))
        chosen = ", ".join(f"k.{quote(name)}" for name in self.key(table))
        return f"({names}) = (SELECT {chosen} FROM jsonb_populate_record(NULL::{quote(table)}, ?::jsonb) k)"

    def _key_record(self, table: str, key: str) -> str:
        return json.dumps(dict(zip(self.key(table), json.loads(key))))
