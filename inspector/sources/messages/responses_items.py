"""OpenAI Responses API items, read into turns and written back: the one reader of the containers
that hold them (a Codex CLI rollout's `response_item` lines, the Agents SDK's item list and its
`SQLiteSession` rows).

Items read as turns:

- `message` (`{type: "message", role, content: [parts]}`, or the easy input `{role, content}`
  with no type, its content a string or parts): roles user, assistant, system and developer; the
  text is that of its `input_text` / `output_text` parts (a refusal, an image or a file is kept
  but is no text). A user message a harness injected (a container's `context_tags`) is a system turn;
- `function_call` (`call_id`, `name`, `arguments`): an assistant turn with one call whose
  arguments string is kept verbatim, so broken JSON is left for `malformed-arguments` to flag;
- `custom_tool_call` (`call_id`, `name`, `input`: free text, not JSON): one call whose arguments
  are `{"input": text}`; `local_shell_call` (`call_id`, `action`): one call of `local_shell`;
- `function_call_output` / `custom_tool_call_output` (`call_id`, `output`: a string, parts, or an
  older Codex `{content, success}`): a tool turn with one result, named after the call it answers.

A `reasoning` item is no turn and is kept where it is. Any other item (a web search, an MCP call,
...) is kept in place too, and counted in the session's problems.

Writing (`rebuild`) keeps every record it was not asked to change as the very same object. An
edited turn's item is re-rendered (a message a repair emptied becomes the calls recovered from it);
the items of turns a repair added (recovered calls as `function_call`s, then their
`function_call_output`s) go before the next turn read and the `reasoning` items that lead into it
(the API wants a reasoning item followed by its own output).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from typing import Any

from inspector.model import ASSISTANT, SYSTEM, TOOL, USER, ToolCall, ToolResult, Turn
from inspector.sources.messages.arguments import arguments_as_json, parse_arguments
from inspector.sources.messages.text_parts import respread_parts
from inspector.support.counted_words import counted

ROLES = {"user": USER, "assistant": ASSISTANT, "system": SYSTEM, "developer": SYSTEM}
TEXT_PARTS = ("input_text", "output_text")  # a tuple: a part's type may be any JSON value, even a list
CALLS = frozenset({"function_call", "custom_tool_call", "local_shell_call"})
OUTPUTS = frozenset({"function_call_output", "custom_tool_call_output"})
NOT_TURNS = frozenset({"reasoning"})
LOCAL_SHELL = "local_shell"

ItemOf = Callable[[Any], Any]  # a container's record -> the item it holds (None: a record of another kind)
# (items, the record they replace or go before, replacing) -> the records holding them
Wrap = Callable[[list[Any], Any, bool], list[Any]]


class ItemReader:
    """Reads a session's items one at a time into `turns`, pairing each output with the name of its
    call, and counts what it did not read as turns (`problems`)."""

    def __init__(self, context_tags: tuple[str, ...] = ()) -> None:
        self.turns: list[Turn] = []
        self._context_tags = context_tags
        self._names: dict[str, str] = {}
        self._skipped: Counter[tuple[str, str]] = Counter()

    def read(self, position: int, item: Any, raw: Any, turn_id: str | None = None) -> None:
        """Read `item` (kept in its container as `raw`) as the turn at `position`, or count it; the
        turn's id is `turn_id`, else the item's own `id`."""
        kind = item.get("type", "message") if isinstance(item, dict) else None
        if type(kind) is not str:
            kind = None
        elif kind in NOT_TURNS:
            return
        if turn_id is None and kind is not None:
            turn_id = item.get("id") if type(item.get("id")) is str else None
        turn = None
        if kind == "message":
            turn = self._message(position, turn_id, item, raw)
        elif kind in CALLS:
            turn = self._call(position, turn_id, kind, item, raw)
        elif kind in OUTPUTS:
            turn = self._output(position, turn_id, item, raw)
        if turn is None:
            self.skip(*_description(kind, item))
        else:
            self.turns.append(turn)

    def skip(self, one: str, many: str) -> None:
        """Count one record not read as a turn, described as `one` ("an item of type 'x'") and,
        when there are several, `many` ("items of type 'x'")."""
        self._skipped[one, many] += 1

    def problems(self) -> list[str]:
        """One line per kind of record not read as a turn, with its count."""
        return [
            counted(count, f"{one.partition(' ')[2]} not read as a turn", f"{many} not read as turns")
            for (one, many), count in self._skipped.items()
        ]

    def _message(self, position: int, turn_id: str | None, item: dict[str, Any], raw: Any) -> Turn | None:
        role = ROLES.get(stated) if type(stated := item.get("role")) is str else None
        content = item.get("content")
        if role is None:
            return None
        if type(content) is str:
            text = content
        elif isinstance(content, list):
            text = message_text(content)
        else:
            return None
        if role == USER and self._context_tags and text[:64].lstrip().lower().startswith(self._context_tags):
            role = SYSTEM  # context a harness injected, not the person's words
        return Turn(position, role, text, turn_id, raw=raw)

    def _call(self, position: int, turn_id: str | None, kind: str, item: dict[str, Any], raw: Any) -> Turn | None:
        call_id = _call_id(item)
        if kind == "local_shell_call":
            action = item.get("action")
            call = ToolCall(call_id, LOCAL_SHELL, action, parse_arguments(action) if isinstance(action, dict) else None)
        elif type(item.get("name")) is not str:
            return None
        elif kind == "custom_tool_call":
            text = item.get("input")
            call = ToolCall(call_id, item["name"], text, {"input": text} if type(text) is str else None)
        else:
            arguments = item.get("arguments")
            call = ToolCall(call_id, item["name"], arguments, parse_arguments(arguments))
        if call_id is not None:
            self._names[call_id] = call.name
        return Turn(position, ASSISTANT, "", turn_id, (call,), raw=raw)

    def _output(self, position: int, turn_id: str | None, item: dict[str, Any], raw: Any) -> Turn:
        call_id = _call_id(item)
        output = item.get("output")
        failed = False
        if isinstance(output, dict) and "content" in output:  # older Codex: {content, success}
            failed = output.get("success") is False
            output = output["content"]
        if isinstance(output, list):
            output = message_text(output)
        name = self._names.get(call_id) if call_id is not None else None
        return Turn(position, TOOL, "", turn_id, (), (ToolResult(call_id, name, output, failed),), raw)


def _call_id(item: dict[str, Any]) -> str | None:
    return item["call_id"] if type(item.get("call_id")) is str else None


def message_text(parts: list[Any]) -> str:
    """The text of a message's (or an output's) `input_text` / `output_text` parts."""
    return "".join(part["text"] for part in parts if _is_text_part(part))


def _is_text_part(part: Any) -> bool:
    return isinstance(part, dict) and part.get("type") in TEXT_PARTS and type(part.get("text")) is str


def _description(kind: Any, item: Any) -> tuple[str, str]:
    """How to name an item not read as a turn: alone, and when there are several."""
    if not isinstance(item, dict):
        return "an item that is not an object", "items that are not objects"
    if kind == "message":
        return (
            f"a message with role {item.get('role')!r} or no content",
            f"messages with role {item.get('role')!r} or no content",
        )
    if kind in CALLS:
        return f"an item of type {kind!r} without a name", f"items of type {kind!r} without a name"
    if kind is None:
        return "an item whose type is not a string", "items whose type is not a string"
    return f"an item of type {kind!r}", f"items of type {kind!r}"


def rebuild(records: list[Any], turns: Iterable[Turn], item_of: ItemOf, wrap: Wrap) -> list[Any]:
    """A container's records after repair. Each turn's `raw` is one of `records`; `item_of` gives
    the item a record holds, and `wrap(items, near, replacing)` the records holding `items`, which
    replace the record `near` (`replacing`) or go beside it. Items added after the last turn read
    go just after its record."""
    at = {id(record): index for index, record in enumerate(records)}
    replaced: dict[int, list[Any]] = {}
    inserted: defaultdict[int, list[Any]] = defaultdict(list)
    pending: list[Any] = []
    last = -1
    for turn in turns:
        if turn.raw is None:
            pending.extend(_new_items(turn))
            continue
        last = at[id(turn.raw)]
        if pending:
            inserted[_before_reasoning(records, last, item_of)].extend(pending)
            pending = []
        if turn.edited:
            item = item_of(turn.raw)
            items = _edited_items(turn, item)
            if len(items) != 1 or items[0] is not item:
                replaced[last] = wrap(items, turn.raw, True)
    out: list[Any] = []
    for index, record in enumerate(records):
        if index in inserted:
            out.extend(wrap(inserted[index], record, False))
        out.extend(replaced.get(index, (record,)))
        if index == last and pending:
            out.extend(wrap(pending, record, False))
    return out


def _before_reasoning(records: list[Any], index: int, item_of: ItemOf) -> int:
    """Where items go that must come before the record at `index`: before the `reasoning` items
    that lead into it too (records of other kinds between them are passed over)."""
    place = index
    for earlier in range(index - 1, -1, -1):
        item = item_of(records[earlier])
        if item is None:
            continue
        if not (isinstance(item, dict) and item.get("type") == "reasoning"):
            break
        place = earlier
    return place


def _edited_items(turn: Turn, item: dict[str, Any]) -> list[dict[str, Any]]:
    """The items that take the place of an edited turn's `item`: the item itself when nothing it
    holds changed (a result whose call was renamed: outputs name no tool)."""
    kind = item.get("type", "message")
    if kind in CALLS:
        return [_repaired_call(item, turn.tool_calls[0])]
    if kind != "message":
        return [item]
    content = item.get("content")
    message = item
    if type(content) is str and turn.text != content:
        message = {**item, "content": turn.text}
    elif isinstance(content, list) and turn.text != message_text(content):
        message = {**item, "content": respread_parts(content, _is_text_part, turn.text)}
    if turn.tool_calls and not message["content"]:  # the reply was only the leaked call: it becomes that call
        return _call_items(turn.tool_calls)
    return [message] + _call_items(turn.tool_calls)


def _repaired_call(item: dict[str, Any], call: ToolCall) -> dict[str, Any]:
    """A stored call with the call's name and, when a repair replaced them, its arguments."""
    kind = item["type"]
    stored = item.get({"function_call": "arguments", "custom_tool_call": "input"}.get(kind, "action"))
    if call.arguments_raw is stored and call.name == item.get("name", LOCAL_SHELL):
        return item
    if kind == "custom_tool_call":
        text = call.arguments_raw.get("input") if isinstance(call.arguments_raw, dict) else call.arguments_raw
        return {
            **item,
            "name": call.name,
            "input": text if type(text) is str else arguments_as_json(call.arguments_raw),
        }
    if kind == "local_shell_call" and call.name == LOCAL_SHELL:
        return {**item, "action": call.arguments_raw}
    base = item if kind == "function_call" else {"type": "function_call", "call_id": item.get("call_id")}  # renamed
    return {**base, "name": call.name, "arguments": arguments_as_json(call.arguments_raw)}


def _new_items(turn: Turn) -> list[dict[str, Any]]:
    """The items of a turn a repair added: outputs for a tool turn, else its text (if any) as a
    message and each call as a `function_call`."""
    if turn.role == TOOL:
        return [
            {
                "type": "function_call_output",
                "call_id": result.call_id,
                "output": result.content if type(result.content) is str else arguments_as_json(result.content),
            }
            for result in turn.tool_results
        ]
    message = []
    if turn.text:
        role, part = ("assistant", "output_text") if turn.role == ASSISTANT else (turn.role, "input_text")
        message = [{"type": "message", "role": role, "content": [{"type": part, "text": turn.text}]}]
    return message + _call_items(turn.tool_calls)


def _call_items(calls: tuple[ToolCall, ...]) -> list[dict[str, Any]]:
    return [
        {
            "type": "function_call",
            "call_id": call.id,
            "name": call.name,
            "arguments": arguments_as_json(call.arguments or {}),
        }
        for call in calls
    ]
