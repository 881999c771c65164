"""LangChain's `messages_to_dict` records, `{"type": <message type>, "data": {fields}}`: the shape
of a `langchain` file's list and of each row of a `langchain-sql` history's `message_store`."""

from __future__ import annotations

from typing import Any

from inspector.sources.messages.langchain_messages import ROLES


def is_message(record: Any) -> bool:
    """Whether `record` is one `messages_to_dict` message."""
    kind = record.get("type")
    return type(kind) is str and kind in ROLES and isinstance(record.get("data"), dict)


def unwrap(record: Any) -> tuple[Any, Any]:
    """A record's message type and fields, or None and how to count a record that is no message."""
    if type(record) is not dict:
        return None, ("a record that is not an object", "records that are not objects")
    kind, data = record.get("type"), record.get("data")
    if type(kind) is not str or not isinstance(data, dict):
        return None, ("a record without a type and data", "records without a type and data")
    return kind, data


def wrap(record: Any, kind: str, fields: dict[str, Any]) -> dict[str, Any]:
    """The record holding a message's fields: `record` with them, or a new one."""
    return {"type": kind, "data": fields} if record is None else {**record, "data": fields}
