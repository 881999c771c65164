"""LangChain messages, read into turns and written back: the one reader of the containers that
hold them (`messages_to_dict` lists, `dumpd` lists and `SQLChatMessageHistory` rows).

A message is a type (`human`, `ai`, `tool`, `system`, `function`, `chat` and their `...Chunk`
spellings) and its fields (`data` in `messages_to_dict`, `kwargs` in `dumpd`, where fields left at
their defaults are omitted): `content` (a string, or a list of strings and blocks, whose text is
that of the strings and `text` blocks), `id`, `name`, and:

- `ai`: `tool_calls` (`[{name, args: {...}, id, type: "tool_call"}]`) and `invalid_tool_calls`
  (`[{name, args: "raw text", id, error}]`: a call whose arguments did not parse, read as a call
  whose `arguments_raw` is that raw string, so `malformed-arguments` flags it), in that order.
  `additional_kwargs.tool_calls` holds the same calls as the provider sent them (OpenAI-shaped) and
  is read only when both lists are missing or empty, as `AIMessage` itself reads it on load (its
  `_backwards_compat_tool_calls`); a legacy `additional_kwargs.function_call` is one call more;
- `tool`: one result (`tool_call_id`, `status: "error"` marks a failure); `function`: one result
  by `name`.

Writing keeps both copies of a call in step: a repaired or renamed call is written into its
`tool_calls` / `invalid_tool_calls` entry (a call whose arguments a repair replaced moves from
`invalid_tool_calls` to `tool_calls`, as LangChain would have parsed it) and into the
`additional_kwargs.tool_calls` entry with its id, so a history sent on to a provider (which
`langchain-openai` builds from `tool_calls`, but LangChain rebuilds from `additional_kwargs` when
both lists are empty) says the same thing either way. Calls a repair adds go into `tool_calls`
(and `additional_kwargs.tool_calls` when the message has that list); their results are new `tool`
messages. `tool_call` blocks inside a list `content` (output version v1) are left as they are.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from inspector.model import ASSISTANT, NO_RESULT, SYSTEM, TOOL, USER, ToolCall, ToolResult, Turn
from inspector.sources.messages.arguments import arguments_as_json
from inspector.sources.messages.langchain_calls import message_calls, tool_call, write_calls
from inspector.sources.messages.record_lists import rebuild_records
from inspector.sources.messages.text_parts import spread_text
from inspector.support.counted_words import counted

ROLES = {
    "human": USER,
    "ai": ASSISTANT,
    "tool": TOOL,
    "system": SYSTEM,
    "function": TOOL,
    "chat": None,
    "HumanMessageChunk": USER,
    "AIMessageChunk": ASSISTANT,
    "ToolMessageChunk": TOOL,
    "SystemMessageChunk": SYSTEM,
    "FunctionMessageChunk": TOOL,
    "ChatMessageChunk": None,
}
CHATS = ("chat", "ChatMessageChunk")  # a tuple: `kind` is checked against it, never hashed first
CHAT_ROLES = {
    "user": USER,
    "human": USER,
    "assistant": ASSISTANT,
    "ai": ASSISTANT,
    "system": SYSTEM,
    "developer": SYSTEM,
    "tool": TOOL,
    "function": TOOL,
}
# What to make of one container record: (message type, its fields), or None with how to count it.
Unwrap = Callable[[Any], tuple[str, dict[str, Any]] | tuple[None, tuple[str, str]]]


class MessageReader:
    """Reads a session's messages one at a time into `turns`, naming each result after its call,
    and counts the records it did not read as turns (`problems`)."""

    def __init__(self) -> None:
        self.turns: list[Turn] = []
        self._names: dict[str | None, str] = {}  # a call's id -> its name (a result without an id finds none)
        self._skipped: Counter[tuple[str, str]] = Counter()

    def read(self, position: int, kind: str, fields: dict[str, Any], raw: Any, turn_id: str | None = None) -> None:
        """Read the message of type `kind` with `fields` (kept as `raw`) as the turn at `position`,
        or count it; the turn's id is `turn_id`, else the message's own `id`."""
        role = ROLES.get(kind)
        unknown = ""
        if kind in CHATS:
            stated = fields.get("role")
            role = CHAT_ROLES.get(stated) if type(stated) is str else None
            unknown = " with an unknown role"
        if role is None:
            self.skip(f"a message of type {kind!r}{unknown}", f"messages of type {kind!r}{unknown}")
            return
        content = fields.get("content")
        text = content if type(content) is str else content_text(content)
        if turn_id is None:
            turn_id = own_id if type(own_id := fields.get("id")) is str else None
        calls: tuple[ToolCall, ...] = ()
        results: tuple[ToolResult, ...] = ()
        if role == ASSISTANT:
            calls = message_calls(fields)
            self._names.update((call.id, call.name) for call in calls if type(call.id) is str)
        elif role == TOOL:
            call_id = fields.get("tool_call_id")
            if type(call_id) is not str:
                call_id = None
            name = fields.get("name")
            if type(name) is not str:
                name = self._names.get(call_id)
            results = (
                ToolResult(
                    call_id, name, text if isinstance(content, list) else content, fields.get("status") == "error"
                ),
            )
        self.turns.append(Turn(position, role, text, turn_id, calls, results, raw))

    def skip(self, one: str, many: str) -> None:
        """Count one record not read as a turn, described as `one` ("a message of type 'x'") and,
        when there are several, `many` ("messages of type 'x'")."""
        self._skipped[one, many] += 1

    def problems(self) -> list[str]:
        """One line per kind of record not read as a turn, with its count."""
        return [
            counted(count, f"{one.partition(' ')[2]} not read as a turn", f"{many} not read as turns")
            for (one, many), count in self._skipped.items()
        ]


def read_records(reader: MessageReader, records: list[Any], unwrap: Unwrap) -> None:
    """Read every record of a container list, in order, each kept as its own `raw`."""
    for position, record in enumerate(records):
        opened = unwrap(record)
        if opened[0] is None:
            reader.skip(*opened[1])
        else:
            kind, fields = opened
            reader.read(position, kind, fields, record)


def content_text(content: Any) -> str:
    """The text of a list content: its strings and `text` blocks."""
    if not isinstance(content, list):
        return ""
    return "".join(part if type(part) is str else part["text"] for part in content if _is_text(part))


def _is_text(part: Any) -> bool:
    return type(part) is str or (
        isinstance(part, dict) and part.get("type") == "text" and type(part.get("text")) is str
    )


def rebuild(
    records: list[Any], turns: Iterable[Turn], unwrap: Unwrap, wrap: Callable[[Any, str, dict[str, Any]], Any]
) -> list[Any]:
    """A container's records after repair: `wrap(record, type, fields)` gives the record holding a
    message's new fields (`record` is the one it replaces, None for a new message)."""

    def edited(turn: Turn) -> Any:
        opened = unwrap(turn.raw)
        assert opened[0] is not None, "an edited turn was read from a message"
        kind, fields = opened
        return wrap(turn.raw, kind, repaired_fields(turn, fields))

    return rebuild_records(
        records, turns, edited, lambda turn: [wrap(None, kind, fields) for kind, fields in new_messages(turn)]
    )


def repaired_fields(turn: Turn, fields: dict[str, Any]) -> dict[str, Any]:
    """A message's fields with the turn's repaired text, calls and result names."""
    out = dict(fields)
    content = fields.get("content")
    if type(content) is str and turn.text != content:
        out["content"] = turn.text
    elif isinstance(content, list) and turn.text != content_text(content):
        out["content"] = _respread(content, turn.text)
    if turn.tool_results and type(fields.get("name")) is str and turn.tool_results[0].name is not None:
        out["name"] = turn.tool_results[0].name
    if turn.role == ASSISTANT:
        write_calls(out, turn.tool_calls, message_calls(fields))
    return out


def _respread(content: list[Any], text: str) -> list[Any]:
    """A list content with its text parts holding `text` (parts left empty dropped)."""
    texts = iter(spread_text([part if type(part) is str else part["text"] for part in content if _is_text(part)], text))
    out = []
    for part in content:
        if _is_text(part):
            new = next(texts)
            if new:
                out.append(new if type(part) is str else {**part, "text": new})
        else:
            out.append(part)
    return out


def _status(result: ToolResult) -> str:
    """A new `tool` message's status: `error` for a tool that ran and failed; the default,
    `success`, for the result recorded for a call that never ran (`orphan-call`'s): `status` says
    how an invocation went, and there was none (its text says so)."""
    return "error" if result.is_error and result.content != NO_RESULT else "success"


def new_messages(turn: Turn) -> list[tuple[str, dict[str, Any]]]:
    """The messages (type, fields, as `messages_to_dict` writes them) of a turn a repair added."""
    if turn.role == TOOL:
        return [
            (
                "tool",
                {
                    "content": r.content if type(r.content) is str else arguments_as_json(r.content),
                    "additional_kwargs": {},
                    "response_metadata": {},
                    "type": "tool",
                    "name": r.name,
                    "id": None,
                    "tool_call_id": r.call_id,
                    "artifact": None,
                    "status": _status(r),
                },
            )
            for r in turn.tool_results
        ]
    kind = {ASSISTANT: "ai", SYSTEM: "system"}.get(turn.role, "human")
    fields: dict[str, Any] = {
        "content": turn.text,
        "additional_kwargs": {},
        "response_metadata": {},
        "type": kind,
        "name": None,
        "id": None,
    }
    if kind == "ai":
        fields.update(
            tool_calls=[tool_call(call) for call in turn.tool_calls], invalid_tool_calls=[], usage_metadata=None
        )
    return [(kind, fields)]
