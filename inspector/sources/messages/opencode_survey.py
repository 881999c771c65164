"""What the OpenCode reader (`opencode_parts`) does not know in a message and its parts, shared by
the SQLite history (the schema `opencode`) and the older JSON storage (`opencode-storage`), for
`scan --unknowns`: a message of a role it does not read (`message/<role>`) and a part of a type it
does not know (`part/<type>`) are counted as record types; on the messages and parts it knows,
and on a `tool` part's `state` (`part/tool state`), each key OpenCode's message schema does not
list is counted under that record type."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from inspector.sources.unread_records import UnreadTally

TOOL_STATE = "part/tool state"
_PART = "id sessionID messageID type"  # every part's own keys (the SQLite history keeps ids in columns)
# The keys of each message role and part type, as OpenCode's message schema (`MessageV2`) lists
# them, with those Kilo CLI adds (`metrics`, a step's `time`).
_KEYS = {
    "message/user": "id sessionID role time summary agent model system tools variant format",
    "message/assistant": "id sessionID role time error parentID modelID providerID mode agent path summary "
    "cost tokens finish structured variant",
    "part/text": f"{_PART} text synthetic ignored time metadata",
    "part/reasoning": f"{_PART} text metadata time",
    "part/file": f"{_PART} mime filename url source",
    "part/tool": f"{_PART} callID tool state metadata",
    "part/step-start": f"{_PART} snapshot time",
    "part/step-finish": f"{_PART} reason snapshot cost tokens time metrics",
    "part/snapshot": f"{_PART} snapshot",
    "part/patch": f"{_PART} hash files",
    "part/agent": f"{_PART} name source",
    "part/subtask": f"{_PART} prompt description agent command model",
    "part/retry": f"{_PART} attempt error time",
    "part/compaction": f"{_PART} auto",
    TOOL_STATE: "status input raw output title metadata time attachments error",
}
KNOWN_KEYS = {kind: frozenset(keys.split()) for kind, keys in _KEYS.items()}


def new_tally() -> UnreadTally:
    """A tally that knows OpenCode's messages and parts."""
    return UnreadTally(KNOWN_KEYS)


def survey_message(tally: UnreadTally, message: Any, parts: Iterable[Any], version: str | None) -> None:
    """Count what the reader does not know in one message (a JSON object, or anything else as
    stored) and its parts, under the OpenCode `version` its session names."""
    role = message.get("role") if type(message) is dict else None
    kind = f"message/{role}" if type(role) is str else "message"
    if not tally.knows(kind):
        tally.unknown_type(kind, version)
        return
    tally.keys(kind, message, version)
    for part in parts:
        part_type = part.get("type") if type(part) is dict else None
        part_kind = f"part/{part_type}" if type(part_type) is str else "part"
        if not tally.knows(part_kind):
            tally.unknown_type(part_kind, version)
            continue
        tally.keys(part_kind, part, version)
        if part_type == "tool" and type(part.get("state")) is dict:
            tally.keys(TOOL_STATE, part["state"], version)
