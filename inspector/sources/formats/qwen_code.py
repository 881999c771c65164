"""Qwen Code chats: `~/.qwen/projects/<working folder, / as ->/chats/<session uuid>.jsonl` (older
versions `~/.qwen/tmp/<project hash>/chats/`).

Shape read: JSON Lines, one record per line, in Claude Code's envelope (`uuid`, `parentUuid`,
`sessionId`, `timestamp`, `type`, `cwd`, `version`, ...) but holding a Gemini `Content` as its
`message` (`role: "user" | "model"`, `parts` of `text`, `functionCall {id, name, args}` and
`functionResponse {id, name, response}`), read as `messages.gemini_contents` reads one. The
turns are the `user`, `assistant` and `tool_result` records with a message: an assistant
record's `model` is its turn's model; a `tool_result` record answers the call of the same id,
an error when its `toolCallResult.status` is `"error"` (or its response holds an `error`).
Positive marker: such a record, whose message has Gemini `parts` (Claude Code's has Anthropic
`content`).

Records in a subagent's thread (`isSidechain`) form their own session, `SESSION/agent-AGENT`;
the main thread's id is the file's `sessionId`. A turn's position is its line's index (0-based),
its id the record's uuid, its `raw` the record. `system` records (`ui_telemetry`,
`attribution_snapshot`, `chat_compression`, ...) and message records of a `subtype` that carry no
message are kept in place, never turns; a record of an unknown type is counted in the session's
problems. Qwen Code resumes its chats (`qwen --continue`), so the format is written:
`_qwen_code_chain` splices new records into the `parentUuid` chain as Qwen Code writes them.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import PurePath
from typing import Any

from inspector.model import ASSISTANT, TOOL, Session, Turn
from inspector.sources.files.document import Document
from inspector.sources.files.line_problems import NOT_AN_OBJECT, line_problems
from inspector.sources.formats import _qwen_code_chain
from inspector.sources.formats._qwen_code_chain import Thread
from inspector.sources.formats.contract import FileFormat
from inspector.sources.messages.gemini_contents import content_turn
from inspector.sources.messages.turn_models import model_name
from inspector.sources.unread_records import Unread, UnreadTally

NAME = "qwen-code"

MESSAGE_TYPES = frozenset({"user", "assistant", "tool_result"})
KNOWN_TYPES = frozenset({"system"})
CONTENT_ROLES = frozenset({"user", "model"})
CLAIM_LOOK = 50  # records looked at for the marker
# The keys of a record (0.24's `ChatRecord`), read or known to be kept as they are; `scan --unknowns` lists others.
RECORD_KEYS = frozenset(
    {
        *("uuid", "parentUuid", "sessionId", "timestamp", "type", "subtype", "provenance", "cwd", "version"),
        *("gitBranch", "promptId", "daemonPromptId", "goalContext", "backgroundTurn", "deliveredTurn"),
        *("message", "usageMetadata", "model", "contextWindowSize", "toolCallResult", "systemPayload"),
        *("agentId", "agentName", "agentColor", "isSidechain", "agentRunId", "agentRound", "externalInputKind"),
        "forkedFrom",
    }
)


def claims(document: Document) -> bool:
    """JSON Lines (or one line) whose first records hold a Qwen Code message record: a `user`,
    `assistant` or `tool_result` record with a `uuid`, a `parentUuid` key, a `sessionId` and a
    Gemini `Content` message (a `parts` list, role `user` or `model`)."""
    return any(_is_message_record(record) for record in _records(document)[:CLAIM_LOOK])


def read(document: Document) -> list[Session]:
    """One session for the main thread, then one per subagent thread, in the order they start."""
    records = _records(document)
    threads = _qwen_code_chain.threads_of(records)
    file_id = _file_session_id(document, threads)
    sessions: list[Session] = []
    for index, thread in enumerate(threads):
        turns = [_turn(position, record) for position, record in thread.records if _is_message_record(record)]
        if not turns:  # a thread of system records only
            continue
        problems = (
            () if sessions else tuple(line_problems(records, _unread_label, "record", "record"))
        )  # the file's, told once
        session_id = file_id if not thread.sidechain else f"{file_id}/{thread.key}"
        sessions.append(Session(NAME, document.path, tuple(turns), (), document, index, session_id, problems))
    return sessions


def write(document: Document, sessions: list[Session]) -> str:
    """The file's text with every session's repaired turns; untouched lines are kept byte for byte."""
    records = _records(document)
    return _qwen_code_chain.render(document, records, sessions, _qwen_code_chain.threads_of(records))


def _turn(position: int, record: dict[str, Any]) -> Turn:
    """A message record as a turn: its message read as a Gemini content, with the record's uuid,
    model and result status."""
    turn = content_turn(position, record["message"])
    results = turn.tool_results
    if record["type"] == "tool_result" and _status(record) == "error":
        results = tuple(replace(result, is_error=True) for result in results)
    role = TOOL if record["type"] == "tool_result" and results else turn.role
    model = model_name(record.get("model")) if role == ASSISTANT else None
    return replace(turn, role=role, id=record["uuid"], tool_results=results, raw=record, model=model)


def _status(record: dict[str, Any]) -> Any:
    result = record.get("toolCallResult")
    return result.get("status") if isinstance(result, dict) else None


def _records(document: Document) -> list[Any]:
    """The file's records: the lines of JSON Lines, or the one value of a one-line file."""
    return document.value if document.is_jsonl else [document.value]


def _is_message_record(record: Any) -> bool:
    if not isinstance(record, dict) or record.get("type") not in MESSAGE_TYPES:
        return False
    message = record.get("message")
    return (
        type(record.get("uuid")) is str
        and "parentUuid" in record
        and "sessionId" in record
        and isinstance(message, dict)
        and isinstance(message.get("parts"), list)
        and message.get("role") in CONTENT_ROLES
    )


def _file_session_id(document: Document, threads: list[Thread]) -> str:
    """The `sessionId` of the main thread's last message record (the one Qwen Code resumes
    from), else the file's name (Qwen Code names it by the session)."""
    for thread in threads[:1]:
        for _, record in reversed(thread.records):
            if _is_message_record(record) and type(session_id := record.get("sessionId")) is str:
                return session_id
    return PurePath(document.path).stem


def _unread_label(record: Any) -> str | None:
    """What a record not read as a turn is, when Qwen Code would not write it so; None for one it
    would (a message, a system record, a message record of a subtype that carries none)."""
    if not isinstance(record, dict):
        return NOT_AN_OBJECT
    kind = record.get("type")
    if kind in KNOWN_TYPES or _is_message_record(record):
        return None
    if kind in MESSAGE_TYPES:
        if type(record.get("subtype")) is str and "message" not in record:
            return None
        return f"of type {kind!r} without a uuid or a Gemini message"
    return f"of type {kind!r}" if type(kind) is str else "without a type"


def survey(document: Document) -> tuple[Unread, ...]:
    """The record types the reader does not know, and the keys of records it does not know, each
    under the Qwen Code `version` the records say wrote them (the last one stated so far: a
    resumed chat holds several)."""
    tally = UnreadTally(dict.fromkeys(MESSAGE_TYPES | KNOWN_TYPES, RECORD_KEYS))
    version = None
    for record in _records(document):
        if type(record) is not dict:
            continue
        stated = record.get("version")
        version = stated if type(stated) is str else version
        kind = record.get("type")
        if kind in MESSAGE_TYPES or kind in KNOWN_TYPES:
            tally.keys(kind, record, version)
        else:
            tally.unknown_type(kind, version)
    return tally.unread()


FORMAT = FileFormat(NAME, claims, read, write, survey)
