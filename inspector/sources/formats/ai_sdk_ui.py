"""Vercel AI SDK `UIMessage[]`: what `useChat` apps persist (a bare list, or under `messages`).

Each message is `{id, role: system | user | assistant, parts: [...]}`. Parts: `text {text}`,
`reasoning` (not text), `step-start` (where one model call of the reply begins), tool parts
(`ai_sdk_ui_parts`: a call and its result in one part), `file`, `source-url`, `source-document`
and the app's own `data-*` parts; other types are counted in the session's problems and kept.

An assistant message holds the whole reply, every step of it: turns follow the steps as the SDK
replays them to the model (`convertToModelMessages`): each step is an assistant turn (its text and
calls) and, when any of its calls has a result, a tool turn holding those results. Positions count
those turns, so a reply of three steps with calls takes six.

Writing: a repaired call is written into its own part, and a result a repair records (for a call
recovered from text, or one never answered) goes into the part of its call; recovered calls are
new tool parts at the end of the step whose text they were recovered from.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

from inspector.model import ASSISTANT, SYSTEM, TOOL, USER, Session, ToolCall, ToolResult, Turn
from inspector.sources.files.document import Document
from inspector.sources.files.json_layout import render_like
from inspector.sources.formats import _ai_sdk_ui_parts as tools
from inspector.sources.formats.contract import FileFormat
from inspector.sources.messages.message_list import claimed_messages, message_list
from inspector.sources.messages.text_parts import respread_parts
from inspector.support.counted_words import counted

NAME = "ai-sdk-ui"

ROLES = {"system": SYSTEM, "user": USER, "assistant": ASSISTANT}
STEP = "step-start"
KEPT_PARTS = frozenset({"text", "reasoning", STEP, "file", "source-url", "source-document"})

Step = tuple[Any, list[Any]]  # the step-start part that opens it (None for the first), its parts


def claims(document: Document) -> bool:
    """A message list (alone or under `messages`) whose records are mostly UI messages: a role and
    `parts` typed the AI SDK's way (`text` with its text, `step-start`, tool parts, ...)."""
    messages = message_list(document)
    if messages is None:
        return False
    dicts = [m for m in messages[:50] if isinstance(m, dict)]
    return bool(dicts) and sum(_is_ui_message(m) for m in dicts) * 2 > len(dicts)


def read(document: Document) -> list[Session]:
    """The one session of the file."""
    turns: list[Turn] = []
    problems: list[str] = []
    unread: Counter[str] = Counter()
    position = 0
    for index, message in enumerate(claimed_messages(document)):
        if not _is_message(message):
            problems.append(f"message {index}: not a message with parts and a system, user or assistant role, skipped")
            position += 1
            continue
        unread.update(str(p.get("type")) for p in message["parts"] if isinstance(p, dict) and not _kept(p))
        turns.extend(_turns(position, message))
        position = turns[-1].position + 1
    problems.extend(
        counted(count, f"part of type {kind!r} not read", f"parts of type {kind!r} not read")
        for kind, count in unread.items()
    )
    return [Session(NAME, document.path, tuple(turns), (), document, 0, None, tuple(problems))]


def _turns(position: int, message: dict[str, Any]) -> Iterator[Turn]:
    role = ROLES[message["role"]]
    message_id = message.get("id") if isinstance(message.get("id"), str) else None
    if role != ASSISTANT:
        yield Turn(position, role, _text(message["parts"]), message_id, raw=message)
        return
    for _, parts in steps(message["parts"]):
        calls = tuple(tools.call_of(p) for p in parts if tools.is_tool_part(p))
        results = tuple(r for p in parts if tools.is_tool_part(p) and (r := tools.result_of(p)) is not None)
        yield Turn(position, ASSISTANT, _text(parts), message_id, calls, raw=message)
        position += 1
        if results:
            yield Turn(position, TOOL, "", message_id, (), results, message)
            position += 1


def steps(parts: list[Any]) -> list[Step]:
    """The reply's steps: its parts split at each `step-start` (a reply without one is one step)."""
    out: list[Step] = [(None, [])]
    for part in parts:
        if isinstance(part, dict) and part.get("type") == STEP:
            out.append((part, []))
        else:
            out[-1][1].append(part)
    return out if out[0][1] or len(out) == 1 else out[1:]


def write(document: Document, sessions: list[Session]) -> str:
    """The file's text with the session's repaired turns; untouched messages are kept as they were."""
    value = document.value
    messages = _Rewrite(sessions[0].turns).messages(claimed_messages(document))
    return render_like(document, messages if isinstance(value, list) else {**value, "messages": messages})


class _Rewrite:
    """What a repair changed, by message: the turns read from each, the calls recovered before each
    of those turns, and the results recorded for calls (by call id)."""

    def __init__(self, turns: tuple[Turn, ...]) -> None:
        self.by_message: dict[int, list[Turn]] = {}
        self.before: dict[int, list[ToolCall]] = {}  # id of a turn -> calls recovered just before it
        self.results: dict[Any, ToolResult] = {}
        self.trailing: list[ToolCall] = []
        for turn in turns:
            if turn.raw is None:
                self.trailing.extend(turn.tool_calls)
                self.results.update((r.call_id, r) for r in turn.tool_results)
                continue
            self.by_message.setdefault(id(turn.raw), []).append(turn)
            if self.trailing:
                self.before[id(turn)], self.trailing = self.trailing, []

    def messages(self, records: list[Any]) -> list[Any]:
        """The message list after repair."""
        out: list[Any] = []
        for record in records:
            turns = self.by_message.get(id(record), [])
            early = self.before.pop(id(turns[0]), []) if turns and turns[0].raw.get("role") != "assistant" else []
            if early:
                out.append(self._new_message(early))
            if any(turn.edited or id(turn) in self.before for turn in turns) or self._answers(record):
                record = self._message(record, turns)
            out.append(record)
        if self.trailing:
            out.append(self._new_message(self.trailing))
        return out

    def _answers(self, record: Any) -> bool:
        return (
            bool(self.results)
            and isinstance(record, dict)
            and isinstance(record.get("parts"), list)
            and any(tools.is_tool_part(p) and tools.call_of(p).id in self.results for p in record["parts"])
        )

    def _message(self, message: dict[str, Any], turns: list[Turn]) -> dict[str, Any]:
        if message["role"] != "assistant":
            turn = turns[0]
            with_text = (
                message["parts"]
                if turn.text == _text(message["parts"])
                else respread_parts(message["parts"], _is_text, turn.text)
            )
            return {**message, "parts": with_text}
        replies = iter(turn for turn in turns if turn.role == ASSISTANT)
        parts: list[Any] = []
        for opener, step_parts in steps(message["parts"]):
            parts.extend([opener] if opener is not None else [])
            parts.extend(self._step(step_parts, next(replies, None)))
        return {**message, "parts": parts}

    def _step(self, parts: list[Any], turn: Turn | None) -> list[Any]:
        if turn is None:
            return parts
        calls = iter(turn.tool_calls)

        def repaired(part: Any) -> Any:
            if not tools.is_tool_part(part):
                return part
            call = next(calls, None)
            if call is not None and tools.changed(part, call):
                part = tools.with_call(part, call)
            return self._answered(part, tools.call_of(part).id)

        if turn.text == _text(parts):
            out = [repaired(part) for part in parts]
        else:
            out = respread_parts(parts, _is_text, turn.text, repaired)
        return out + self._new_parts(self.before.pop(id(turn), []) + list(calls))

    def _answered(self, part: dict[str, Any], call_id: Any) -> dict[str, Any]:
        result = self.results.pop(call_id, None) if call_id is not None else None
        return part if result is None else tools.with_result(part, result)

    def _new_parts(self, calls: list[ToolCall]) -> list[dict[str, Any]]:
        return [self._answered(tools.new_part(call), call.id) for call in calls]

    def _new_message(self, calls: list[ToolCall]) -> dict[str, Any]:
        return {
            "id": f"inspector-{calls[0].id}",
            "role": "assistant",
            "parts": [{"type": STEP}] + self._new_parts(calls),
        }


def _is_message(record: Any) -> bool:
    """A record with a system, user or assistant role and a parts list."""
    return (
        isinstance(record, dict)
        and type(record.get("role")) is str
        and record["role"] in ROLES
        and isinstance(record.get("parts"), list)
    )


def _is_ui_message(record: dict[str, Any]) -> bool:
    if not _is_message(record):
        return False
    parts = record["parts"]
    return any(
        isinstance(p, dict) and type(p.get("type")) is str and (_is_text(p) or (_kept(p) and p["type"] != "text"))
        for p in parts[:20]
    )


def _kept(part: dict[str, Any]) -> bool:
    kind = part.get("type")
    return type(kind) is str and (kind in KEPT_PARTS or kind.startswith("data-") or tools.is_tool_part(part))


def _is_text(part: Any) -> bool:
    return isinstance(part, dict) and part.get("type") == "text" and isinstance(part.get("text"), str)


def _text(parts: list[Any]) -> str:
    return "".join(part["text"] for part in parts if _is_text(part))


FORMAT = FileFormat(NAME, claims, read, write)
