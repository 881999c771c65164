"""A session file holding one list of LangChain messages (or an object holding it as
`messages`), read and written back by `langchain_messages`: the `langchain` (`messages_to_dict`)
and `langchain-dumpd` (`dumpd`) formats, which differ only in how a record holds its message."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from inspector.model import Session
from inspector.sources.files.document import Document
from inspector.sources.messages.langchain_messages import MessageReader, read_records, rebuild
from inspector.sources.messages.message_list import claimed_messages


def read_list(name: str, document: Document, unwrap: Callable[[Any], tuple[Any, Any]]) -> list[Session]:
    """The one session of a file holding a list of messages (or an object with them as `messages`),
    each record opened by `unwrap`; read as the format `name`."""
    reader = MessageReader()
    read_records(reader, claimed_messages(document), unwrap)
    return [Session(name, document.path, tuple(reader.turns), (), document, 0, None, tuple(reader.problems()))]


def write_list(
    document: Document,
    sessions: list[Session],
    unwrap: Callable[[Any], tuple[Any, Any]],
    wrap: Callable[..., dict[str, Any]],
) -> str:
    """The text of such a file with the repaired messages (made by `wrap`); the others as they were."""
    value = document.value
    records = rebuild(claimed_messages(document), sessions[0].turns, unwrap, wrap)
    return document.render(records if isinstance(value, list) else {**value, "messages": records})
