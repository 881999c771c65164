"""Scanning a history from its Nth conversation on (`iter_scan(..., start=N)`, what the picker does
after each pause): the same results as the tail of a full scan, for each way a schema groups its
conversations, with the conversations before skipped by SQLite."""

from __future__ import annotations

import json

import pytest

from inspector.scan.scanner import iter_scan
from inspector.sources import open_source
from tests.helpers.grouped_histories import (
    TURNS,
    llm_legacy_history,
    open_webui_history,
    rubyllm_history,
    table_history,
)


def _summary(results) -> list[tuple]:
    return [(r.session.session_id, len(r.session.turns), [(f.turn, f.kind) for f in r.findings]) for r in results]


@pytest.mark.parametrize(
    ("build", "table"),
    [(rubyllm_history, {}), (table_history, TURNS), (open_webui_history, {}), (llm_legacy_history, {})],
)
def test_scanning_from_the_third_conversation_gives_the_tail_of_a_full_scan(tmp_path, build, table):
    path = build(tmp_path / "history.db")
    full = _summary(iter_scan(open_source(path, **table)))
    assert len(full) >= 3
    assert [session_id for session_id, _, _ in full] == [i for i, _ in open_source(path, **table).listing()]
    assert _summary(iter_scan(open_source(path, **table), start=2)) == full[2:]
    assert _summary(iter_scan(open_source(path, **table), start=len(full))) == []


def test_a_plain_session_file_starts_at_its_nth_session_too(tmp_path):
    path = tmp_path / "sessions.jsonl"
    path.write_text(
        "".join(json.dumps({"messages": [{"role": "user", "content": f"hi {n}"}]}) + "\n" for n in range(3))
    )
    assert _summary(iter_scan(open_source(path), start=1)) == _summary(iter_scan(open_source(path)))[1:]
