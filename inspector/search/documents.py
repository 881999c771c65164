"""What the index keeps of one session: each turn's words in four fields (its text, its calls'
names and arguments, its results, the model's thinking), its findings, and the session's facets.

Every text is redacted before it is kept (the secrets and e-mail addresses `report --redact`
masks: the index lives on disk), and each field is cut at `FIELD_CHARACTERS` (a tool's result
can hold a whole file: its beginning is what a search needs). The characters that mark a match
in a snippet (`MATCH_START`, `MATCH_END`) are replaced in the text, so a session cannot forge one.

Each turn is kept with a digest of what its row is made of (its role, model, tools and fields): a file read again
after it grew keeps the rows of its turns whose digest is the one indexed (`known`), and only
the turns new or changed are redacted and indexed again. Its fields have a digest of their own
(`words`): turns whose fields are the same (an agent's instructions, repeated in each of its
sessions) share one row of words in the index (`index_writing`).
"""

from __future__ import annotations

import hashlib
import json
from collections import deque
from collections.abc import Iterator
from typing import Any, NamedTuple

from inspector.model import Finding, Session, Turn
from inspector.report.redact import redacted
from inspector.support.lazy_pattern import lazy_pattern

FIELD_CHARACTERS = 20_000  # characters of one field of one turn that are indexed
MATCH_START, MATCH_END = "\ue000", "\ue001"  # a match's ends in a snippet (private use characters)
# the match marks, and lone surrogates (which SQLite's UTF-8 cannot hold)
_UNSTORABLE = lazy_pattern(f"[{MATCH_START}{MATCH_END}\ud800-\udfff]")
_THINKING_TYPES = frozenset(("thinking", "reasoning", "redacted_thinking"))
_THINKING_KEYS = ("thinking", "reasoning", "text")
_RAW_BLOCKS = 200  # blocks of a turn's record looked at for its thinking, at most


class TurnRow(NamedTuple):
    """One turn as kept: its number (position), role, model, the tools it calls, its fields, the
    digest of what they are made of, and the digest of its fields alone (`words`, a signed 64-bit
    integer)."""

    number: int
    role: str
    model: str | None
    tools: str
    text: str
    calls: str
    results: str
    thinking: str
    digest: str
    words: int


class FindingRow(NamedTuple):
    """One finding as kept: its turn, role, kind, severity, tool and the model of its turn."""

    turn: int
    role: str
    kind: str
    severity: str
    tool: str | None
    model: str | None


class SessionRows(NamedTuple):
    """One session as kept: its number in its file, id, format, models, turn count, turns and
    findings; `kept`: the numbers of the turns whose rows are kept as they were indexed (they
    are not in `turns`)."""

    number: int
    session_id: str | None
    format: str
    models: str
    turn_count: int
    turns: list[TurnRow]
    findings: list[FindingRow]
    kept: frozenset[int] = frozenset()


def session_rows(
    number: int, session: Session, findings: list[Finding], known: dict[int, str] | None = None
) -> SessionRows:
    """What the index keeps of `session` (the `number`th of its file) and its `findings`;
    `known`: the digest of each turn of it as indexed, by number, whose row is kept when it is
    the same (its number in `kept`)."""
    turns: list[TurnRow] = []
    kept: set[int] = set()
    for turn in session.turns:
        row = _turn_row(turn)
        if known is not None and known.get(turn.position) == row.digest:
            kept.add(turn.position)
        elif row.text or row.calls or row.results or row.thinking:
            turns.append(_indexed(row))
    models = list(dict.fromkeys(turn.model for turn in session.turns if turn.model))
    model_of = {turn.position: turn.model for turn in session.turns if turn.model}
    fallback = models[0] if models else None
    rows = [FindingRow(f.turn, f.role, f.kind, f.severity, f.tool, model_of.get(f.turn, fallback)) for f in findings]
    return SessionRows(
        number, session.session_id, session.format, "\n".join(models), len(session.turns), turns, rows, frozenset(kept)
    )


def _turn_row(turn: Turn) -> TurnRow:
    """The turn's row with its fields cut but not redacted yet, and their digest."""
    calls = "\n".join(f"{call.name} {_as_text(call.arguments_raw)}" for call in turn.tool_calls)
    results = "\n".join(_as_text(result.content) for result in turn.tool_results)
    tools = " ".join(dict.fromkeys(call.name for call in turn.tool_calls))
    text, calls, results = _cut(turn.text), _cut(calls), _cut(results)
    thinking = _cut("\n".join(_thinking(turn.raw)))
    fields = hashlib.blake2b(
        "\0".join((text, calls, results, thinking)).encode("utf-8", "surrogatepass"), digest_size=8
    )
    made_of = "\0".join((turn.role, turn.model or "", tools, fields.hexdigest()))
    digest = hashlib.blake2b(made_of.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()
    words = int.from_bytes(fields.digest(), "big", signed=True)
    return TurnRow(turn.position, turn.role, turn.model, tools, text, calls, results, thinking, digest, words)


def _indexed(row: TurnRow) -> TurnRow:
    """`row` as indexed: each field redacted (`_kept`)."""
    return row._replace(
        text=_kept(row.text), calls=_kept(row.calls), results=_kept(row.results), thinking=_kept(row.thinking)
    )


def _cut(text: str) -> str:
    return text[:FIELD_CHARACTERS] if text else ""


def _kept(cut: str) -> str:
    """`cut` (a field, `_cut`) as indexed: its secrets masked, and no character that marks a match."""
    if not cut:
        return ""
    return _UNSTORABLE.sub("\ufffd", redacted(cut))


def _as_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, ensure_ascii=False, default=str)[: FIELD_CHARACTERS + 1]
    except (TypeError, ValueError, RecursionError):
        return str(value)[: FIELD_CHARACTERS + 1]


def _thinking(raw: Any) -> Iterator[str]:
    """The thinking blocks of a turn's record (`{"type": "thinking", "thinking": ...}` and its
    kin), looked for in at most `_RAW_BLOCKS` dictionaries, breadth first."""
    queue, looked = deque([raw]), 0
    while queue and looked < _RAW_BLOCKS:
        value = queue.popleft()
        if isinstance(value, dict):
            looked += 1
            if value.get("type") in _THINKING_TYPES:
                yield from (value[key] for key in _THINKING_KEYS if isinstance(value.get(key), str))
                continue
            queue.extend(entry for entry in value.values() if isinstance(entry, (dict, list)))
        elif isinstance(value, list):
            queue.extend(entry for entry in value[:_RAW_BLOCKS] if isinstance(entry, (dict, list)))
