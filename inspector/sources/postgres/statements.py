"""The `Statements` a schema writer, the audit and undo use on PostgreSQL (the interface:
`inspector.sources.sql.statements`; SQLite's: `inspector.sources.sqlite.statements`): `?`
placeholders become psycopg's `%s`, an insert returns its row's primary key, columns come from the
catalog, and a row's image is `to_jsonb(row)`, its key the JSON list of its primary key's values.
Reading images can lock the rows (`FOR UPDATE`) until the transaction ends."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager, nullcontext
from functools import lru_cache
from typing import TYPE_CHECKING, Any, TypeVar

from inspector.errors import InspectorError
from inspector.sources.postgres.connection import only_value, psycopg_module
from inspector.sources.sql.statements import Image, Scope, quote

if TYPE_CHECKING:
    import psycopg

Versions = dict[tuple[str, str], str]  # (table, key text) -> the row's version
Found = TypeVar("Found")


def canonical_key(key: str) -> str:
    """A key text of `PostgresStatements.versions` as `images` (and the audit) write a row's key."""
    return json.dumps(json.loads(key))


def primary_key(conn: psycopg.Connection, table: str) -> list[str]:
    """The columns of the primary key of `table` (none when it has none)."""
    return [
        name
        for (name,) in conn.execute(
            "SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey) "
            "WHERE i.indrelid = to_regclass(%s) AND i.indisprimary ORDER BY array_position(i.indkey, a.attnum)",
            [quote(table)],
        )
    ]


@lru_cache(maxsize=512)
def placeholders(sql: str) -> str:
    """`sql` with each `?` outside quotes as `%s`, and every `%` doubled (psycopg reads `%` as
    the start of a placeholder even inside quotes). One pass: linear in the statement's length;
    a writer's few statements, each run once per row or conversation, are converted once."""
    out: list[str] = []
    quoting = ""
    for char in sql:
        if char in "'\"":
            quoting = "" if quoting == char else quoting or char
        out.append("%%" if char == "%" else "%s" if char == "?" and not quoting else char)
    return "".join(out)


class PostgresStatements:
    """The statements of one PostgreSQL connection, inside its caller's transaction. With
    `fixed_schema` (a writer that creates or alters no table), each table's columns and whether a
    table exists are looked up once."""

    def __init__(self, conn: psycopg.Connection, fixed_schema: bool = False) -> None:
        self.conn = conn
        self._keys: dict[str, list[str]] = {}
        self._columns: dict[str, set[str]] | None = {} if fixed_schema else None  # None: looked up each time
        self._tables: dict[str, bool] | None = {} if fixed_schema else None

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
        sql = (
            f"INSERT INTO {quote(table)} ({names}) VALUES ({', '.join('?' * len(values))}) "
            f"RETURNING {quote(self.key(table)[0])}"
        )
        return only_value(self.execute(sql, list(values.values())))

    def columns(self, table: str) -> set[str]:
        """The names of the columns of `table` (as the search path finds it)."""
        return _looked_up(
            self._columns,
            table,
            lambda: {
                name
                for (name,) in self.conn.execute(
                    "SELECT attname FROM pg_attribute WHERE attrelid = to_regclass(%s) AND attnum > 0 AND NOT attisdropped",
                    [quote(table)],
                )
            },
        )

    def has_table(self, name: str) -> bool:
        """Whether the search path finds a table `name`."""
        return _looked_up(self._tables, name, lambda: self._has_table(name))

    def _has_table(self, name: str) -> bool:
        found: bool = only_value(self.conn.execute("SELECT to_regclass(%s) IS NOT NULL", [quote(name)]))
        return found

    def key(self, table: str) -> list[str]:
        """The primary key's columns of `table`; a table without one cannot be written (its rows'
        before-values could not be told apart)."""
        if table not in self._keys:
            self._keys[table] = primary_key(self.conn, table)
            if not self._keys[table]:
                raise InspectorError(
                    f"table {table!r} has no primary key: the rows a fix changes could not be "
                    "recorded with their before-values"
                )
        return self._keys[table]

    def images(self, table: str, where: str, params: Sequence[Any], lock: bool = False) -> dict[str, Image]:
        """The images of the rows of `table` that `where` (`?` placeholders) keeps, by key; with
        `lock`, the rows stay locked against other writers until the transaction ends."""
        sql = f"SELECT to_jsonb(t) FROM {quote(table)} t WHERE {where}" + (" FOR UPDATE" if lock else "")
        key = self.key(table)
        return {
            json.dumps([image[name] for name in key]): image
            for (image,) in self.conn.execute(placeholders(sql), list(params))
        }

    def pipelined(self) -> AbstractContextManager[Any]:
        """The connection in pipeline mode, its statements sent without waiting for each one's
        answer (a result read, or the end of the block, waits for what it needs), when its libpq
        has pipeline mode (14 and later); else nothing changes: each statement waits for its answer."""
        return self.conn.pipeline() if psycopg_module().Pipeline.is_supported() else nullcontext()

    def versions(self, scopes: Sequence[Scope], lock: bool = False) -> list[Versions]:
        """For each scope (the rows of one conversation), the version of each of its rows by
        (table, key text): the id of the transaction that wrote the row as it now is (`xmin`),
        which any update changes. All in one round trip (`pipelined`); with `lock`, the rows stay
        locked (`FOR UPDATE`, each table's in key order) until the transaction ends. A key text is
        the server's JSON text of the key's values: the same for a row on any connection, and
        `canonical_key` makes it the key `images` gives."""
        queries = {
            (table, where): self._versions_query(table, where, lock) for scope in scopes for table, where, _ in scope
        }
        if not queries:
            return [{} for _ in scopes]
        with self.pipelined():
            pending = [
                [(table, self.conn.execute(queries[table, where], list(params))) for table, where, params in scope]
                for scope in scopes
            ]
        return [
            {(table, key): version for table, cursor in scope for key, version in only_value(cursor).items()}
            for scope in pending
        ]

    def transaction_id(self) -> str:
        """The id of the connection's transaction, as a row it writes (outside any savepoint)
        carries it in `xmin` (the last 32 bits of `txid_current`)."""
        transaction: str = only_value(self.conn.execute("SELECT (txid_current() % 4294967296)::text"))
        return transaction

    def images_of(self, wanted: Iterable[tuple[str, str]]) -> dict[tuple[str, str], Image]:
        """The images of the rows named by (table, key text), as `versions` names them, in one
        round trip (`pipelined`); a row that does not exist has none."""
        keys: dict[str, list[str]] = {}
        for table, key in wanted:
            keys.setdefault(table, []).append(key)
        if not keys:
            return {}
        queries = {table: self._images_query(table, named) for table, named in keys.items()}
        with self.pipelined():
            pending = {table: self.conn.execute(*query) for table, query in queries.items()}
        return {(table, key): image for table, cursor in pending.items() for key, image in cursor}

    def _versions_query(self, table: str, where: str, lock: bool) -> str:
        """The rows' key texts and versions as one JSON object (one value to load, not two a row),
        the rows locked in key order with `lock`."""
        names = ", ".join(f"t.{quote(name)}" for name in self.key(table))
        rows = (
            f"SELECT jsonb_build_array({names})::text AS key, t.xmin::text AS version FROM {quote(table)} t "
            f"WHERE {where} ORDER BY {names}" + (" FOR UPDATE" if lock else "")
        )
        return placeholders(f"SELECT coalesce(jsonb_object_agg(r.key, r.version), '{{}}') FROM ({rows}) r")

    def _images_query(self, table: str, keys: list[str]) -> tuple[str, list[Any]]:
        names = ", ".join(f"t.{quote(name)}" for name in self.key(table))
        chosen = ", ".join(f"k.{quote(name)}" for name in self.key(table))
        records = json.dumps([dict(zip(self.key(table), json.loads(key))) for key in keys])
        return (
            f"SELECT jsonb_build_array({names})::text, to_jsonb(t) FROM {quote(table)} t WHERE ({names}) IN "
            f"(SELECT {chosen} FROM jsonb_populate_recordset(NULL::{quote(table)}, %s::jsonb) k)",
            [records],
        )

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
            self.execute(
                f"INSERT INTO {quote(table)} ({names}) OVERRIDING SYSTEM VALUE SELECT {names} FROM {record}",
                [json.dumps(image)],
            )
            return
        self.execute(
            f"UPDATE {quote(table)} t SET ({names}) = (SELECT {names} FROM {record}) WHERE {self._matching(table)}",
            [json.dumps(image), self._key_record(table, key)],
        )

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


def _looked_up(found: dict[str, Found] | None, table: str, look_up: Callable[[], Found]) -> Found:
    """What `look_up` finds about `table`: kept in `found` the first time (a fixed schema), or
    looked up each time (`found` None)."""
    if found is None:
        return look_up()
    if table not in found:
        found[table] = look_up()
    return found[table]
