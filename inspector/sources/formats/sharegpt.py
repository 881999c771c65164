"""ShareGPT function-calling datasets (Hermes, glaive, LLaMA-Factory): JSON Lines, or a JSON list,
of examples `{conversations: [{from, value}], tools (a JSON string or a list), ...}`, each a
session (id: its `id`, else `line N` / `example N`).

`from` is system, human, gpt, tool, function_call or observation. In a `gpt` turn a
`<tool_call>{"name", "arguments"}</tool_call>` span **is** the real call (`sharegpt_markup`): it is
read as a structured call and the turn's text is the value without those spans, so `tool-markup`
never reports the dataset's own calls, and only what would be wrong with a real call is found
(broken JSON, an unknown tool, the schema). A `tool` turn's `<tool_response>` spans are its
results; `function_call` (a JSON `{name, arguments}`) and `observation` turns are the other
dialect's call and result. Calls have no ids: results answer them by name. Tools come from
`tools`, else from the `<tools>` list of the system prompt.

Writing keeps each untouched line (and turn) as it was; an edited `gpt` turn keeps its spans and
rewrites only the text a repair cut and the body of a call it repaired.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from functools import lru_cache
from typing import Any

from inspector.catalogue import parse_tool_definitions
from inspector.model import ASSISTANT, SYSTEM, TOOL, USER, Session, ToolCall, ToolResult, ToolSpec, Turn
from inspector.sources.files.document import Document, records_with_errors
from inspector.sources.formats._sharegpt_markup import (
    CALL_CLOSE,
    CALL_OPEN,
    RESPONSE_OPEN,
    call_of,
    join_calls,
    render_body,
    render_response,
    split_calls,
    split_results,
    with_results,
)
from inspector.sources.formats.contract import FileFormat
from inspector.sources.messages.record_lists import rebuild_records
from inspector.sources.messages.text_parts import spread_text
from inspector.support.counted_words import counted

NAME = "sharegpt"
UNREAD_TURNS = (  # what one and several are called
    "turn without a known `from` and a text `value`, not read",
    "turns without a known `from` and a text `value`, not read",
)

ROLES = {
    "system": SYSTEM,
    "human": USER,
    "user": USER,
    "gpt": ASSISTANT,
    "assistant": ASSISTANT,
    "tool": TOOL,
    "function_call": ASSISTANT,
    "observation": TOOL,
}


def claims(document: Document) -> bool:
    """Examples (one per line, or a list) each holding `conversations` of `{from, value}` turns."""
    examples = _examples(document)
    first = next((r for r in examples if isinstance(r, dict)), None)
    if first is None or not isinstance(first.get("conversations"), list):  # (most files: told at once)
        return False
    records = [r for r in examples if isinstance(r, dict)]
    if not all(isinstance(r.get("conversations"), list) for r in records):
        return False
    turns = [t for r in records[:50] for t in r["conversations"][:10] if isinstance(t, dict)]
    return bool(turns) and all("from" in t for t in turns) and any("value" in t for t in turns)


def read(document: Document) -> list[Session]:
    """One session per example."""
    label = "line" if document.is_jsonl else "example"
    sessions = []
    for index, record in enumerate(_examples(document)):
        if isinstance(record, dict):
            own_id = record.get("id")
            session_id = own_id if isinstance(own_id, str) else f"{label} {index + 1}"
            sessions.append(_session(document, index, record, session_id))
    if document.is_jsonl and sessions:
        bad = tuple(records_with_errors(document.value))
        sessions[0] = replace(sessions[0], problems=bad + sessions[0].problems)
    return sessions


def write(document: Document, sessions: list[Session]) -> str:
    """The file's text with each repaired example rebuilt; untouched lines kept byte for byte."""
    by_index = {session.index: session for session in sessions}
    records = []
    for index, record in enumerate(_examples(document)):
        session = by_index.get(index)
        if session is None or not any(turn.raw is None or turn.edited for turn in session.turns):
            records.append(record)
            continue
        render_new = _new_renderer(_uses_function_calls(record["conversations"]))
        records.append(
            {
                **record,
                "conversations": rebuild_records(record["conversations"], session.turns, _render_edited, render_new),
            }
        )
    return document.render(records if isinstance(document.value, list) else records[0])


def _examples(document: Document) -> list[Any]:
    """The file's examples: its records, or the one example a file of one object holds."""
    value = document.value
    return value if isinstance(value, list) else [value] if isinstance(value, dict) else []


def _session(document: Document, index: int, record: dict[str, Any], session_id: str) -> Session:
    turns: list[Turn] = []
    odd = 0
    last_calls: tuple[ToolCall, ...] = ()
    for position, entry in enumerate(record["conversations"]):
        if (
            not isinstance(entry, dict)
            or type(kind := entry.get("from")) is not str
            or (role := ROLES.get(kind)) is None
            or not isinstance(value := entry.get("value"), str)
        ):
            odd += 1
            continue
        if role != TOOL and kind != "function_call" and (role != ASSISTANT or CALL_OPEN not in value):
            turns.append(Turn(position, role, value, None, (), (), entry))  # most turns: a text and nothing else
            continue
        turn = _turn(position, kind, role, value, entry, last_calls)
        if turn.tool_calls:
            last_calls = turn.tool_calls
        turns.append(turn)
    problems = (counted(odd, *UNREAD_TURNS),) if odd else ()
    return Session(NAME, document.path, tuple(turns), _tools(record, turns), document, index, session_id, problems)


def _turn(
    position: int, kind: str, role: str, value: str, entry: dict[str, Any], last_calls: tuple[ToolCall, ...]
) -> Turn:
    """A turn that may hold calls or results: a `function_call`, a `gpt` turn with `<tool_call>`
    markup, or a `tool` / `observation` turn."""
    if kind == "function_call":
        call = call_of(value)
        return Turn(position, role, "" if call else value, None, (call,) if call else (), (), entry)
    if role == ASSISTANT:
        split = split_calls(value)
        return Turn(position, role, "".join(split.texts), None, tuple(split.calls), (), entry)
    results = split_results(value) if kind == "tool" and RESPONSE_OPEN in value else []
    return Turn(position, role, value, None, (), _named(results or [ToolResult(None, None, value)], last_calls), entry)


def _named(results: list[ToolResult], last_calls: tuple[ToolCall, ...]) -> tuple[ToolResult, ...]:
    """The results, each without a name given the name of the next of the calls before them, in order."""
    for result in results:
        if result.name is None:
            break
    else:  # the common case, checked first: every result names its tool
        return tuple(results)
    names = iter(call.name for call in last_calls)
    return tuple(r if r.name is not None else ToolResult(None, next(names, None), r.content) for r in results)


def _tools(record: dict[str, Any], turns: list[Turn]) -> tuple[ToolSpec, ...]:
    """The example's tools: `tools` (a JSON string, read once for every example that repeats it, or
    a list), else the system prompt's `<tools>` list."""
    tools = record.get("tools")
    if isinstance(tools, str):
        return _tools_of_text(tools)
    if tools is None and turns and turns[0].role == SYSTEM:
        text = turns[0].text
        start, end = text.find("<tools>"), text.rfind("</tools>")
        if 0 <= start < end:
            return _tools_of_text(text[start + len("<tools>") : end])
    return tuple(parse_tool_definitions(tools))


@lru_cache(maxsize=64)
def _tools_of_text(text: str) -> tuple[ToolSpec, ...]:
    try:
        return tuple(parse_tool_definitions(json.loads(text)))
    except (ValueError, RecursionError):
        return ()


def _render_edited(turn: Turn) -> dict[str, Any]:
    entry = dict(turn.raw)
    if entry["from"] == "function_call":
        if turn.tool_calls:
            call = turn.tool_calls[0]
            entry["value"] = json.dumps({"name": call.name, "arguments": _arguments(call)}, ensure_ascii=False)
        return entry
    if entry["from"] == "tool":
        entry["value"] = with_results(entry["value"], turn.tool_results)
        return entry
    if turn.role != ASSISTANT:
        entry["value"] = turn.text
        return entry
    split = split_calls(entry["value"])
    texts = split.texts if turn.text == "".join(split.texts) else spread_text(split.texts, turn.text)
    bodies = [
        body if call == old else render_body(call, body)
        for body, old, call in zip(split.bodies, split.calls, turn.tool_calls)
    ]
    added = "".join(_call_span(call) for call in turn.tool_calls[len(split.calls) :])
    entry["value"] = join_calls(texts, bodies) + added
    return entry


def _new_renderer(function_calls: bool) -> Callable[[Turn], list[dict[str, Any]]]:
    """How a turn a repair added is written: in the dialect the example uses."""

    def render_new(turn: Turn) -> list[dict[str, Any]]:
        if turn.role == TOOL:
            if function_calls:
                return [{"from": "observation", "value": _as_text(r.content)} for r in turn.tool_results]
            return [{"from": "tool", "value": "\n".join(render_response(r) for r in turn.tool_results)}]
        if function_calls and turn.tool_calls:
            calls = [
                {
                    "from": "function_call",
                    "value": json.dumps({"name": c.name, "arguments": _arguments(c)}, ensure_ascii=False),
                }
                for c in turn.tool_calls
            ]
            return ([{"from": "gpt", "value": turn.text}] if turn.text else []) + calls
        return [
            {
                "from": "gpt" if turn.role == ASSISTANT else "human",
                "value": turn.text + "".join(_call_span(call) for call in turn.tool_calls),
            }
        ]

    return render_new


def _call_span(call: ToolCall) -> str:
    return "\n" + CALL_OPEN + render_body(call) + CALL_CLOSE


def _arguments(call: ToolCall) -> Any:
    return call.arguments if call.arguments is not None else call.arguments_raw


def _as_text(content: Any) -> str:
    return content if isinstance(content, str) else json.dumps(content, ensure_ascii=False)


def _uses_function_calls(conversations: list[Any]) -> bool:
    return any(isinstance(entry, dict) and entry.get("from") == "function_call" for entry in conversations)


FORMAT = FileFormat(NAME, claims, read, write)
