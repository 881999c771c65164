"""Codex CLI rollouts: `~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<uuid>.jsonl`.

Each line is `{"timestamp", "type", "payload"}` (0.169 adds `ordinal`, and `metadata` on
`response_item` lines). The turns are the `response_item` payloads, OpenAI Responses items read by
`responses_items`. The other lines are kept in place without being read as turns: `session_meta`
(the session's id), `turn_context`, `event_msg` (it repeats the messages for the app), `compacted`,
`world_state` and `token_usage_record`; a line of any other type is counted in the problems, and a
last line cut off (Codex was stopped while writing) is read up to and reported.

The context Codex injects as user messages (`<environment_context>`, `# AGENTS.md instructions`,
...) is read as system turns, not as the person's words; its developer messages are system turns.

Writing keeps every line it does not change byte for byte: a repaired item is its line with a new
`payload`, and a recovered call is a `function_call` line followed by its `function_call_output`
line, just before the fixed message, stamped with its time. The copies of a repaired reply's text
in Codex's own events (what it shows on resume) get the repaired text (`_codex_events`).
"""

from __future__ import annotations

from typing import Any

from inspector.model import Session
from inspector.sources.files.document import BadLine, Document
from inspector.sources.formats._codex_events import shown_as_repaired
from inspector.sources.formats.contract import FileFormat
from inspector.sources.messages.responses_items import CALLS, NOT_TURNS, OUTPUTS, ItemReader, rebuild
from inspector.sources.messages.turn_models import with_models
from inspector.sources.unread_records import Unread, UnreadTally

NAME = "codex"

ITEM_LINE = "response_item"
OTHER_LINES = frozenset({"session_meta", "turn_context", "event_msg", "compacted", "world_state", "token_usage_record"})
LINE_KEYS = frozenset({"timestamp", "type", "payload", "ordinal", "metadata"})  # every line's keys (0.169)
ITEM_TYPES = frozenset({"message"}) | CALLS | OUTPUTS | NOT_TURNS  # the items read (or known to be no turn)
# The user messages Codex injects (its "contextual user messages"), matched lowercased at the start.
CONTEXT_TAGS = (
    "<environment_context>",
    "# agents.md instructions",
    "<user_instructions>",
    "<turn_aborted>",
    "<context_update>",
    "<subagent_notification>",
    "<skills_instructions>",
)


def claims(document: Document) -> bool:
    """JSON Lines whose records are mostly `{type, payload}` lines of a type Codex writes."""
    if not document.is_jsonl:
        return False
    records = [r for r in document.value[:50] if isinstance(r, dict)]
    return bool(records) and sum(_is_rollout_line(r) for r in records) * 2 > len(records)


def read(document: Document) -> list[Session]:
    """The one session of the rollout."""
    reader = ItemReader(CONTEXT_TAGS)
    session_id = model = None
    models: dict[int, Any] = {}  # an item's line -> the model of the turn context before it
    records = document.value
    for position, record in enumerate(records):
        kind = record.get("type") if type(record) is dict else None
        if kind == ITEM_LINE:
            reader.read(position, record.get("payload"), record)
            models[position] = model
        elif kind == "turn_context":
            payload = record.get("payload")
            model = payload.get("model") if type(payload) is dict else None
        elif kind == "session_meta" and session_id is None:
            session_id = _session_id(record.get("payload"))
        elif kind not in OTHER_LINES and record is not None and not isinstance(record, BadLine):
            reader.skip(*_description(record))
    last = next((r for r in reversed(records) if r is not None), None)
    problems = reader.problems() + [_bad_line(r, r is last) for r in records if isinstance(r, BadLine)]
    turns = with_models(reader.turns, lambda turn: models.get(turn.position))
    return [Session(NAME, document.path, tuple(turns), (), document, 0, session_id, tuple(problems))]


def survey(document: Document) -> tuple[Unread, ...]:
    """The line types and the `response_item` types the reader does not know (the latter as
    `response_item/<type>`), and the keys of known lines it does not know, each under the
    `cli_version` of the `session_meta` before it."""
    tally = UnreadTally(dict.fromkeys(OTHER_LINES | {ITEM_LINE}, LINE_KEYS))
    version = None
    for record in document.value:
        if type(record) is not dict:
            continue
        kind, payload = record.get("type"), record.get("payload")
        if kind == "session_meta" and type(payload) is dict and type(payload.get("cli_version")) is str:
            version = payload["cli_version"]
        if kind not in OTHER_LINES and kind != ITEM_LINE:
            tally.unknown_type(kind, version)
            continue
        tally.keys(kind, record, version)
        item = payload.get("type", "message") if type(payload) is dict else None
        if kind == ITEM_LINE and item not in ITEM_TYPES:
            tally.unknown_type(f"{ITEM_LINE}/{item}" if type(item) is str else ITEM_LINE, version)
    return tally.unread()


def write(document: Document, sessions: list[Session]) -> str:
    """The rollout's text with the repaired items; every other line is kept as it was."""
    turns = sessions[0].turns
    return document.render(shown_as_repaired(rebuild(document.value, turns, _item_of, _lines), turns))


def _is_rollout_line(record: dict[str, Any]) -> bool:
    kind = record.get("type")
    return type(kind) is str and "payload" in record and (kind == ITEM_LINE or kind in OTHER_LINES)


def _item_of(record: Any) -> Any:
    """The Responses item of a `response_item` line; None for any other line."""
    return record.get("payload") if type(record) is dict and record.get("type") == ITEM_LINE else None


def _lines(items: list[dict[str, Any]], near: dict[str, Any], replacing: bool) -> list[dict[str, Any]]:
    """Lines holding `items`, which replace the line `near` or go beside it, at its time. A line
    replaced by an item of its own type keeps its other keys (`ordinal`, `metadata`)."""
    lines: list[dict[str, Any]] = []
    for item in items:
        if replacing and not lines and item.get("type") == near["payload"].get("type"):
            lines.append({**near, "payload": item})
        else:
            lines.append({"timestamp": near.get("timestamp"), "type": ITEM_LINE, "payload": item})
    return lines


def _session_id(meta: Any) -> str | None:
    if not isinstance(meta, dict):
        return None
    value = meta.get("id", meta.get("session_id"))
    return value if type(value) is str else None


def _description(record: Any) -> tuple[str, str]:
    """How to name a line not read: alone, and when there are several."""
    if type(record) is not dict:
        return "a line that is not a JSON object", "lines that are not JSON objects"
    kind = record.get("type")
    if type(kind) is str:
        return f"a line of type {kind!r}", f"lines of type {kind!r}"
    return "a line without a string type", "lines without a string type"


def _bad_line(line: BadLine, last: bool) -> str:
    if last:
        return f"line {line.number}: the last line is cut off ({line.error}), not read; written back as it was"
    return f"line {line.number}: invalid JSON ({line.error}), not read; written back as it was"


FORMAT = FileFormat(NAME, claims, read, write, survey)
