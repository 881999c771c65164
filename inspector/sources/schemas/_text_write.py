"""Writing repaired conversations back to schemas whose messages are plain text: Elia, a table
named with `--table/--map`, `llm` before 0.32 (`responses`) and Open WebUI (the `chat` JSON).

An edited turn's text replaces its content; a repaired argument or a renamed call replaces the
stored one where the schema stores calls (`llm`'s old `tool_calls`, Open WebUI's details tags),
and the results answering a renamed call take its name (`llm`'s old `tool_results`);
Open WebUI's newer `chat_message` mirror rows get the same repaired content. None of these has a
place for a call recovered from text, so such calls are recorded in `inspector_fixes` only, and
the audit row says so. On SQLite and PostgreSQL alike, through `Statements`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from inspector.model import AppliedFix, Session, Turn
from inspector.sources.base import WrittenFix
from inspector.sources.location import HistoryLocation
from inspector.sources.schemas._call_rows import stored_rows, update_calls
from inspector.sources.schemas._open_webui_chat import repaired_content, shown_messages
from inspector.sources.schemas.contract import conversation_id
from inspector.sources.sql.audit_table import fixed_row
from inspector.sources.sql.rows import json_or_none
from inspector.sources.sql.statements import Statements, found_row, quote

NO_PLACE = "this schema has no place for tool calls: the recovered calls are kept in this audit row only"


def write_table(conn: Statements, session: Session, fixes: Sequence[AppliedFix], stamp: str) -> list[WrittenFix]:
    """Write the edited turns' texts into their rows of the location's table (a table named with
    `--table/--map`, or Elia's); returns one audit row per fix."""
    location: HistoryLocation = session.document
    table = location.messages_table()
    row_id, content = quote(location.mapping.get("id", "rowid")), quote(location.mapping["content"])
    for turn in _edited(session):
        conn.execute(f"UPDATE {quote(table)} SET {content} = ? WHERE {row_id} = ?", [turn.text, turn.raw["id"]])
    return _written(session, fixes, table, lambda fix: fixed_row(session, fix))


def write_llm_legacy(conn: Statements, session: Session, fixes: Sequence[AppliedFix], stamp: str) -> list[WrittenFix]:
    """Write the edited turns into `llm`'s old `responses` (its prompt, system prompt or response
    column), their calls and the names of the results answering a renamed call; returns one audit
    row per fix."""
    for turn in _edited(session):
        if turn.raw["column"] == "results":  # results answering a renamed call
            _rename_results(conn, turn)
            continue
        conn.execute(f"UPDATE responses SET {quote(turn.raw['column'])} = ? WHERE id = ?", [turn.text, turn.raw["id"]])
        update_calls(conn, turn, "response_id")
    return _written(session, fixes, "responses", lambda fix: fixed_row(session, fix))


def write_open_webui(conn: Statements, session: Session, fixes: Sequence[AppliedFix], stamp: str) -> list[WrittenFix]:
    """Write the edited messages into the chat's JSON (and its mirror rows, updated at `stamp`);
    returns one audit row per fix, each naming the chat's row."""
    _write_open_webui(conn, session, stamp)
    return _written(session, fixes, "chat", lambda fix: session.session_id)


def _written(
    session: Session, fixes: Sequence[AppliedFix], table: str | None, row_of: Callable[[AppliedFix], Any]
) -> list[WrittenFix]:
    """One audit row per fix, in `table` at the row `row_of` names, saying where a recovered call went."""
    return [WrittenFix(fix, session.session_id, table, row_of(fix), NO_PLACE if fix.recovered else "") for fix in fixes]


def _rename_results(conn: Statements, turn: Turn) -> None:
    """Give `llm`'s old `tool_results` rows sent with a response the names of the calls they
    answer, as a renamed call now names its tool."""
    for row, result in zip(stored_rows(conn, "tool_results", "response_id", turn.raw["id"]), turn.tool_results):
        if result.name is not None:
            conn.execute("UPDATE tool_results SET name = ? WHERE id = ?", [result.name, row])


def _write_open_webui(conn: Statements, session: Session, stamp: str) -> None:
    # a results turn is the same message's details tags, which name the call and its result at once
    edited = {turn.raw["id"]: turn for turn in _edited(session) if not turn.raw.get("results")}
    if not edited:
        return
    chat_id = conversation_id(session)
    (text,) = found_row(conn.execute("SELECT CAST(chat AS TEXT) FROM chat WHERE id = ?", [chat_id]))
    chat = json.loads(text)
    linear = chat.get("messages") if isinstance(chat.get("messages"), list) else []
    for message in shown_messages(chat) + [m for m in linear if isinstance(m, dict)]:
        turn = edited.get(message.get("id"))
        if turn is not None and isinstance(message.get("content"), str):
            message["content"] = repaired_content(message["content"], turn.text, turn.tool_calls)
    conn.execute("UPDATE chat SET chat = ? WHERE id = ?", [json.dumps(chat, ensure_ascii=False), chat_id])
    if conn.has_table("chat_message"):
        _write_open_webui_mirror(conn, chat_id, edited, stamp)


def _write_open_webui_mirror(conn: Statements, chat_id: str, edited: dict[str, Turn], stamp: str) -> None:
    """Newer Open WebUI also keeps each message as a `chat_message` row (id `CHAT-MESSAGE`,
    `content` JSON: text, or a list of blocks left as it is) and reads it before the chat JSON."""
    for message_id, turn in edited.items():
        row = conn.execute(
            "SELECT CAST(content AS TEXT) FROM chat_message WHERE id = ?", [f"{chat_id}-{message_id}"]
        ).fetchone()
        content = json_or_none(row[0]) if row else None
        if isinstance(content, str):
            conn.execute(
                "UPDATE chat_message SET content = ?, updated_at = ? WHERE id = ?",
                [
                    json.dumps(repaired_content(content, turn.text, turn.tool_calls), ensure_ascii=False),
                    int(datetime.fromisoformat(stamp).timestamp()),
                    f"{chat_id}-{message_id}",
                ],
            )


def _edited(session: Session) -> list[Turn]:
    return [turn for turn in session.turns if turn.edited and turn.raw is not None]
