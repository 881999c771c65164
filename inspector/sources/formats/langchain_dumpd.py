"""LangChain messages serialized by `langchain_core.load.dumpd`: a JSON list of
`{"lc": 1, "type": "constructor", "id": ["langchain", "schema", "messages", "AIMessage"],
"kwargs": {content, tool_calls, invalid_tool_calls, additional_kwargs, tool_call_id, ...}}` (or an
object holding that list as `messages`, as `dumpd` writes a LangGraph state). `kwargs` leaves out
the fields at their defaults.

The records are unwrapped by `langchain_serialized`, the messages read and written by
`langchain_messages`. A record that is no constructor of a message class (another serialized
object, a `not_implemented` or `secret` entry) is kept in place and counted in the session's
problems. `langchain_core.load.load` loads the written file back.
"""

from __future__ import annotations

from inspector.model import Session
from inspector.sources.files.document import Document
from inspector.sources.formats.contract import FileFormat
from inspector.sources.messages.langchain_lists import read_list, write_list
from inspector.sources.messages.langchain_serialized import message_class, unwrap, wrap
from inspector.sources.messages.message_list import message_list

NAME = "langchain-dumpd"


def claims(document: Document) -> bool:
    """A list of records most of which are `dumpd` constructors of a LangChain message class."""
    records = message_list(document)
    if not records:
        return False
    dicts = [r for r in records[:50] if type(r) is dict]
    return sum(message_class(r) is not None for r in dicts) * 2 > len(dicts) > 0


def read(document: Document) -> list[Session]:
    """The one session of the list."""
    return read_list(NAME, document, unwrap)


def write(document: Document, sessions: list[Session]) -> str:
    """The file's text with the repaired messages; the others are kept as they were."""
    return write_list(document, sessions, unwrap, wrap)


FORMAT = FileFormat(NAME, claims, read, write)
