"""LangChain messages as `langchain_core.load.dumpd` serializes them: `{"lc": 1, "type":
"constructor", "id": ["langchain", "schema", "messages", "AIMessage"], "kwargs": {...}}`, unwrapped
into a message type and its fields for `langchain_messages` and wrapped back (`kwargs` leaves out
the fields at their defaults, as `dumpd` does).

Used by `langchain_dumpd` (a list of such messages) and `langsmith` (the messages of an `llm`
run's inputs and outputs).
"""

from __future__ import annotations

from typing import Any

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


def message_class(record: dict[str, Any]) -> str | None:
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
    name = message_class(record)
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
