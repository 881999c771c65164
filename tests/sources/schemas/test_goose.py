"""Goose's `sessions.db`, built from Goose's storage code (`sessions/goose.db`,
`sessions/generate/goose.py`): recognised by its tables alone, each session read as one
conversation with its calls linked to their results, the planted problems found once and the
good call left clean; contents of a type the reader does not know counted in its problems."""

from __future__ import annotations

import json
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from inspector.cli.main import main
from inspector.model import ASSISTANT, TOOL, USER
from inspector.sources import open_source
from inspector.sources.discovery import FoundSession, discover
from tests.helpers.databases import schemas_recognising
from tests.helpers.samples import TOOL_SAMPLES

SAMPLE = TOOL_SAMPLES / "goose.db"
SESSION_ID = "20260101_1"
PLANTED = [
    (1, "result-prefix", "warning"),
    (3, "tool-markup", "error"),
    (5, "malformed-arguments", "error"),
    (6, "tool-error", "info"),
]


def scan(path: Path, capsys) -> list[tuple]:
    capsys.readouterr()
    main(["scan", "--json", str(path)])
    report = json.loads(capsys.readouterr().out)
    return [(f["turn"], f["kind"], f["severity"]) for s in report["sessions"] for f in s["findings"]]


def test_the_database_is_recognised_by_the_goose_schema_alone():
    assert schemas_recognising(SAMPLE) == ["goose"]


def test_its_session_is_read_as_one_conversation_with_calls_linked_to_results():
    source = open_source(SAMPLE)
    assert source.format == "goose"
    assert source.listing() == [(SESSION_ID, 10)]
    session = source.session(SESSION_ID)
    assert session.problems == ()
    assert [t.role for t in session.turns] == [USER, ASSISTANT] * 3 + [TOOL, ASSISTANT, TOOL, ASSISTANT]
    (broken,) = session.turns[5].tool_calls
    assert (broken.id, broken.arguments) == ("call_mock_broken_cut", None)
    assert "Could not interpret tool use parameters" in broken.arguments_raw
    (failed,) = session.turns[6].tool_results
    assert (failed.call_id, failed.is_error) == ("call_mock_broken_cut", True)
    (good,) = session.turns[7].tool_calls
    assert (good.id, good.name) == ("call_mock_good_read", "developer__text_editor")
    assert good.arguments == {"command": "view", "path": "/tmp/goose-work/notes.txt"}
    (answer,) = session.turns[8].tool_results
    assert (answer.call_id, answer.is_error) == ("call_mock_good_read", False)
    assert "1: Meeting moved to Thursday." in json.dumps(answer.content)


def test_the_planted_problems_are_found_once_and_the_good_call_stays_clean(capsys):
    assert scan(SAMPLE, capsys) == PLANTED


def test_a_content_type_the_reader_does_not_know_is_counted_in_the_problems(tmp_path):
    path = tmp_path / "sessions.db"
    shutil.copy(SAMPLE, path)
    unknown = json.dumps([{"type": "hologram", "frames": 3}, {"type": "text", "text": "Seen."}])
    with closing(sqlite3.connect(path)) as connection, connection:
        connection.execute("UPDATE messages SET content_json = ? WHERE id = 10", [unknown])
    session = open_source(path).session(SESSION_ID)
    assert session.problems == ("1 content of a type this reader does not know ('hologram'), kept as stored",)
    assert session.turns[-1].text == "Seen."


@pytest.mark.parametrize(
    ("odd", "line"),
    [
        (["hologram"], "1 content that is not a JSON object, kept as stored"),
        (["hologram", 3], "2 contents that are not JSON objects, kept as stored"),
    ],
)
def test_contents_that_are_not_json_objects_are_counted_as_such_in_words_that_agree(tmp_path, odd, line):
    path = tmp_path / "sessions.db"
    shutil.copy(SAMPLE, path)
    contents = json.dumps([*odd, {"type": "text", "text": "Seen."}])
    with closing(sqlite3.connect(path)) as connection, connection:
        connection.execute("UPDATE messages SET content_json = ? WHERE id = 10", [contents])
    session = open_source(path).session(SESSION_ID)
    assert session.problems == (line,)
    assert session.turns[-1].text == "Seen."


def test_discovery_finds_the_database_in_goose_s_data_folder(empty_home: Path, tmp_path: Path):
    database = empty_home / ".local" / "share" / "goose" / "sessions" / "sessions.db"
    database.parent.mkdir(parents=True)
    shutil.copy(SAMPLE, database)
    assert [(found.tool, found.path) for found in discover(empty_home, {})] == [("Goose", database)]
    moved = tmp_path / "root" / "data" / "sessions" / "sessions.db"
    moved.parent.mkdir(parents=True)
    shutil.copy(SAMPLE, moved)
    found = discover(empty_home, {"GOOSE_PATH_ROOT": str(tmp_path / "root")})
    assert [(f.tool, f.path) for f in found] == [("Goose", moved)]
    assert all(isinstance(f, FoundSession) for f in found)


def test_scan_with_no_path_reads_it_as_goose(empty_home: Path, capsys):
    database = empty_home / ".local" / "share" / "goose" / "sessions" / "sessions.db"
    database.parent.mkdir(parents=True)
    shutil.copy(SAMPLE, database)
    main(["scan", "--json"])
    (session,) = json.loads(capsys.readouterr().out)["sessions"]
    assert (session["format"], session["session_id"]) == ("goose", SESSION_ID)


def test_contents_nested_past_what_json_reads_are_counted_in_the_problems(tmp_path):
    path = tmp_path / "sessions.db"
    shutil.copy(SAMPLE, path)
    with closing(sqlite3.connect(path)) as connection, connection:
        connection.execute("UPDATE messages SET content_json = ? WHERE id = 10", ["[" * 100_000 + "]" * 100_000])
    session = open_source(path).session(SESSION_ID)
    assert session.problems == ("1 message whose contents are nested too deeply to read, kept as stored",)
    assert len(session.turns) == 9
