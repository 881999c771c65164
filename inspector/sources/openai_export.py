"""Any session written as OpenAI Chat Completions JSON (`fix --to openai`, the app's "as OpenAI"
export): a `SessionWriter` that does not care where the sessions were read from (a file of any
format, an SQLite history, a read-only source), so it never writes in place.

One session is written as `{"messages": [...], "tools": [...]}`; several as fine-tuning JSON
Lines, one `{"messages", "tools"}` example per line. Everything OpenAI messages can hold is
carried: roles, text, `tool_calls` (arguments as a JSON string; a call with no id is given one,
and a result with no call id is paired with the earliest unanswered call of its tool), `tool`
results with their `tool_call_id`, and the session's tool definitions as `tools`. What they
cannot hold is named in one line (`left_out`): records the reader could not read, parts such as
thinking or images, usage figures, tool results' error flags, and the records of a JSON Lines
file that are no message (counted by their `type`).

The output and its audit (`OUT.audit.ndjson`) land together, as a session file's do
(`inspector.sources.files.file_audit.land_with_audit`).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from inspector.errors import InspectorError
from inspector.model import ASSISTANT, SYSTEM, TOOL, USER, AppliedFix, Session, ToolCall, ToolResult, Turn
from inspector.sources.base import AuditPlace, AuditRecord, SessionWriter, WrittenFix
from inspector.sources.files.document import BadLine, Document
from inspector.sources.files.file_audit import audit_path_for, land_with_audit
from inspector.sources.messages.arguments import arguments_as_json
from inspector.support.counted_words import counted
from inspector.support.safe_text import shown_name

# Parts of a message OpenAI messages as written here do not carry, whatever format holds them.
NOT_CARRIED_PARTS = frozenset(
    {
        "thinking",
        "redacted_thinking",
        "reasoning",
        "image",
        "image_url",
        "input_image",
        "file",
        "input_file",
        "document",
        "audio",
        "input_audio",
    }
)
_DEEPEST = 12  # how far into a record parts are looked for (hostile nesting stays cheap)


def export_paths(out: Path) -> list[Path]:
    """Every file an export into `out` creates or replaces: the output and its audit beside it."""
    return [Path(out), audit_path_for(Path(out))]


class OpenAIExportWriter(SessionWriter):
    """Collects the repaired sessions as OpenAI examples, then writes them and the audit on `commit`."""

    def __init__(self, out: Path, replace: bool) -> None:
        self._out = Path(out)
        self._replace = replace
        self._examples: list[dict[str, Any]] = []
        self._left_out: Counter[str] = Counter()
        self._lines = _LinesBeyondTurns()

    def backup(self) -> Path:
        """Never called: an export is never written in place."""
        raise InspectorError(f"{shown_name(self._out)}: an export to OpenAI is a new file, never written in place")

    def write(self, session: Session, fixes: Sequence[AppliedFix]) -> list[WrittenFix]:
        """Render the session as one OpenAI example and count what it cannot hold."""
        self._examples.append(openai_example(session))
        self._left_out.update(not_carried(session))
        self._lines.add(session)
        return [WrittenFix(fix, session.session_id) for fix in fixes]

    def commit(self, audit: Sequence[AuditRecord]) -> AuditPlace:
        """Write the examples (one JSON object, or JSON Lines for several) and the audit together."""
        if len(self._examples) == 1:
            text = json.dumps(self._examples[0], ensure_ascii=False, indent=2) + "\n"
        else:
            text = "".join(json.dumps(example, ensure_ascii=False) + "\n" for example in self._examples)
        return land_with_audit(self._out, text, audit, self._replace)

    def discard(self) -> None:
        """Nothing was written before `commit`."""

    def left_out(self) -> str:
        """One line naming what the OpenAI messages written could not carry ('' when nothing)."""
        counts = self._left_out + self._lines.counts()
        if not counts:
            return ""
        return "not carried into OpenAI messages: " + ", ".join(
            _counted(label, count) for label, count in counts.most_common()
        )


def openai_example(session: Session) -> dict[str, Any]:
    """The session as `{"messages": [...], "tools": [...]}` (no `tools` when it defines none)."""
    example: dict[str, Any] = {"messages": list(_messages(session.turns))}
    tools = [_tool(spec.name, spec.description, spec.parameters) for spec in session.tools if spec.source == "session"]
    if tools:
        example["tools"] = tools
    return example


def not_carried(session: Session) -> Counter[str]:
    """What in the session OpenAI messages cannot hold, counted by a label for a person."""
    counts: Counter[str] = Counter()
    if session.problems:
        counts["record(s) the reader could not read"] += len(session.problems)
    for turn in session.turns:
        counts["error flag(s) of tool results"] += sum(result.is_error for result in turn.tool_results)
        for raw in _records(turn.raw):
            _count_parts(raw, counts)
    return +counts


def _messages(turns: Sequence[Turn]) -> Iterator[dict[str, Any]]:
    """The turns as OpenAI messages: results as `tool` messages (before any text of their turn),
    each call with an id its result answers."""
    unanswered: list[tuple[str, str]] = []  # (tool, id given) of calls that had no id
    for turn in turns:
        for result in turn.tool_results:
            yield {
                "role": "tool",
                "tool_call_id": _answered_id(result, unanswered),
                "content": _content(result.content),
            }
        if turn.role == TOOL:
            if not turn.tool_results and turn.text:
                yield {"role": "tool", "content": turn.text}
            continue
        if turn.tool_results and not turn.text and not turn.tool_calls:
            continue
        role = turn.role if turn.role in (SYSTEM, USER, ASSISTANT) else USER
        message: dict[str, Any] = {"role": role, "content": turn.text}
        if turn.tool_calls:
            message["content"] = turn.text or None
            message["tool_calls"] = [
                _call(call, turn.position, number, unanswered) for number, call in enumerate(turn.tool_calls)
            ]
        yield message


def _call(call: ToolCall, position: int, number: int, unanswered: list[tuple[str, str]]) -> dict[str, Any]:
    """One `tool_calls` entry; a call without an id is given `call_POSITION_NUMBER`."""
    call_id = call.id
    if call_id is None:
        call_id = f"call_{position}_{number}"
        unanswered.append((call.name, call_id))
    arguments = call.arguments if call.arguments is not None else call.arguments_raw
    return {
        "id": call_id,
        "type": "function",
        "function": {"name": call.name, "arguments": arguments_as_json({} if arguments is None else arguments)},
    }


def _answered_id(result: ToolResult, unanswered: list[tuple[str, str]]) -> str | None:
    """The result's call id, or for a result without one the id given to the earliest
    unanswered call of its tool (of any tool when it names none)."""
    if result.call_id is not None:
        return result.call_id
    for place, (tool, call_id) in enumerate(unanswered):
        if result.name is None or tool == result.name:
            del unanswered[place]
            return call_id
    return None


def _content(content: Any) -> str:
    """A result's content as text: text as it is, a list of text parts joined, anything else as JSON."""
    if isinstance(content, str):
        return content
    if content is None:
        return ""
    if isinstance(content, list) and all(
        isinstance(part, dict) and isinstance(part.get("text"), str) for part in content
    ):
        return "".join(part["text"] for part in content)
    return json.dumps(content, ensure_ascii=False)


def _tool(name: str, description: str, parameters: dict[str, Any]) -> dict[str, Any]:
    function: dict[str, Any] = {"name": name}
    if description:
        function["description"] = description
    function["parameters"] = parameters or {"type": "object", "properties": {}}
    return {"type": "function", "function": function}


def _records(raw: Any) -> tuple[Any, ...]:
    """The stored records behind a turn (some formats keep several for one turn)."""
    return raw if isinstance(raw, tuple) else (raw,)


def _count_parts(record: Any, counts: Counter[str]) -> None:
    """Count, anywhere in `record`, the parts of a type OpenAI messages do not carry, Gemini's
    `thought` parts, and usage figures."""
    stack = [(record, 0)]
    while stack:
        value, depth = stack.pop()
        if depth > _DEEPEST:
            continue
        if isinstance(value, dict):
            kind = value.get("type")
            if isinstance(kind, str) and kind in NOT_CARRIED_PARTS:
                counts[f"part(s) of type {kind!r}"] += 1
            if value.get("thought") is True:
                counts["part(s) of type 'thought'"] += 1
            if isinstance(value.get("usage"), dict) or isinstance(value.get("usageMetadata"), dict):
                counts["usage figures"] += 1
            stack.extend((item, depth + 1) for item in value.values() if isinstance(item, (dict, list)))
        elif isinstance(value, list):
            stack.extend((item, depth + 1) for item in value if isinstance(item, (dict, list)))


class _LinesBeyondTurns:
    """The lines of the JSON Lines files written that are no turn's record (events, metadata),
    counted by their `type`: only in a file that keeps one message per line (a turn's record is
    one of its lines), and once per file, whichever of its sessions were written."""

    def __init__(self) -> None:
        self._files: dict[int, tuple[list[Any], set[int]]] = {}

    def add(self, session: Session) -> None:
        """Note the lines `session`'s turns were read from."""
        document = session.document
        if not isinstance(document, Document) or not document.is_jsonl or not isinstance(document.value, list):
            return
        lines = document.value
        _, in_turns = self._files.setdefault(id(document), (lines, set()))
        in_turns.update(id(record) for turn in session.turns for record in _records(turn.raw))

    def counts(self) -> Counter[str]:
        """The lines no written turn was read from, by type, leaving out those of a type some turn's
        line has (an earlier copy of a message the file later rewrote)."""
        counts: Counter[str] = Counter()
        for lines, in_turns in self._files.values():
            carried = [line for line in lines if id(line) in in_turns]
            if not carried:
                continue  # examples holding their messages (fine-tuning files): every line is carried
            message_types = {_type_of(line) for line in carried}
            for line in lines:
                if id(line) in in_turns or line is None or isinstance(line, BadLine):
                    continue
                kind = _type_of(line)
                if kind is None:
                    counts["line(s) of no type"] += 1
                elif kind not in message_types:
                    counts[f"line(s) of type {kind!r}"] += 1
        return counts


def _type_of(line: Any) -> str | None:
    kind = line.get("type") if isinstance(line, dict) else None
    return kind if isinstance(kind, str) else None


def _counted(label: str, count: int) -> str:
    """`3 record(s) of type 'x'` as `3 records of type 'x'`; a label without `(s)` stands alone."""
    if "(s)" not in label:
        return label
    return counted(count, label.replace("(s)", ""), label.replace("(s)", "s"))
