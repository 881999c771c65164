"""GitHub Copilot CLI sessions: `~/.copilot/session-state/<session id>/events.jsonl` (`COPILOT_HOME`
moves `~/.copilot`), beside the session's `workspace.yaml`.

Shape read: JSON Lines, one event per line, `{"type", "data", "id", "timestamp", "parentId"}`, each
event's `parentId` the id of the one before it. The log opens with `session.start` (`sessionId`,
`copilotVersion`, `context.cwd`); each resume appends `session.resume` and the turns that follow.
The messages are `user.message`, `system.message` and `assistant.message` (its `toolRequests` are
the calls, arguments an object, its `model` the turn's model); each call's result is its
`tool.execution_complete` event, linked by `toolCallId` (how each event is read:
`_copilot_cli_events`). A subagent's events carry its `agentId` and form their own session, with
the id `SESSION/agent-AGENT`; the main thread's id is the `sessionId`.

Positive marker: a `session.start` event whose data names the `copilotVersion` (or the producer
`copilot-agent`) among the first 50 lines. The CLI loads a session back (`copilot --resume`), so the
format is written (`_copilot_cli_write`): untouched lines stay byte for byte.

Older versions kept a session as one `~/.copilot/history-session-state/<id>.json`; 1.0 neither
writes nor reads those files, and this format does not read them.
"""

from __future__ import annotations

from typing import Any

from inspector.model import Session
from inspector.sources.files.document import Document
from inspector.sources.formats._copilot_cli_events import START, ThreadReader, threads, unparsed_calls
from inspector.sources.formats._copilot_cli_survey import survey
from inspector.sources.formats._copilot_cli_write import rebuilt_events
from inspector.sources.formats.contract import FileFormat

NAME = "copilot-cli"


def claims(document: Document) -> bool:
    """JSON Lines holding the CLI's `session.start` event within the first 50 lines."""
    if not document.is_jsonl:
        return False
    for record in document.value[:50]:
        if type(record) is dict and record.get("type") == START:
            data = record.get("data")
            return type(data) is dict and (
                type(data.get("copilotVersion")) is str or data.get("producer") == "copilot-agent"
            )
    return False


def read(document: Document) -> list[Session]:
    """The main thread's session, then one per subagent."""
    records = document.value
    unparsed = unparsed_calls(records)
    main_id = _session_id(records)
    sessions: list[Session] = []
    for agent, lines in threads(records).items():
        reader = ThreadReader(unparsed)
        for position in lines:
            reader.read(position, records[position])
        session_id = main_id if agent is None else f"{main_id}/agent-{agent}"
        problems = tuple(reader.problems())
        sessions.append(
            Session(NAME, document.path, tuple(reader.turns), (), document, len(sessions), session_id, problems)
        )
    return sessions


def write(document: Document, sessions: list[Session]) -> str:
    """The log's text with the repaired events; every other line is kept as it was."""
    return document.render(rebuilt_events(document.value, sessions))


def _session_id(records: list[Any]) -> str | None:
    for record in records[:50]:
        if type(record) is dict and record.get("type") == START and type(record.get("data")) is dict:
            value = record["data"].get("sessionId")
            return value if type(value) is str else None
    return None


FORMAT = FileFormat(NAME, claims, read, write, survey)
