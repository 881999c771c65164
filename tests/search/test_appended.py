"""A JSON Lines session an agent appends to is read again for its findings, but only its new and
changed turns are indexed: what the index holds then is what a full rebuild holds."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from inspector.report.json_report import build_report
from inspector.search import documents, index_path
from inspector.search.summary_blob import unpacked
from tests.helpers.home_sessions import EVERY_AGENT
from tests.search.helpers import searched_json

CUT = 17  # the Claude Code sample's lines up to its second call, not answered yet


def contents(connection: sqlite3.Connection) -> dict[str, Any]:
    """What the index holds, row ids left out: each file, session, turn with its words, finding and
    summary (as `scan --json` reports it)."""
    return {
        "files": connection.execute("SELECT path, size, digest, error, texts FROM files ORDER BY path").fetchall(),
        "sessions": connection.execute(
            "SELECT files.path, number, session_id, format, agent, project, models, date, turns "
            "FROM sessions JOIN files ON sessions.file = files.id ORDER BY files.path, number"
        ).fetchall(),
        "turns": connection.execute(
            "SELECT files.path, sessions.number, turns.number, role, model, tools, turns.digest, "
            "turn_text.text, turn_text.calls, turn_text.results, turn_text.thinking FROM turns "
            "JOIN turn_text ON turn_text.rowid = turns.words JOIN sessions ON turns.session = sessions.id "
            "JOIN files ON sessions.file = files.id ORDER BY files.path, sessions.number, turns.number"
        ).fetchall(),
        "findings": connection.execute(
            "SELECT files.path, sessions.number, turn, role, kind, severity, tool, model FROM findings "
            "JOIN sessions ON findings.session = sessions.id JOIN files ON sessions.file = files.id "
            "ORDER BY 1, 2, 3, 4, 5, 6, 7, 8"
        ).fetchall(),
        "summaries": [
            (path, read_as, build_report(unpacked(data) or []), anchors)
            for path, read_as, data, anchors in connection.execute(
                "SELECT files.path, read_as, data, anchors FROM summaries JOIN files ON summaries.file = files.id "
                "ORDER BY files.path"
            )
        ],
    }


def turn_ids(connection: sqlite3.Connection) -> dict[int, int]:
    """Each turn's row id, by its number."""
    return dict(connection.execute("SELECT number, id FROM turns"))


@pytest.fixture
def appended(empty_home: Path) -> Path:
    """The Claude Code sample cut after a call, where discovery finds it."""
    sample, where, _ = EVERY_AGENT["Claude Code"]
    path = empty_home / where
    path.parent.mkdir(parents=True)
    path.write_text("".join(sample.read_text(encoding="utf-8").splitlines(keepends=True)[:CUT]), encoding="utf-8")
    return path


def test_an_appended_session_indexes_its_new_turns_and_holds_what_a_rebuild_holds(
    appended: Path, capsys, monkeypatch: pytest.MonkeyPatch
):
    first = searched_json(capsys, "", "--facets")
    with sqlite3.connect(index_path()) as connection:
        before = turn_ids(connection)
        indexed = {text for (text,) in connection.execute("SELECT text FROM turn_text") if text}
    assert first["facets"]["kind"]["orphan-call"] == 1  # the last call, not answered yet

    rest = EVERY_AGENT["Claude Code"][0].read_text(encoding="utf-8").splitlines(keepends=True)[CUT:]
    last = json.loads(rest[-2])  # the last reply (the last line says which prompt was last)
    record = {
        "type": "user",
        "message": {"role": "user", "content": "never mind, a marzipanelephant walks in"},
        "uuid": "0c6d1c39-8f9b-4d55-9df4-2f0f3c0e2a11",
        "parentUuid": last["uuid"],
        "sessionId": last["sessionId"],
        "timestamp": "2026-11-24T03:20:00.000Z",
        "cwd": "/tmp/cc-work",
    }
    with appended.open("a", encoding="utf-8") as file:  # the agent goes on: the call is answered
        file.write("".join(rest) + json.dumps(record) + "\n")
    redacted: list[str] = []  # each text indexed from now on (it is redacted first)
    monkeypatch.setattr(documents, "redacted", lambda text: redacted.append(text) or text)
    grown = searched_json(capsys, "marzipanelephant")
    assert redacted and not indexed & set(redacted)  # the turns indexed before are not indexed again
    assert [(hit["path"], hit["role"]) for hit in grown["hits"]] == [(str(appended), "user")]
    assert grown["index"]["read"] == grown["index"]["appended"] == 1
    facets = searched_json(capsys, "", "--facets")["facets"]
    assert "orphan-call" not in facets["kind"]  # the findings are those of a full read
    with sqlite3.connect(index_path()) as connection:
        after, incremental = turn_ids(connection), contents(connection)
    assert {number: after[number] for number in before} == before  # the turns indexed keep their rows
    assert max(after) > max(before)

    rebuilt = searched_json(capsys, "", "--facets", "--reindex")
    assert rebuilt["facets"] == facets and rebuilt["index"]["appended"] == 0
    with sqlite3.connect(index_path()) as connection:
        assert contents(connection) == incremental


def test_a_session_rewritten_longer_is_read_and_indexed_whole(appended: Path, capsys):
    searched_json(capsys, "notes")
    text = appended.read_text(encoding="utf-8")
    appended.write_text(text.replace("notes", "NOTES") + text[-200:].split("\n", 1)[-1], encoding="utf-8")
    document = searched_json(capsys, "notes")
    assert (document["index"]["read"], document["index"]["appended"]) == (1, 0)
