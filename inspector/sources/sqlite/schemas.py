"""The registry of SQLite chat-history schemas: how each is recognised and read (written: `writers`).

Adding a schema means adding a module and listing it here, and its writer, if it has one, in
`inspector.sources.sqlite.writers`. A schema module has `NAME`, `matches(db, tables)`,
`conversations(db, source)` (ids and message counts, no message read) and
`sessions(db, source, only, start)`. Elia's module only recognises its schema: it is read with
`table`, its table and columns set in its location.
"""

from __future__ import annotations

from types import ModuleType

from inspector.sources.sqlite import agents_sdk, elia, langchain_store, llm, llm_legacy, open_webui, rubyllm, table

SCHEMAS: dict[str, ModuleType] = {
    module.NAME: module
    for module in (
        llm,
        llm_legacy,
        rubyllm,
        open_webui,
        elia,
        agents_sdk,
        langchain_store,
    )
}
READERS: dict[str, ModuleType] = {**SCHEMAS, elia.NAME: table, table.NAME: table}
