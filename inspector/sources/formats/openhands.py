"""OpenHands conversations (the V1 SDK and CLI): `~/.openhands/conversations/<id>/`, a folder
holding `base_state.json` and `events/event-NNNNN-<event id>.json`, one JSON file per event,
opened by its `base_state.json` (or by the folder, whose one session file that is) and read as
one document `{"base_state", "events"}` (`inspector.sources.files.openhands_conversation`).

Each event has an `id`, a `timestamp`, a `source` (`user`, `agent`, `environment`) and its class
as `kind`:
- `SystemPromptEvent`: the system prompt (`system_prompt.text`) and the agent's `tools`;
- `MessageEvent`: a user or assistant message, `llm_message` `{role, content: [{type, text}]}`;
- `ActionEvent`: one tool call, `tool_call` `{id, name, arguments}` (the arguments a JSON string,
  as the model wrote them), with the `thought` before it;
- `ObservationEvent`: the call's result (`observation.content`, an error when
  `observation.is_error`); `AgentErrorEvent` (the agent's error for a call it could not run, such
  as one whose arguments do not parse) and `UserRejectObservation` (a refused call) are error
  results, each linked to its call by `tool_call_id`;
- the run's own records (state updates, pauses, condensations, token counts, hook runs) are
  kept, not turns.
An event of another kind is counted in the session's problems. The assistant turns carry the
model of `base_state.json`'s `agent.llm.model`.

Positive marker: a document of that shape whose events name the SDK's event kinds. OpenHands
resumes a conversation from its folder, but nothing here shows it loading a repaired one: the
format is read-only.
"""

from __future__ import annotations

from typing import Any

from inspector.model import ASSISTANT, SYSTEM, TOOL, USER, Session, ToolCall, ToolResult, ToolSpec, Turn
from inspector.sources.files.document import Document
from inspector.sources.formats.contract import FileFormat
from inspector.sources.messages.arguments import parse_arguments
from inspector.sources.unread_records import Unread, UnreadTally
from inspector.support.counted_words import counted

NAME = "openhands"
UNREAD_EVENTS = (  # what one and several are called
    "event of an unknown kind not read as turns",
    "events of an unknown kind not read as turns",
)
ROLES = {"user": USER, "assistant": ASSISTANT, "system": SYSTEM}
TURN_KINDS = {
    "SystemPromptEvent",
    "MessageEvent",
    "ActionEvent",
    "ObservationEvent",
    "AgentErrorEvent",
    "UserRejectObservation",
}
RUN_KINDS = {
    "ConversationStateUpdateEvent",
    "PauseEvent",
    "Condensation",
    "CondensationRequest",
    "CondensationSummaryEvent",
    "ConversationErrorEvent",
    "TokenEvent",
    "HookExecutionEvent",
}


def claims(document: Document) -> bool:
    """A conversation document (`base_state` and `events`) whose events are the SDK's."""
    value = document.value
    if type(value) is not dict or value.keys() != {"base_state", "events"} or type(value["events"]) is not list:
        return False
    return any(type(event) is dict and event.get("kind") in TURN_KINDS for event in value["events"])


def read(document: Document) -> list[Session]:
    """The conversation as one session."""
    base_state = document.value["base_state"]
    model = _model(base_state)
    turns: list[Turn] = []
    tools: list[ToolSpec] = []
    unknown = 0
    for event in document.value["events"]:
        kind = event.get("kind") if type(event) is dict else None
        if kind in RUN_KINDS:
            continue
        turn = _event_turn(len(turns), event, kind, model) if type(event) is dict else None
        if turn is None:
            unknown += 1
            continue
        turns.append(turn)
        if kind == "SystemPromptEvent":
            tools.extend(_tools(event.get("tools")))
    problems = (counted(unknown, *UNREAD_EVENTS),) if unknown else ()
    conversation_id = base_state.get("id") if type(base_state) is dict else None
    session_id = conversation_id if type(conversation_id) is str else None
    return [Session(NAME, document.path, tuple(turns), tuple(tools), document, 0, session_id, problems)]


def _event_turn(position: int, event: dict[str, Any], kind: Any, model: str | None) -> Turn | None:
    """The turn of one event, or None for an event of a kind not known."""
    event_id = event.get("id") if type(event.get("id")) is str else None
    if kind == "SystemPromptEvent":
        prompt = event.get("system_prompt")
        return Turn(position, SYSTEM, _text([prompt]), event_id, (), (), event)
    if kind == "MessageEvent":
        message = event.get("llm_message")
        message = message if type(message) is dict else {}
        stored_role = message.get("role")
        by_source = USER if event.get("source") == "user" else ASSISTANT
        role = ROLES.get(stored_role, by_source) if type(stored_role) is str else by_source
        return Turn(position, role, _text(message.get("content")), event_id, (), (), event, model=_of(role, model))
    if kind == "ActionEvent":
        stored = event.get("tool_call")
        call = stored if type(stored) is dict else {}
        name = call.get("name") if type(call.get("name")) is str else event.get("tool_name")
        raw = call.get("arguments")
        tool_call = ToolCall(_call_id(event), name if type(name) is str else "", raw, parse_arguments(raw))
        return Turn(position, ASSISTANT, _text(event.get("thought")), event_id, (tool_call,), (), event, model=model)
    if kind in ("ObservationEvent", "AgentErrorEvent", "UserRejectObservation"):
        content, failed = _result(event, kind)
        name = event.get("tool_name") if type(event.get("tool_name")) is str else None
        result = ToolResult(_call_id(event), name, content, failed)
        return Turn(position, TOOL, "", event_id, (), (result,), event)
    return None


def _result(event: dict[str, Any], kind: str) -> tuple[Any, bool]:
    """A result event's content and whether it is an error."""
    if kind == "AgentErrorEvent":
        return event.get("error"), True
    if kind == "UserRejectObservation":
        return f"Action rejected: {event.get('rejection_reason')}", True
    observation = event.get("observation")
    observation = observation if type(observation) is dict else {}
    content = observation.get("content")
    return (_text(content) if type(content) is list else content), observation.get("is_error") is True


def _text(parts: Any) -> str:
    """The text of a list of content parts (`{type: text, text}`)."""
    if type(parts) is not list:
        return ""
    return "".join(
        p["text"] for p in parts if type(p) is dict and p.get("type") == "text" and type(p.get("text")) is str
    )


def _call_id(event: dict[str, Any]) -> str | None:
    value = event.get("tool_call_id")
    return value if type(value) is str else None


def _of(role: str, model: str | None) -> str | None:
    return model if role == ASSISTANT else None


def _tools(stored: Any) -> list[ToolSpec]:
    """The tools a system prompt event names (their definitions are the SDK's own classes: the
    name and description are read)."""
    tools = stored if type(stored) is list else []
    return [
        ToolSpec(tool["name"], {}, tool["description"] if type(tool.get("description")) is str else "")
        for tool in tools
        if type(tool) is dict and type(tool.get("name")) is str
    ]


def _model(base_state: Any) -> str | None:
    """The model of the conversation's agent (`agent.llm.model`)."""
    agent = base_state.get("agent") if type(base_state) is dict else None
    llm = agent.get("llm") if type(agent) is dict else None
    model = llm.get("model") if type(llm) is dict else None
    return model if type(model) is str else None


def survey(document: Document) -> tuple[Unread, ...]:
    """The events of a kind the reader does not know (the conversation names no version)."""
    tally = UnreadTally({})
    for event in document.value["events"]:
        kind = event.get("kind") if type(event) is dict else None
        if kind not in TURN_KINDS and kind not in RUN_KINDS:
            tally.unknown_type(kind, None)
    return tally.unread()


FORMAT = FileFormat(NAME, claims, read, survey=survey)
