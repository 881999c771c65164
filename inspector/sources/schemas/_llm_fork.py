"""Writing a repaired `llm` (0.32+) conversation as a new forked thread.

In `llm`'s store a message's hash covers its content and its parent's hash, so no stored row is
ever edited. The repaired conversation is written the way `llm` writes one: the messages before
the first change are shared with the original (same hashes), every message from there on is
stored anew with its hash computed as `llm` computes it, and a new thread points at the new tip
with `forked_from` naming the original thread, which stays untouched.

The hash (a fact of `llm`'s store format): `"b2:" + blake2b(canonical, digest_size=16).hexdigest()`
where `canonical` is the UTF-8 of `{"parent": PARENT_HASH, "message": MESSAGE}` as JSON with sorted
keys, separators `,` and `:` and non-ASCII kept; `MESSAGE` is `{"role", "parts", "provider_metadata"
(only when set)}` and each part is its stored payload plus its `type` (and its `text` column).
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from inspector.errors import InspectorError
from inspector.model import AppliedFix, Session, ToolCall, ToolResult, Turn
from inspector.sources.base import WrittenFix
from inspector.sources.messages.arguments import arguments_as_json
from inspector.sources.messages.text_parts import spread_text
from inspector.sources.schemas.contract import conversation_id
from inspector.sources.sql.audit_table import fixed_row
from inspector.sources.sql.statements import Statements, column_names, found_row

CROCKFORD = "0123456789abcdefghjkmnpqrstvwxyz"


def message_hash(message: dict[str, Any], parent: str | None) -> str:
    """The hash `llm` gives `message` (a role, parts and optional provider metadata) under `parent`."""
    canonical = json.dumps(
        {"parent": parent, "message": message}, sort_keys=True, separators=(",", ":"), ensure_ascii=False
    )
    return "b2:" + hashlib.blake2b(canonical.encode("utf-8"), digest_size=16).hexdigest()


def write_session(conn: Statements, session: Session, fixes: Sequence[AppliedFix], stamp: str) -> list[WrittenFix]:
    """Store the repaired thread as a fork created at `stamp`; returns one audit row per fix."""
    forked_from = conversation_id(session)
    parent: str | None = None
    forked = False
    renamed: dict[str, str] = {}  # original message hash -> its hash in the fork
    for turn in session.turns:
        if turn.raw is not None and not turn.edited and not forked:
            parent = turn.raw["hash"]
            continue
        forked = True
        message = _stored_message(conn, turn) if turn.raw is not None else _new_message(turn)
        parent = _store(conn, message, parent)
        if turn.raw is not None:
            renamed[turn.raw["hash"]] = parent
    thread = _ulid()
    (name,) = found_row(conn.execute("SELECT name FROM threads WHERE id = ?", [forked_from]))
    conn.execute(
        "INSERT INTO threads (id, name, tip_message_hash, forked_from, datetime_utc) VALUES (?, ?, ?, ?, ?)",
        [
            thread,
            f"{name or forked_from} (repaired by inspector)",
            parent,
            forked_from,
            str(datetime.fromisoformat(stamp)),
        ],
    )
    _copy_turns(conn, forked_from, thread, renamed)
    return [
        WrittenFix(
            fix,
            forked_from,
            "messages",
            original,
            f"written as message {renamed.get(original)} of the new thread {thread}",
        )
        for fix, original in ((fix, fixed_row(session, fix, "hash")) for fix in fixes)
    ]


def _copy_turns(conn: Statements, original: str, fork: str, renamed: dict[str, str]) -> None:
    """The original thread's `turns` (what `llm logs` lists, with their tools) again for the fork,
    each pointing at the fork's messages, so `llm logs --cid FORK` shows the repaired conversation."""
    if not conn.has_table("turns"):
        return
    cursor = conn.execute("SELECT * FROM turns WHERE thread_id = ? ORDER BY datetime_utc, id", [original])
    names = column_names(cursor)
    has_tools = conn.has_table("turn_tools")
    for row in cursor.fetchall():
        values = dict(zip(names, row))
        old_id, values["id"], values["thread_id"] = values["id"], _ulid(), fork
        for key in ("parent_message_hash", "tip_message_hash"):
            values[key] = renamed.get(values[key], values[key])
        conn.execute(
            f"INSERT INTO turns ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})",
            [values[name] for name in names],
        )
        if has_tools:
            conn.execute(
                "INSERT INTO turn_tools (turn_id, tool_id, instance_id) SELECT ?, tool_id, instance_id "
                "FROM turn_tools WHERE turn_id = ?",
                [values["id"], old_id],
            )


def _stored_message(conn: Statements, turn: Turn) -> dict[str, Any]:
    """The message of an original turn as `llm` hashes it, with the turn's repaired text, calls
    and result names."""
    role, metadata = found_row(
        conn.execute("SELECT role, provider_metadata FROM messages WHERE hash = ?", [turn.raw["hash"]])
    )
    parts = []
    for kind, text, payload in conn.execute(
        "SELECT type, text, payload FROM parts WHERE message_hash = ? ORDER BY position", [turn.raw["hash"]]
    ):
        part = json.loads(payload) if payload else {}
        if {"text_ref", "attachment", "attachments"} & set(part):
            raise InspectorError(
                f"message {turn.raw['hash']} refers to fragments or attachments; "
                "forking such a conversation is not supported"
            )
        part["type"] = kind
        if text is not None:
            part["text"] = text
        parts.append(part)
    if turn.edited:
        _repair_parts(parts, turn)
    message: dict[str, Any] = {"role": role, "parts": parts}
    metadata = json.loads(metadata) if metadata else None
    if metadata:
        message["provider_metadata"] = metadata
    return message


def _repair_parts(parts: list[dict[str, Any]], turn: Turn) -> None:
    """Give an edited message's parts the turn's text, its calls' names and arguments and its
    results' names (`llm` names a result after the tool called, so it follows a renamed call).
    The nth `tool_call` (`tool_result`) part is the turn's nth call (result), as `llm`
    read them, whatever its `tool_call_id`; calls a repair gave the message (a reply that was only
    the leaked call) are added after its parts."""
    texts = [part for part in parts if part["type"] == "text"]
    spread = spread_text([part.get("text", "") for part in texts], turn.text)
    emptied = [part for part, text in zip(texts, spread) if part.get("text") and not text]  # APIs reject empty text
    for part, text in zip(texts, spread):
        part["text"] = text
    parts[:] = [part for part in parts if not any(part is gone for gone in emptied)]
    if not texts and turn.text:
        parts.insert(0, {"type": "text", "text": turn.text})
    calls, results = iter(turn.tool_calls), iter(turn.tool_results)
    for part in parts:
        call = next(calls, None) if part["type"] == "tool_call" else None
        if call is not None:
            if part.get("name") != call.name:  # a renamed call keeps its id and arguments
                part["name"] = call.name
            if isinstance(call.arguments_raw, dict):  # arguments a repair replaced
                part["arguments"] = call.arguments_raw
        result = next(results, None) if part["type"] == "tool_result" else None
        if result is not None and result.name is not None and part.get("name") not in (None, result.name):
            part["name"] = result.name
    parts.extend(_call_part(call) for call in calls)


def _new_message(turn: Turn) -> dict[str, Any]:
    """A turn a repair added: recovered calls, or the results answering them."""
    parts = [_call_part(call) for call in turn.tool_calls] + [_result_part(result) for result in turn.tool_results]
    return {"role": turn.role, "parts": parts}


def _call_part(call: ToolCall) -> dict[str, Any]:
    part = {"type": "tool_call", "name": call.name, "arguments": call.arguments or {}}
    return {**part, "tool_call_id": call.id} if call.id is not None else part


def _result_part(result: ToolResult) -> dict[str, Any]:
    output = arguments_as_json(result.content)
    part: dict[str, Any] = {"type": "tool_result", "name": result.name or "", "output": output}
    if result.call_id is not None:
        part["tool_call_id"] = result.call_id
    if result.is_error:
        part["exception"] = output
    return part


def _store(conn: Statements, message: dict[str, Any], parent: str | None) -> str:
    """Store the message under `parent` (unless that very message is stored already); its hash."""
    digest = message_hash(message, parent)
    inserted = conn.execute(
        "INSERT OR IGNORE INTO messages (hash, parent_hash, role, provider_metadata) VALUES (?, ?, ?, ?)",
        [
            digest,
            parent,
            message["role"],
            json.dumps(message["provider_metadata"]) if message.get("provider_metadata") else None,
        ],
    ).rowcount
    for position, part in enumerate(message["parts"] if inserted else ()):
        payload = {key: value for key, value in part.items() if key != "type"}
        text = payload.pop("text", None) if part["type"] in ("text", "reasoning") else None
        conn.execute(
            "INSERT INTO parts (message_hash, position, type, tool_name, text, payload) VALUES (?, ?, ?, ?, ?, ?)",
            [digest, position, part["type"], payload.get("name"), text, json.dumps(payload) if payload else None],
        )
    return digest


def _ulid() -> str:
    """A new lowercase ULID, the shape of `llm`'s thread ids: 48 bits of milliseconds, 80 random."""
    value = (time.time_ns() // 1_000_000) << 80 | int.from_bytes(os.urandom(10), "big")
    return "".join(CROCKFORD[(value >> shift) & 31] for shift in range(125, -1, -5))
