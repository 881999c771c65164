"""Scanning a history from its Nth conversation on (`iter_scan(..., start=N)`, what the picker does
after each pause): the same results as the tail of a full scan, for each way a schema groups its
conversations, with the conversations before skipped by SQLite."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from test_sqlite_formats import build_generic, build_llm_legacy, build_open_webui
from test_sqlite_rename import MISNAMED_CHAT
from test_sqlite_rubyllm import SEED_000_CHATS, build_rubyllm

from inspector.scan.scanner import iter_scan
from inspector.sources import open_source


def _rubyllm(path: Path) -> Path:
    return build_rubyllm(path, [*SEED_000_CHATS, MISNAMED_CHAT])


def _more(path: Path, sql: str) -> Path:
    """The history with more conversations, copied from its rows by `sql`."""
    with sqlite3.connect(path) as conn:
        conn.executescript(sql)
    conn.close()
    return path


def _generic(path: Path) -> Path:
    return _more(
        build_generic(path),
        "INSERT INTO turns SELECT turn_no, convo || '2', speaker, body FROM turns;"
        "INSERT INTO turns SELECT turn_no, upper(convo), speaker, body FROM turns;",
    )


def _open_webui(path: Path) -> Path:
    return _more(
        build_open_webui(path),
        "INSERT INTO chat SELECT 'c0', user_id, title, chat, 0, updated_at, NULL, "
        "archived FROM chat WHERE id = 'c1';"
        "INSERT INTO chat SELECT 'c2', user_id, title, chat, 2, updated_at, NULL, "
        "archived FROM chat WHERE id = 'c1';",
    )


def _llm_legacy(path: Path) -> Path:
    return _more(
        build_llm_legacy(path),
        "INSERT INTO responses (id, model, prompt, system, response, conversation_id, "
        "datetime_utc) SELECT id || c.n, model, prompt, system, response, c.n, "
        "datetime_utc FROM responses, (SELECT '00a' AS n UNION SELECT '02b') c;",
    )


def _summary(results) -> list[tuple]:
    return [(r.session.session_id, len(r.session.turns), [(f.turn, f.kind) for f in r.findings]) for r in results]


TURNS = {"table": "turns", "mapping": {"role": "speaker", "content": "body", "session": "convo", "order": "turn_no"}}


@pytest.mark.parametrize(("build", "table"), [(_rubyllm, {}), (_generic, TURNS), (_open_webui, {}), (_llm_legacy, {})])
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
