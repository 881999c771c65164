"""Writing a repaired Continue CLI history the way the CLI writes one, so `cn --resume` loads it.

Only the items a repair touched change. A repaired message gets its new text (in its text parts
when its content is a list; a user item's `editorState` that copied the text follows it) and its
calls' new names and arguments, in its `toolCalls` and in the `toolCall` and `parsedArgs` of their
states. A repaired result is its state's `output`.

Calls a repair recovers become a new assistant item just before the fixed one, holding them in
its `toolCalls` and each one's state, as the CLI writes a call: arguments the compact JSON of the
object, `status` `done` (`errored` for a result that is an error), `output: [{content, name: "Tool
Result", description}]`. A result added for an unanswered call goes into its call's state; only a
result whose call no item holds becomes an item of its own (a `tool` message).
"""

from __future__ import annotations

import json
from typing import Any

from inspector.model import ASSISTANT, TOOL, ToolCall, ToolResult, Turn
from inspector.sources.formats._continue_cli_items import call_states, function_of, stored_calls
from inspector.sources.messages.arguments import parse_arguments
from inspector.sources.messages.text_parts import content_text, respread_parts

Item = dict[str, Any]


def rebuilt_history(history: list[Any], turns: tuple[Turn, ...]) -> list[Any]:
    """The history with the repaired turns: untouched items are the very same objects."""
    repair = _Repair()
    previous = None
    for turn in turns:
        if turn.raw is None:
            repair.new(turn)
            continue
        if repair.pending and turn.raw is not previous:  # not the results of the reply just before
            repair.before[id(turn.raw)] = repair.pending
            repair.pending = []
        previous = turn.raw
        repair.known(turn)
        if turn.edited:
            repair.edit(turn)
    out: list[Any] = []
    for item in history:
        out += repair.before.get(id(item), [])
        out.append(repair.copies.get(id(item), item))
    return out + repair.pending


class _Repair:
    """What repaired turns change in the history: items written anew (`copies`, by the `id()` of
    the original), new ones before an original (`before`) or after all (`pending`)."""

    def __init__(self) -> None:
        self.copies: dict[int, Item] = {}
        self.before: dict[int, list[Item]] = {}
        self.pending: list[Item] = []
        self._calls: dict[str, tuple[Item, bool]] = {}  # call id -> (the item holding it, is new)

    def known(self, turn: Turn) -> None:
        """Note the calls an original item holds, so results added later find them."""
        for call in turn.tool_calls:
            if call.id is not None and call.id not in self._calls:
                self._calls[call.id] = (turn.raw, False)

    def new(self, turn: Turn) -> None:
        """An item for a turn a repair added; results go into the states of their calls."""
        if turn.role == TOOL:
            for result in turn.tool_results:
                if not self._answer(result):
                    answer = {"role": "tool", "content": _text(result), "toolCallId": result.call_id}
                    self.pending.append({"message": answer, "contextItems": []})
            return
        said: Item = {"role": turn.role, "content": turn.text}
        item: Item = {"message": said, "contextItems": []}
        if turn.tool_calls:
            said["toolCalls"] = [_openai_call(call) for call in turn.tool_calls]
            item["toolCallStates"] = [_state(call) for call in turn.tool_calls]
            self._calls.update((call.id, (item, True)) for call in turn.tool_calls if call.id is not None)
        self.pending.append(item)

    def edit(self, turn: Turn) -> None:
        """Write a repaired turn into (a copy of) its item."""
        item = self._copy(turn.raw)
        if turn.role == TOOL:
            for result in turn.tool_results:
                self._answer(result)
            return
        message = item["message"]
        content = message.get("content")
        if turn.text != content_text(content):
            if isinstance(content, list):
                message["content"] = respread_parts(content, _is_text_part, turn.text)
            else:
                message["content"] = turn.text
            if type(item.get("editorState")) is str and item["editorState"] == content:
                item["editorState"] = turn.text
        if turn.role == ASSISTANT:
            self._edit_calls(item, turn.tool_calls)

    def _edit_calls(self, item: Item, calls: tuple[ToolCall, ...]) -> None:
        message = item["message"]
        stored = stored_calls(message)
        states = {state.get("toolCallId"): state for state in call_states(item)}
        for index, call in enumerate(calls):
            if index < len(stored):
                entry = stored[index]
                function = function_of(entry)
                if call.name == function.get("name") and call.arguments_raw is function.get("arguments"):
                    continue
                fresh = _openai_call(call)
                entry["function"] = {**function, **fresh["function"]}
                state = states.get(call.id)
                if state is not None:
                    stored_call = state.get("toolCall")
                    state["toolCall"] = {**(stored_call if isinstance(stored_call, dict) else {}), **fresh}
                    state["parsedArgs"] = _arguments(call)
            else:  # a call a repair gave this reply
                _list_at(message, "toolCalls").append(_openai_call(call))
                _list_at(item, "toolCallStates").append(_state(call))
                if call.id is not None:
                    self._calls[call.id] = (item, True)

    def _answer(self, result: ToolResult) -> bool:
        """Record `result` in the state of the call it answers; False when no item holds that call."""
        found = self._calls.get(result.call_id) if result.call_id is not None else None
        if found is None:
            return False
        holder, is_new = found
        item = holder if is_new else self._copy(holder)
        states = _list_at(item, "toolCallStates")
        state = next((s for s in call_states(item) if s.get("toolCallId") == result.call_id), None)
        if state is None:
            state = {"toolCallId": result.call_id}
            states.append(state)
        output = state.get("output")
        first = output[0] if isinstance(output, list) and output and isinstance(output[0], dict) else {}
        state["status"] = "errored" if result.is_error else "done"
        state["output"] = [{**_OUTPUT, **first, "content": _text(result)}]
        return True

    def _copy(self, item: Item) -> Item:
        """The item as it will be written: a copy, with copies of its message, calls and states, made once."""
        if id(item) not in self.copies:
            message = dict(item["message"])
            if isinstance(message.get("toolCalls"), list):
                message["toolCalls"] = [dict(c) if isinstance(c, dict) else c for c in message["toolCalls"]]
            copy = {**item, "message": message}
            if isinstance(item.get("toolCallStates"), list):
                copy["toolCallStates"] = [dict(s) if isinstance(s, dict) else s for s in item["toolCallStates"]]
            self.copies[id(item)] = copy
        return self.copies[id(item)]


class Unwritable(Exception):
    """An item a repair must add to holds something else than a list where the CLI keeps one."""


def _list_at(holder: Item, key: str) -> list[Any]:
    """The list `holder` keeps at `key` (a new one when it has none); `Unwritable` when it holds
    something else there."""
    value = holder.setdefault(key, [])
    if not isinstance(value, list):
        raise Unwritable(key)
    return value


_OUTPUT = {"content": "", "name": "Tool Result", "description": "Tool execution result"}


def _openai_call(call: ToolCall) -> Item:
    """A call as the CLI stores one: its arguments the compact JSON of the object."""
    arguments = json.dumps(_arguments(call), ensure_ascii=False, separators=(",", ":"))
    return {"id": call.id, "type": "function", "function": {"name": call.name, "arguments": arguments}}


def _state(call: ToolCall) -> Item:
    return {
        "toolCallId": call.id,
        "toolCall": _openai_call(call),
        "status": "generated",
        "parsedArgs": _arguments(call),
    }


def _arguments(call: ToolCall) -> Any:
    if call.arguments is not None:
        return call.arguments
    parsed = parse_arguments(call.arguments_raw)
    return parsed if parsed is not None else {}


def _text(result: ToolResult) -> str:
    return result.content if isinstance(result.content, str) else json.dumps(result.content, ensure_ascii=False)


def _is_text_part(part: Any) -> bool:
    return isinstance(part, dict) and part.get("type") == "text" and type(part.get("text")) is str
