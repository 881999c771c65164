"""The `llm` CLI's `logs.db` up to 0.31: `responses(id, model, prompt, system, response,
conversation_id, datetime_utc, ...)` with `tool_calls(response_id, name, arguments, tool_call_id)`
and `tool_results(response_id, name, output, tool_call_id, exception)`.

One conversation per `conversation_id`. Each response gives, in order: the tool results sent with
its prompt, a system turn when its system prompt changes, the user's prompt, and the model's reply
with the calls it made. Responses and their calls and results are read as two streams ordered by
conversation, so memory holds one conversation at a time. Read from SQLite only; written back by
`_text_write` (its calls' names and arguments, its results' names, the texts).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from inspector.model import ASSISTANT, SYSTEM, TOOL, USER, AppliedFix, Session, ToolCall, ToolResult, Turn
from inspector.sources.base import WrittenFix
from inspector.sources.location import HistoryLocation
from inspector.sources.messages.arguments import parse_arguments
from inspector.sources.schemas.contract import HistoryReader, HistorySchema, SchemaWriter
from inspector.sources.schemas.llm import llm_tools
from inspector.sources.sql.rows import grouped, merge_groups
from inspector.sources.sql.statements import Queries, Scope, Statements

NAME = "llm-legacy"
ORDER = "r.conversation_id, r.datetime_utc, r.rowid"


def recognise(db: Queries, tables: dict[str, set[str]]) -> bool:
    """`responses` with llm's columns, and `tool_calls` linked to them by `response_id`."""
    return {"id", "prompt", "response", "conversation_id"} <= tables.get(
        "responses", set()
    ) and "response_id" in tables.get("tool_calls", set())


def conversations(db: Queries, location: HistoryLocation) -> Iterator[tuple[str, int]]:
    """Each conversation's id and its number of responses."""
    for conversation_id, count in db.rows(
        "SELECT conversation_id, count(*) FROM responses GROUP BY conversation_id ORDER BY conversation_id"
    ):
        yield str(conversation_id), count


def sessions(db: Queries, location: HistoryLocation, only: str | None = None, start: int = 0) -> Iterator[Session]:
    """Each conversation as a session (only the conversation `only` when given), from the `start`th on."""
    tools = tuple(llm_tools(db))
    where, params = db.matching(
        "r.conversation_id", only, start, "SELECT conversation_id FROM responses GROUP BY 1 ORDER BY 1"
    )
    responses = db.rows(
        "SELECT r.id, r.conversation_id, r.model, r.system, r.prompt, r.response FROM responses r "
        f"{where} ORDER BY {ORDER}",
        params,
    )
    exception = "tr.exception" if "exception" in db.columns("tool_results") else "NULL"
    extras = db.rows(
        "SELECT * FROM (SELECT 0 AS kind, tc.id, tc.response_id, tc.name, tc.arguments AS body, tc.tool_call_id, "
        f"NULL AS exception, r.conversation_id, {ORDER.replace('r.conversation_id, ', '')} AS at FROM tool_calls tc "
        f"JOIN responses r ON r.id = tc.response_id {where} UNION ALL "
        f"SELECT 1, tr.id, tr.response_id, tr.name, tr.output, tr.tool_call_id, {exception}, r.conversation_id, "
        f"{ORDER.replace('r.conversation_id, ', '')} FROM tool_results tr JOIN responses r ON r.id = tr.response_id "
        f"{where}) ORDER BY conversation_id, kind, id",
        params * 2,
    )
    for conversation_id, rows, extra in merge_groups(grouped(responses, 1), grouped(extras, 7)):
        yield Session(NAME, location.path, tuple(_turns(rows, extra)), tools, location, session_id=str(conversation_id))


def _turns(responses: list[Any], extra: list[Any]) -> Iterator[Turn]:
    calls: dict[str, list[ToolCall]] = {}
    results: dict[str, list[ToolResult]] = {}
    for kind, _, response_id, name, body, call_id, exception, *_ in extra:
        if kind == 0:
            calls.setdefault(response_id, []).append(ToolCall(call_id, name or "", body, parse_arguments(body)))
        else:
            results.setdefault(response_id, []).append(ToolResult(call_id, name, body, bool(exception)))
    position, system = 0, None
    for response_id, _, model, system_prompt, prompt, response in responses:
        pieces: list[
            tuple[str, str, tuple[ToolCall, ...], tuple[ToolResult, ...], str]
        ] = []  # role, text, calls, results, column
        if response_id in results:
            pieces.append((TOOL, "", (), tuple(results[response_id]), "results"))
        if system_prompt and system_prompt != system:
            pieces.append((SYSTEM, system_prompt, (), (), "system"))
            system = system_prompt
        if prompt:
            pieces.append((USER, prompt, (), (), "prompt"))
        pieces.append((ASSISTANT, response or "", tuple(calls.get(response_id, ())), (), "response"))
        for role, text, turn_calls, turn_results, column in pieces:
            raw = {"id": response_id, "column": column, "model": model}
            yield Turn(position, role, text, f"{response_id}:{column}", turn_calls, turn_results, raw)
            position += 1


def changed_rows(db: Statements, session: Session) -> Scope:
    """The conversation's responses, with their calls and results."""
    key = session.session_id
    responses = "response_id IN (SELECT id FROM responses WHERE conversation_id = ?)"
    results = [("tool_results", responses, [key])] if db.has_table("tool_results") else []
    calls = [("tool_calls", responses, [key])] if db.has_table("tool_calls") else []
    return [("responses", "conversation_id = ?", [key]), *calls, *results]


def write(db: Statements, session: Session, fixes: Sequence[AppliedFix], stamp: str) -> list[WrittenFix]:
    """Write a conversation's edited turns back (`_text_write`, loaded only when writing)."""
    from inspector.sources.schemas._text_write import write_llm_legacy

    return write_llm_legacy(db, session, fixes, stamp)


SCHEMA = HistorySchema(
    NAME,
    recognise,
    HistoryReader(conversations, sessions),
    SchemaWriter(write, changed_rows, tables=("responses", "tool_calls", "tool_results")),
)
