"""When a turn was written, by which model and with how many tokens, read from its record as
stored (`Turn.raw`) where the format keeps them.

No format module is asked: a few generic keys are looked up in the record and in the objects
formats wrap a message in, which covers OpenAI-style records (`created`, `model`, `usage`),
Claude Code events (`timestamp`, `message.model`, `message.usage`), Codex lines (`timestamp`),
Gemini CLI messages (`timestamp`, `model`, `tokens`), Pydantic AI responses, LangChain's
`usage_metadata` and `response_metadata`, session dumps (`tokens_in`, `tokens_out`) and database
rows (`model`, `input_tokens`). A fixed number of keys is read, whatever the record's size. The
model and the tokens are an assistant turn's only: a tool result some formats keep in the
assistant's record (Gemini CLI) was not written by the model.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar

from inspector.model import ASSISTANT, Turn
from inspector.support.safe_text import one_line

Value = TypeVar("Value")

WRAPPERS = ("message", "payload", "item", "record", "data", "kwargs", "response_metadata")
TIME_KEYS = ("timestamp", "created_at", "createdAt", "created", "time")
MODEL_KEYS = ("model", "model_name", "modelVersion")
USAGE_KEYS = ("usage", "usage_metadata", "usageMetadata", "tokens", "token_usage")
INPUT_KEYS = ("input_tokens", "prompt_tokens", "promptTokenCount", "input", "tokens_in")
OUTPUT_KEYS = ("output_tokens", "completion_tokens", "candidatesTokenCount", "output", "tokens_out")
FLAT_INPUT_KEYS = ("input_tokens", "prompt_tokens", "tokens_in")  # on the record itself ("input" is text there)
FLAT_OUTPUT_KEYS = ("output_tokens", "completion_tokens", "tokens_out")
CACHED_INPUT_KEYS = ("cache_creation_input_tokens", "cache_read_input_tokens")  # Anthropic counts them apart
RECORDS_READ = 64  # of a turn made of several records (Claude Code's events of one response)
SHOWN_CHARS = 60
EPOCH_SECONDS = (1e9, 1e10)  # 2001 to 2286
EPOCH_MILLISECONDS = (1e12, 1e13)


@dataclass(frozen=True)
class TurnMeta:
    """What the record says of the turn: `timestamp` as text (UTC when it says which zone),
    `model`, and the tokens the model read and wrote; None when it does not say."""

    timestamp: str | None = None
    model: str | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None

    def describe(self) -> str:
        """One line: "2026-11-24 03:13:21 UTC · claude-sonnet-4-5 · 120 in / 42 out tokens"."""
        parts = [part for part in (self.timestamp, self.model) if part]
        if self.input_tokens is not None or self.output_tokens is not None:
            parts.append(f"{_count(self.input_tokens)} in / {_count(self.output_tokens)} out tokens")
        return " · ".join(parts)


def turn_meta(turn: Turn) -> TurnMeta:
    """The timestamp of `turn`, and for an assistant turn the model and token counts, as its
    record (or its list of records) holds them."""
    meta = record_meta(turn.raw)
    return meta if turn.role == ASSISTANT else TurnMeta(meta.timestamp)


def record_meta(raw: Any) -> TurnMeta:
    """The timestamp, model and token counts `raw` (a record, or a list of records) holds."""
    timestamp = model = None
    tokens: tuple[int | None, int | None] = (None, None)
    for place in _places(raw):
        timestamp = timestamp or _first(place, TIME_KEYS, _timestamp)
        model = model or _first(place, MODEL_KEYS, _model)
        if tokens == (None, None):
            tokens = _tokens(place)
        if timestamp and model and tokens != (None, None):
            break
    return TurnMeta(timestamp, model, *tokens)


def _places(raw: Any) -> Iterator[dict[str, Any]]:
    """Each record, then the objects it wraps a message in (two levels deep)."""
    records = raw[:RECORDS_READ] if isinstance(raw, (list, tuple)) else [raw]
    for record in records:
        if not isinstance(record, dict):
            continue
        yield record
        for key in WRAPPERS:
            inner = record.get(key)
            if isinstance(inner, dict):
                yield inner
                yield from (value for name in WRAPPERS if isinstance(value := inner.get(name), dict))


def _first(place: dict[str, Any], keys: tuple[str, ...], read: Callable[[Any], Value | None]) -> Value | None:
    """The first of the values at `keys` in `place` that `read` can read, as it reads it."""
    return next((value for key in keys if (value := read(place.get(key))) is not None), None)


def _timestamp(value: Any) -> str | None:
    """An ISO date (shown in UTC when it has a zone) or a Unix time in seconds or milliseconds."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        seconds = (
            value
            if EPOCH_SECONDS[0] <= value < EPOCH_SECONDS[1]
            else (value / 1000 if EPOCH_MILLISECONDS[0] <= value < EPOCH_MILLISECONDS[1] else None)
        )
        return None if seconds is None else _utc(datetime.fromtimestamp(seconds, UTC))
    if not isinstance(value, str) or not value.strip():
        return None
    text = value.strip()
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00")) if len(text) <= SHOWN_CHARS else None
    except ValueError:
        moment = None
    if moment is None:
        return one_line(text[:SHOWN_CHARS])
    return _utc(moment) if moment.tzinfo else moment.strftime("%Y-%m-%d %H:%M:%S")


def _utc(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


def _model(value: Any) -> str | None:
    return one_line(value.strip()[:SHOWN_CHARS]) if isinstance(value, str) and value.strip() else None


def _tokens(place: dict[str, Any]) -> tuple[int | None, int | None]:
    """(input, output) from a usage object of `place`, else from its own keys."""
    for key in USAGE_KEYS:
        usage = place.get(key)
        if isinstance(usage, dict):
            found = _counts(usage, INPUT_KEYS, OUTPUT_KEYS)
            if found != (None, None):
                return found
    return _counts(place, FLAT_INPUT_KEYS, FLAT_OUTPUT_KEYS)


def _counts(place: dict[str, Any], inputs: tuple[str, ...], outputs: tuple[str, ...]) -> tuple[int | None, int | None]:
    read = _first(place, inputs, _number)
    if read is not None:
        read += sum(_number(place.get(key)) or 0 for key in CACHED_INPUT_KEYS)
    return read, _first(place, outputs, _number)


def _number(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def _count(value: int | None) -> str:
    return "?" if value is None else f"{value:,}"
