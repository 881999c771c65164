"""OpenCode's older JSON storage (releases up to 1.1.65, before its SQLite `opencode.db`):
`~/.local/share/opencode/storage/session/<projectID>/ses_….json`, opened by that file and read,
with its sibling `message/<sessionID>/` and `part/<messageID>/` folders, as one document
`{"session", "messages": [{"info", "parts"}]}` (`inspector.sources.files.opencode_storage`).

The session file holds `{id: "ses_…", slug, version, projectID, directory, title, time, ...}`;
each message `{id, sessionID, role, time, ...}` (the assistant's with `modelID`) and each part
the same objects OpenCode's SQLite history keeps in its `data` column, read into turns as that
history is (`inspector.sources.messages.opencode_parts`): text parts are the turn's text, a
`tool` part is a call and, once it has one, its result in a tool turn just after, a call whose
arguments did not parse being stored as the tool `invalid` quoting them. A message that is
neither a user's nor an assistant's, a part of a type not known, and a message or part whose
file holds no JSON object, are counted in the session's problems.

Positive marker: a document of that shape whose session's `id` starts `ses_` and names its
`projectID`, `version` and `time`. Written back record by record (`write_records`,
`_opencode_storage_write`): the part files a repair changes or adds, as OpenCode writes them,
which `opencode run --session` (1.1.65) then resumes; every other file stays as it was.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from inspector.model import Session, Turn
from inspector.sources.files.document import Document
from inspector.sources.formats.contract import FileFormat
from inspector.sources.messages.opencode_parts import (
    MESSAGE_NOT_AN_OBJECT,
    OTHER_ROLE,
    ROLES,
    Problems,
    message_turns,
    problem_lines,
)
from inspector.sources.messages.opencode_survey import new_tally, survey_message
from inspector.sources.unread_records import Unread

NAME = "opencode-storage"


def claims(document: Document) -> bool:
    """A storage document (`session` and `messages`) whose session is OpenCode's."""
    value = document.value
    if type(value) is not dict or value.keys() != {"session", "messages"} or type(value["messages"]) is not list:
        return False
    session = value["session"]
    if type(session) is not dict or not {"projectID", "version", "time"} <= session.keys():
        return False
    return type(session.get("id")) is str and session["id"].startswith("ses_")


def read(document: Document) -> list[Session]:
    """The session, its messages in order."""
    turns: list[Turn] = []
    problems: Problems = Counter()
    for position, stored in enumerate(document.value["messages"]):
        message = stored.get("info") if type(stored) is dict else None
        if type(message) is not dict:
            problems[MESSAGE_NOT_AN_OBJECT] += 1
            continue
        role = message.get("role")
        if type(role) is not str or role not in ROLES:
            problems[OTHER_ROLE] += 1
            continue
        parts = [(_id(part), part) for part in stored.get("parts") or []]
        turns.extend(message_turns(position, _id(message), ROLES[role], message, parts, problems))
    session_id = document.value["session"]["id"]
    return [Session(NAME, document.path, tuple(turns), (), document, 0, session_id, problem_lines(problems))]


def write_records(document: Document, sessions: list[Session]) -> dict[str, str]:
    """The part files a repair changes or adds (`_opencode_storage_write`, loaded only when writing)."""
    from inspector.sources.formats._opencode_storage_write import write_records as part_files

    return part_files(document, sessions)


def survey(document: Document) -> tuple[Unread, ...]:
    """The message roles and part types the reader does not know, and the keys it does not know
    on the messages, parts and tool states, under the OpenCode `version` the session names."""
    stated = document.value["session"].get("version")
    version = stated if type(stated) is str else None
    tally = new_tally()
    for stored in document.value["messages"]:
        if type(stored) is dict:
            survey_message(tally, stored.get("info"), stored.get("parts") or [], version)
    return tally.unread()


def _id(record: Any) -> str:
    """A record's `id` ("" when it has none)."""
    value = record.get("id") if type(record) is dict else None
    return value if type(value) is str else ""


FORMAT = FileFormat(NAME, claims, read, write_records=write_records, survey=survey)
