"""The `llm` CLI's `logs.db`, 0.32 and later: `messages(hash, parent_hash, role, provider_metadata)`
chained through parents, `parts(id, message_hash, position, type, tool_name, text, payload)` and
`threads(id, name, tip_message_hash, forked_from, datetime_utc)`.

One conversation per thread: the chain from its tip back to the root, read with one recursive
query. Text parts give the turn's text; `tool_call` parts (payload `{name, arguments,
tool_call_id}`) its calls; `tool_result` parts (payload `{name, output, tool_call_id, exception?}`)
its results. Tool definitions come from the `tools` table. Read from SQLite only (`llm` keeps
its logs there); written back as a new fork by `_llm_fork`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from inspector.catalogue import parse_tool_definitions
from inspector.model import ASSISTANT, SYSTEM, TOOL, USER, AppliedFix, Session, ToolCall, ToolResult, ToolSpec, Turn
from inspector.sources.base import WrittenFix
from inspector.sources.location import HistoryLocation
from inspector.sources.messages.arguments import parse_arguments
from inspector.sources.schemas.contract import HistoryReader, HistorySchema, SchemaWriter
from inspector.sources.sql.rows import grouped, json_or_none
from inspector.sources.sql.statements import Queries, Statements

NAME = "llm"
ROLES = {"system": SYSTEM, "user": USER, "assistant": ASSISTANT, "tool": TOOL}
CHAIN = """WITH RECURSIVE chain(hash, parent_hash, role, depth) AS (
    SELECT hash, parent_hash, role, 0 FROM messages WHERE hash = ?
    UNION ALL SELECT m.hash, m.parent_hash, m.role, chain.depth + 1 FROM messages m JOIN chain ON m.hash = chain.parent_hash
)"""


def recognise(db: Queries, tables: dict[str, set[str]]) -> bool:
    """The 0.32+ message store, holding threads (or no older `responses` rows either)."""
    if not (
        {"hash", "parent_hash", "role"} <= tables.get("messages", set())
        and {"message_hash", "position", "type", "payload"} <= tables.get("parts", set())
        and {"id", "tip_message_hash"} <= tables.get("threads", set())
    ):
        return False
    has_threads = db.value("SELECT EXISTS (SELECT 1 FROM threads)")
    return bool(has_threads) or "responses" not in tables or not db.value("SELECT EXISTS (SELECT 1 FROM responses)")


def conversations(db: Queries, location: HistoryLocation) -> Iterator[tuple[str, int]]:
    """Each thread's id and the length of its chain."""
    for thread_id, tip in list(db.rows("SELECT id, tip_message_hash FROM threads ORDER BY datetime_utc, id")):
        yield thread_id, db.value(f"{CHAIN} SELECT count(*) FROM chain", [tip])


def sessions(db: Queries, location: HistoryLocation, only: str | None = None, start: int = 0) -> Iterator[Session]:
    """Each thread as a session (only the thread `only` when given), from the `start`th on."""
    tools = tuple(llm_tools(db))
    where, params = ("WHERE id = ?", [only]) if only is not None else ("", [])
    for thread_id, tip in list(
        db.rows(
            f"SELECT id, tip_message_hash FROM threads {where} ORDER BY datetime_utc, id {db.offset}",
            [*params, start],
        )
    ):
        rows = db.rows(
            f"{CHAIN} SELECT chain.hash, chain.role, p.type, p.tool_name, p.text, p.payload "
            "FROM chain LEFT JOIN parts p ON p.message_hash = chain.hash "
            "ORDER BY chain.depth DESC, p.position",
            [tip],
        )
        turns = [
            _turn(position, message_hash, parts) for position, (message_hash, parts) in enumerate(grouped(rows, 0))
        ]
        yield Session(
            NAME, location.path, tuple(t for t in turns if t is not None), tools, location, session_id=thread_id
        )


def llm_tools(db: Queries) -> list[ToolSpec]:
    """The tool definitions `llm` recorded in its `tools` table."""
    if not db.has_table("tools"):
        return []
    definitions = []
    for name, description, schema in db.rows("SELECT name, description, input_schema FROM tools ORDER BY id"):
        parameters = json_or_none(schema)
        definitions.append(
            {
                "name": name,
                "description": description or "",
                "input_schema": parameters if isinstance(parameters, dict) else {},
            }
        )
    return list(parse_tool_definitions(definitions))


def _turn(position: int, message_hash: str, parts: list[Any]) -> Turn | None:
    role = ROLES.get(parts[0][1])
    if role is None:
        return None
    texts, calls, results = [], [], []
    for _, _, kind, tool_name, text, payload in parts:
        body = json_or_none(payload) if payload else {}
        body = body if isinstance(body, dict) else {}
        if kind == "text" and isinstance(text, str):
            texts.append(text)
        elif kind == "tool_call":
            arguments = body.get("arguments")
            calls.append(
                ToolCall(
                    body.get("tool_call_id"), body.get("name") or tool_name or "", arguments, parse_arguments(arguments)
                )
            )
        elif kind == "tool_result":
            results.append(
                ToolResult(
                    body.get("tool_call_id"),
                    body.get("name") or tool_name,
                    body.get("output"),
                    bool(body.get("exception")),
                )
            )
    return Turn(position, role, "".join(texts), message_hash, tuple(calls), tuple(results), {"hash": message_hash})


def write(db: Statements, session: Session, fixes: Sequence[AppliedFix], stamp: str) -> list[WrittenFix]:
    """Write a repaired thread as a new fork (`_llm_fork`, loaded only when writing)."""
    from inspector.sources.schemas._llm_fork import write_session

    return write_session(db, session, fixes, stamp)


# a fork only adds rows (no stored row is ever edited): no rows to image, its fixes cannot be undone
SCHEMA = HistorySchema(
    NAME,
    recognise,
    HistoryReader(conversations, sessions),
    SchemaWriter(write, None, tables=("messages", "parts", "threads", "turns", "turn_tools"), forks=True),
)
