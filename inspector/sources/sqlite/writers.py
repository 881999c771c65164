"""The writer of each SQLite chat-history schema that can be written back (`WRITERS`, by the
schema's name in `inspector.sources.sqlite.schemas`).

A writer is a function `(conn, session, fixes, stamp) -> list[WrittenFix]` that writes one
repaired session inside the caller's transaction. They are kept apart from the registry of
schemas, which every command line loads for `--format`'s names, so that only writing loads them.
"""

from __future__ import annotations

from collections.abc import Callable

from inspector.sources.base import WrittenFix
from inspector.sources.sqlite import (
    agents_sdk,
    agents_sdk_write,
    langchain_store,
    langchain_store_write,
    llm,
    llm_fork,
    rubyllm,
    rubyllm_write,
    text_write,
)

WRITERS: dict[str, Callable[..., list[WrittenFix]]] = {
    rubyllm.NAME: rubyllm_write.write_session,
    agents_sdk.NAME: agents_sdk_write.write_session,
    langchain_store.NAME: langchain_store_write.write_session,
    llm.NAME: llm_fork.write_session,
    **dict.fromkeys(text_write.SCHEMAS, text_write.write_session),
}
