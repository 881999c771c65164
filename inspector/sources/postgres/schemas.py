"""The chat-history schemas read on PostgreSQL: those of `inspector.sources.sqlite.schemas` whose
tables also live on PostgreSQL, each module reading them with the SQLite module's row-to-session
code. A schema module has `NAME`, `matches(conn, tables)`, `conversations(conn, location)` and
`sessions(conn, location, only, start)`; a table named with `--table/--map` is read by `table`."""

from __future__ import annotations

from types import ModuleType

from inspector.sources.postgres import langchain_store, open_webui, rubyllm, table

SCHEMAS: dict[str, ModuleType] = {module.NAME: module for module in (rubyllm, open_webui, langchain_store)}
READERS: dict[str, ModuleType] = {**SCHEMAS, table.NAME: table}
