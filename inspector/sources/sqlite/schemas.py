"""The registry of SQLite chat-history schemas: how each is recognised, read and written.

Adding a schema means adding a module and listing it here. A schema module has `NAME`,
`matches(db, tables)`, `conversations(db, source)` (ids and message counts, no message read) and
`sessions(db, source, only, start)`; its writer is a function `(conn, session, fixes, stamp) ->
list[WrittenFix]` that writes one repaired session inside the caller's transaction. Elia's module
only recognises its schema: it is read with `table`, its table and columns set in its location.
"""

from __future__ import annotations

from types import ModuleType
from typing import Callable

from inspector.sources.base import WrittenFix
from inspector.sources.sqlite import langchain_store, langchain_store_write
from inspector.sources.sqlite import (agents_sdk, agents_sdk_write, elia, llm, llm_fork, llm_legacy, open_webui, rubyllm,
                                      rubyllm_write, table, text_write)

SCHEMAS: dict[str, ModuleType] = {module.NAME: module for module in (
    llm,
    llm_legacy,
    rubyllm,
    open_webui,
    elia,
    agents_sdk,
    langchain_store,
)}
READERS: dict[str, ModuleType] = {**SCHEMAS, elia.NAME: table, table.NAME: table}
WRITERS: dict[str, Callable[..., list[WrittenFix]]] = {
    rubyllm.NAME: rubyllm_write.write_session,
    agents_sdk.NAME: agents_sdk_write.write_session,
    langchain_store.NAME: langchain_store_write.write_session,
    llm.NAME: llm_fork.write_session,
    **{name: text_write.write_session for name in text_write.SCHEMAS},
}
