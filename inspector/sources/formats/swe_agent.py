"""SWE-agent trajectories (`trajectories/<user>/<run>/<instance>/<instance>.traj`): `{"trajectory",
"history", "info", "replay_config", "environment"}`, as `DefaultAgent.save_trajectory` writes them
(`sweagent/agent/agents.py`).

`history` is the conversation as SWE-agent sends it to the model, and is what is read, one turn a
message: `system`, `user` (the instance template; with a text parser, the observations too),
`assistant` (`content`, with `thought` and `action`; its calls, with the default
function-calling parser, as OpenAI `tool_calls`) and `tool` (an observation, answering the call
named in `tool_call_ids`). `trajectory` repeats each step (`response`, `thought`, `action`,
`observation`, and the whole `query` sent): it is not read again. A message of another role is
counted in the session's problems. A reply SWE-agent could not parse is asked again and kept in
neither list.

Positive marker: an object with the `trajectory` and `history` lists and the `info` object.
SWE-agent's replay reads a trajectory's actions again (`sweagent run-replay`), not its history,
so the format is read-only.
"""

from __future__ import annotations

from typing import Any

from inspector.model import ASSISTANT, SYSTEM, TOOL, USER, Session, ToolResult, Turn
from inspector.sources.files.document import Document
from inspector.sources.formats.contract import FileFormat
from inspector.sources.messages.message_survey import keysets, survey_messages
from inspector.sources.messages.openai_calls import read_tool_calls
from inspector.sources.messages.text_parts import content_text
from inspector.sources.unread_records import Unread, UnreadTally
from inspector.support.counted_words import counted

NAME = "swe-agent"
UNREAD_ENTRIES = (  # what one and several are called
    "history entry of an unknown role not read as turns",
    "history entries of an unknown role not read as turns",
)
ROLES = {"system": SYSTEM, "user": USER, "assistant": ASSISTANT}
TRAJECTORY = "trajectory"  # the file's own keys are counted under this record type
# A history entry's keys (SWE-agent's `HistoryItem`), the same on every role.
_ENTRY = (
    "role content message_type agent is_demo thought action tool_calls tool_call_ids tags cache_control thinking_blocks"
)
KNOWN_KEYS = keysets(
    {
        TRAJECTORY: "trajectory history info replay_config environment",
        **{f"message/{role}": _ENTRY for role in ("system", "user", "assistant", "tool")},
        "block/text": "type text cache_control",
        "block/image_url": "type image_url",
        "tool_call": "id type function",
        "tool_call function": "name arguments",
    }
)


def claims(document: Document) -> bool:
    """An object with SWE-agent's `trajectory` and `history` lists and `info` object."""
    value = document.value
    return (
        isinstance(value, dict)
        and isinstance(value.get("trajectory"), list)
        and isinstance(value.get("history"), list)
        and isinstance(value.get("info"), dict)
    )


def read(document: Document) -> list[Session]:
    """The history as one conversation."""
    turns: list[Turn] = []
    unread = 0
    for message in document.value["history"]:
        turn = _turn(message, len(turns)) if isinstance(message, dict) else None
        if turn is None:
            unread += 1
        else:
            turns.append(turn)
    problems = (counted(unread, *UNREAD_ENTRIES),) if unread else ()
    return [Session(NAME, document.path, tuple(turns), (), document, 0, None, problems)]


def _turn(message: dict[str, Any], position: int) -> Turn | None:
    """The turn of one history entry, or None for a role SWE-agent does not write."""
    role = message.get("role")
    if role == "tool":
        ids = message.get("tool_call_ids")
        call_id = ids[0] if isinstance(ids, list) and ids and isinstance(ids[0], str) else None
        result = ToolResult(call_id, None, message.get("content"), False)
        return Turn(position, TOOL, "", None, (), (result,), message)
    if role not in ROLES:
        return None
    calls = read_tool_calls(message.get("tool_calls")) if role == "assistant" else ()
    return Turn(position, ROLES[role], content_text(message.get("content")), None, calls, (), message)


def survey(document: Document) -> tuple[Unread, ...]:
    """The history roles and content part types the reader does not know, and the keys it does not
    know on the file, its history entries, their parts and calls, under the SWE-agent version
    `info.swe_agent_version` names."""
    value = document.value
    version = value["info"].get("swe_agent_version")
    version = version if type(version) is str else None
    tally = UnreadTally(KNOWN_KEYS)
    tally.keys(TRAJECTORY, value, version)
    survey_messages(tally, value["history"], version)
    return tally.unread()


FORMAT = FileFormat(NAME, claims, read, survey=survey)
