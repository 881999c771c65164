"""Timestamps, model and tokens per turn (`inspector.tui.review.turn_meta`), read from the records of
the bundled samples and of records shaped as other tools write them."""

from __future__ import annotations

import pytest

from inspector.model import Turn
from inspector.sources import load_sessions
from inspector.tui.review.turn_meta import TurnMeta, record_meta, turn_meta
from tests.helpers.samples import SESSIONS
from tests.helpers.timing import cpu_time


def meta_of(sample: str, position: int) -> TurnMeta:
    return turn_meta(load_sessions(SESSIONS / sample)[0].turn_at(position))


@pytest.mark.parametrize(
    ("sample", "position", "expected"),
    [
        (
            "notes-agent.claude-code.jsonl",
            5,
            TurnMeta("2026-11-24 03:13:21 UTC", "claude-sonnet-4-5", 120, 42),
        ),  # message.model, message.usage
        ("notes-reader.gemini-cli.jsonl", 6, TurnMeta("2026-11-24 03:12:13 UTC", "gemini-2.5-flash", 500, 40)),
        ("notes-reader.gemini-cli.jsonl", 7, TurnMeta("2026-11-24 03:12:13 UTC")),  # a tool turn: its time only
        ("shell-agent.codex.jsonl", 2, TurnMeta("2026-11-24 03:11:11 UTC")),
        ("coding-agent.dump.json", 3, TurnMeta("2024-12-03 15:20:05 UTC", "google/gemini-2.5-flash-lite", 412, 38)),
        ("notes-agent.pydantic-ai.json", 1, TurnMeta("2026-11-24 04:03:52 UTC", "scripted-notes", 75, 33)),
        ("notes-agent.inspect-ai.eval", 1, TurnMeta(None, "mockllm/model")),
        ("rails-chat.rubyllm.db", 1, TurnMeta(None, "gemini-2.5-flash")),
        ("memory-agent.openai.json", 6, TurnMeta()),  # plain Chat Completions messages say nothing
    ],
)
def test_the_bundled_samples(sample, position, expected):
    assert meta_of(sample, position) == expected


@pytest.mark.parametrize(
    ("record", "expected"),
    [
        (
            {
                "role": "assistant",
                "created": 1733239205,
                "model": "gpt-4o",  # an OpenAI response's message
                "usage": {"prompt_tokens": 1200, "completion_tokens": 56, "total_tokens": 1256},
            },
            TurnMeta("2024-12-03 15:20:05 UTC", "gpt-4o", 1200, 56),
        ),
        (
            {
                "role": "model",
                "modelVersion": "gemini-2.5-pro",
                "createTime": "x",
                "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5},
            },
            TurnMeta(None, "gemini-2.5-pro", 10, 5),
        ),
        (
            {
                "type": "ai",
                "data": {
                    "usage_metadata": {"input_tokens": 7, "output_tokens": 3},
                    "response_metadata": {"model_name": "gpt-4o-mini", "created_at": "2025-03-01T10:00:00"},
                },
            },
            TurnMeta("2025-03-01 10:00:00", "gpt-4o-mini", 7, 3),
        ),  # no zone: shown as written
        (
            {
                "message": {
                    "usage": {
                        "input_tokens": 3,
                        "cache_read_input_tokens": 9000,
                        "cache_creation_input_tokens": 40,
                        "output_tokens": 8,
                    }
                }
            },
            TurnMeta(None, None, 9043, 8),
        ),  # Anthropic counts cached input apart
        ({"timestamp": 1733239205989}, TurnMeta("2024-12-03 15:20:05 UTC")),  # milliseconds
        ({"timestamp": "2025-01-02T03:04:05+02:00"}, TurnMeta("2025-01-02 01:04:05 UTC")),
        (
            {
                "timestamp": "yesterday\x1b[2J",
                "model": {"name": "x"},
                "usage": {"input_tokens": True, "output_tokens": -1},
            },
            TurnMeta("yesterday\\x1b[2J"),
        ),  # not a date: shown as text, escaped; odd values ignored
        ({"time": 0.25, "output": 0, "input": "text"}, TurnMeta()),  # a duration, a text's fields: not meta
        ("a string record", TurnMeta()),
        (None, TurnMeta()),
    ],
)
def test_records_as_other_tools_write_them(record, expected):
    assert record_meta(record) == expected


def test_describe_is_one_line():
    assert (
        TurnMeta("2026-11-24 03:13:21 UTC", "claude-sonnet-4-5", 12_000, 42).describe()
        == "2026-11-24 03:13:21 UTC · claude-sonnet-4-5 · 12,000 in / 42 out tokens"
    )
    assert TurnMeta(None, None, None, 5).describe() == "? in / 5 out tokens"
    assert TurnMeta().describe() == ""


def test_a_hostile_record_costs_a_bounded_time():
    events = tuple({"message": {"content": "x" * 100}} for _ in range(200_000))
    huge = {"timestamp": "9" * 1_000_000, "model": "m" * 1_000_000}
    started = cpu_time()
    assert turn_meta(Turn(0, "assistant", "", raw=events)) == TurnMeta()
    assert record_meta(huge) == TurnMeta("9" * 60, "m" * 60)
    assert cpu_time() - started < 0.5
