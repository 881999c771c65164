"""LangChain messages serialized by `langchain_core.load.dumpd`: a JSON list of
`{"lc": 1, "type": "constructor", "id": ["langchain", "schema", "messages", "AIMessage"],
"kwargs": {content, tool_calls, invalid_tool_calls, additional_kwargs, tool_call_id, ...}}` (or an
object holding that list as `messages`, as `dumpd` writes a LangGraph state). `kwargs` leaves out
the fields at their defaults.

The messages are read and written by `langchain_messages`. A record that is no constructor of a
message class (another serialized object, a `not_implemented` or `secret` entry) is kept in place
and counted in the session's problems. `langchain_core.load.load` loads the written file back.
"""

from __future__ import annotations

from typing import Any

from inspector.model import Session
from inspector.sources.files.document import Document
from inspector.sources.formats.contract import FileFormat
from inspector.sources.messages.langchain_messages import read_list, write_list
from inspector.sources.messages.records import message_list

NAME = "langchain-dumpd"

TYPES = {
    "HumanMessage": "human",
    "AIMessage": "ai",
    "ToolMessage": "tool",
    "SystemMessage": "system",
    "FunctionMessage": "function",
    "ChatMessage": "chat",
    "RemoveMessage": "remove",
    **{
        name: name
        for name in (
            "HumanMessageChunk",
            "AIMessageChunk",
            "ToolMessageChunk",
            "SystemMessageChunk",
            "FunctionMessageChunk",
            "ChatMessageChunk",
        )
    },
}
CLASSES = {kind: name for name, kind in TYPES.items()}
NAMESPACE = ["langchain", "schema", "messages"]


def claims(document: Document) -> bool:
    """A list of records most of which are `dumpd` constructors of a LangChain message class."""
    records = message_list(document)
    if not records:
        return False
    dicts = [r for r in records[:50] if type(r) is dict]
    return sum(_message_class(r) is not None for r in dicts) * 2 > len(dicts) > 0


def read(document: Document) -> list[Session]:
    """The one session of the list."""
    return read_list(NAME, document, unwrap)


def write(document: Document, sessions: list[Session]) -> str:
    """The file's text with the repaired messages; the others are kept as they were."""
    return write_list(document, sessions, unwrap, wrap)


def _message_class(record: dict[str, Any]) -> str | None:
    """The message class a constructor record builds, or None."""
    path = record.get("id")
    if not (
        type(record.get("lc")) is int
        and record["lc"] == 1
        and record.get("type") == "constructor"
        and isinstance(path, list)
        and path
        and type(path[-1]) is str
        and isinstance(record.get("kwargs"), dict)
    ):
        return None
    return path[-1] if path[-1] in TYPES else None


def unwrap(record: Any) -> tuple[Any, Any]:
    """A record's message type and fields, or None and how to count a record that is no message."""
    if type(record) is not dict:
        return None, ("a record that is not an object", "records that are not objects")
    name = _message_class(record)
    if name is None:
        path = record.get("id")
        named = path[-1] if isinstance(path, list) and path and type(path[-1]) is str else None
        if named is None:
            return None, ("a record that is no serialized message", "records that are no serialized messages")
        return None, (f"a serialized {named!r}", f"serialized {named!r} records")
    return TYPES[name], record["kwargs"]


def wrap(record: Any, kind: str, fields: dict[str, Any]) -> dict[str, Any]:
    """The record holding a message's fields: `record` with them, or a new constructor (its fields
    at their defaults left out, as `dumpd` leaves them)."""
    if record is not None:
        return {**record, "kwargs": fields}
    kwargs = {key: value for key, value in fields.items() if value is not None and value != {}}
    return {"lc": 1, "type": "constructor", "id": NAMESPACE + [CLASSES[kind]], "kwargs": kwargs}


FORMAT = FileFormat(NAME, claims, read, write)
