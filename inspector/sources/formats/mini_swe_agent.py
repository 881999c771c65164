"""mini-swe-agent 2.x trajectories (`*.traj.json`): `{"info", "messages", "trajectory_format":
"mini-swe-agent-1.1"}`, as `DefaultAgent.save` writes them (by default
`~/.config/mini-swe-agent/last_mini_run.traj.json`).

`messages` is the conversation as mini sends it to the model, OpenAI Chat messages each with an
`extra` object of mini's own:
- `system`, `user` (the task; with a text-based model, the observations too), `assistant` (its
  calls of mini's `bash {command}` tool as `tool_calls`, `extra.actions` the commands run) and
  `tool` (an observation, by `tool_call_id`; `extra.exception_info` set when the command failed
  to run, an error result, unless it is mini's note that it never ran an action of a reply that
  submitted first);
- a format error: a `user` message with `extra.interrupt_type: "FormatError"` saying what was
  wrong with a reply (no call, or a call whose arguments do not parse). mini drops that reply
  from the conversation but keeps the model's answer in the message's `extra.response` (a Chat
  Completion): it is read as the assistant turn it was, followed by the format error, a user turn,
  or the error result of the reply's calls when it made some;
- the last message, `{"role": "exit", "content", "extra": {"exit_status", "submission"}}`: how the
  run ended, not a turn.
A message of another role is counted in the session's problems.

Positive marker: the `trajectory_format` key naming mini-swe-agent. mini never loads a
trajectory back (its inspector only shows one), so the format is read-only.
"""

from __future__ import annotations

from typing import Any

from inspector.model import ASSISTANT, SYSTEM, TOOL, USER, Session, ToolResult, Turn
from inspector.sources.files.document import Document
from inspector.sources.formats.contract import FileFormat
from inspector.sources.messages.openai_calls import read_tool_calls
from inspector.sources.messages.text_parts import content_text
from inspector.sources.unread_records import Unread, UnreadTally
from inspector.support.counted_words import counted

NAME = "mini-swe-agent"
UNREAD_MESSAGES = (  # what one and several are called
    "message of an unknown role not read as turns",
    "messages of an unknown role not read as turns",
)
MARKER = "mini-swe-agent"
ROLES = {"system": SYSTEM, "user": USER, "assistant": ASSISTANT}
NOT_EXECUTED = "action was not executed"  # mini's note on an action it skipped after a submission


def claims(document: Document) -> bool:
    """An object with mini's `trajectory_format` and a `messages` list."""
    value = document.value
    return (
        isinstance(value, dict)
        and isinstance(value.get("trajectory_format"), str)
        and value["trajectory_format"].startswith(MARKER)
        and isinstance(value.get("messages"), list)
    )


def read(document: Document) -> list[Session]:
    """The trajectory as one conversation."""
    turns: list[Turn] = []
    unread = 0
    model = _model_name(document.value.get("info"))  # (the run's, for each reply)
    for message in document.value["messages"]:
        role = message.get("role") if isinstance(message, dict) else None
        if role == "exit":
            continue
        read_turns = _message_turns(message, role, len(turns), model) if isinstance(message, dict) else None
        if read_turns is None:
            unread += 1
        else:
            turns.extend(read_turns)
    problems = (counted(unread, *UNREAD_MESSAGES),) if unread else ()
    return [Session(NAME, document.path, tuple(turns), (), document, 0, None, problems)]


def _message_turns(message: dict[str, Any], role: Any, position: int, model: str | None) -> list[Turn] | None:
    """The turns one message gives (a reply's written by `model`), or None for a role mini does not write."""
    stored = message.get("extra")
    extra: dict[str, Any] = stored if isinstance(stored, dict) else {}
    text = content_text(message.get("content"))
    if role == "tool":
        failed = bool(extra.get("exception_info")) and extra.get("exception_info") != NOT_EXECUTED
        result = ToolResult(message.get("tool_call_id"), None, message.get("content"), failed)
        return [Turn(position, TOOL, "", None, (), (result,), message)]
    if role == "user" and extra.get("interrupt_type") == "FormatError":
        return _format_error_turns(message, extra, text, position, model)
    if role not in ROLES:
        return None
    calls = read_tool_calls(message.get("tool_calls")) if role == "assistant" else ()
    return [Turn(position, ROLES[role], text, None, calls, (), message, model=model if role == "assistant" else None)]


def _format_error_turns(
    message: dict[str, Any], extra: dict[str, Any], text: str, position: int, model: str | None
) -> list[Turn]:
    """The reply mini dropped (read from, and keeping as its record, the message of
    `extra.response`), then the format error that answered it."""
    reply = _dropped_reply(extra.get("response"))
    if reply is None:
        return [Turn(position, USER, text, None, (), (), message)]
    calls = read_tool_calls(reply.get("tool_calls"))
    dropped = Turn(position, ASSISTANT, content_text(reply.get("content")), None, calls, (), reply, model=model)
    if calls:
        results = tuple(ToolResult(call.id, call.name, text, True) for call in calls)
        return [dropped, Turn(position + 1, TOOL, "", None, (), results, message)]
    return [dropped, Turn(position + 1, USER, text, None, (), (), message)]


def _dropped_reply(response: Any) -> dict[str, Any] | None:
    """The assistant message of a Chat Completion kept with a format error, if there is one."""
    choices = response.get("choices") if isinstance(response, dict) else None
    first = choices[0] if isinstance(choices, list) and choices else None
    reply = first.get("message") if isinstance(first, dict) else None
    return reply if isinstance(reply, dict) else None


def _model_name(info: Any) -> str | None:
    """The model the run used, from `info.config.model.model_name`."""
    config = info.get("config") if isinstance(info, dict) else None
    model = config.get("model") if isinstance(config, dict) else None
    name = model.get("model_name") if isinstance(model, dict) else None
    return name if isinstance(name, str) else None


def survey(document: Document) -> tuple[Unread, ...]:
    """The messages of a role the reader does not know (as `message/<role>`), under the version of
    mini that wrote the trajectory (`info.mini_version`)."""
    info = document.value.get("info")
    version = info.get("mini_version") if isinstance(info, dict) else None
    version = version if isinstance(version, str) else None
    tally = UnreadTally({})
    for message in document.value["messages"]:
        role = message.get("role") if isinstance(message, dict) else None
        if role not in ROLES and role not in ("tool", "exit"):
            tally.unknown_type(f"message/{role}" if type(role) is str else "message", version)
    return tally.unread()


FORMAT = FileFormat(NAME, claims, read, survey=survey)
