"""The registry of chat-history schemas kept in SQL databases (`SCHEMAS`, by the name `--format`
takes, in recognition order), read and written by the same code on SQLite and PostgreSQL. Each is a
module here ending with one `HistorySchema` (the contract, `contract.py`); its writer is a
private module beside it (`_*.py`), loaded only when a fix writes. `TABLE` reads a table named
with `--table T --map ...`: never recognised, so not among `SCHEMAS`. Which of them a backend
reads it declares itself (`recognition.Backend`).

A new schema is one module and one line in `SCHEMAS` (SQLite reads every schema), and one in
`POSTGRESQL` (`inspector.sources.postgres.history`) when PostgreSQL runs its SQL too.
"""

from __future__ import annotations

from inspector.sources.schemas import (
    agents_sdk,
    crush,
    cursor_cli,
    elia,
    goose,
    langchain_sql,
    llm,
    llm_legacy,
    open_webui,
    opencode,
    rubyllm,
    table,
)
from inspector.sources.schemas.contract import HistorySchema

SCHEMAS: dict[str, HistorySchema] = {
    schema.name: schema
    for schema in (
        llm.SCHEMA,
        llm_legacy.SCHEMA,
        rubyllm.SCHEMA,
        open_webui.SCHEMA,
        elia.SCHEMA,
        agents_sdk.SCHEMA,
        langchain_sql.SCHEMA,
        opencode.SCHEMA,
        goose.SCHEMA,
        crush.SCHEMA,
        cursor_cli.SCHEMA,
    )
}
TABLE: HistorySchema = table.SCHEMA


def schema_named(name: str) -> HistorySchema:
    """The schema a location names (`HistoryLocation.format`): one of `SCHEMAS`, or `TABLE`."""
    return TABLE if name == TABLE.name else SCHEMAS[name]
