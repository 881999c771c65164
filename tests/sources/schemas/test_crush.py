"""Crush's `crush.db`, built from Crush's storage code (`sessions/crush.db`,
`sessions/generate/crush.py`): recognised by its tables alone, each session read as one
conversation with its calls linked to their results and the assistant's model, the planted
problems found once and the good call left clean; parts of a type the reader does not know
counted in its problems."""

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
from inspector.sources.discovery import discover
from tests.helpers.databases import schemas_recognising
from tests.helpers.samples import TOOL_SAMPLES

SAMPLE = TOOL_SAMPLES / "crush.db"
SESSION_ID = "6f1c2a4e-8b7d-4f3a-9c1e-2d5b7a9e0c11"
PLANTED = [
    (1, "result-prefix", "warning"),
    (3, "tool-markup", "error"),
    (5, "malformed-arguments", "warning"),
    (6, "tool-error", "info"),
]


def scan(path: Path, capsys) -> list[tuple]:
    capsys.readouterr()
    main(["scan", "--json", str(path)])
    report = json.loads(capsys.readouterr().out)
    return [(f["turn"], f["kind"], f["severity"]) for s in report["sessions"] for f in s["findings"]]


def test_the_database_is_recognised_by_the_crush_schema_alone():
    assert schemas_recognising(SAMPLE) == ["crush"]


def test_its_session_is_read_as_one_conversation_with_calls_linked_to_results():
    source = open_source(SAMPLE)
    assert source.format == "crush"
    assert source.listing() == [(SESSION_ID, 10)]
    session = source.session(SESSION_ID)
    assert session.problems == ()
    assert [t.role for t in session.turns] == [USER, ASSISTANT] * 3 + [TOOL, ASSISTANT, TOOL, ASSISTANT]
    assert {t.model for t in session.turns if t.role == ASSISTANT} == {"mock-model"}
    assert {t.model for t in session.turns if t.role != ASSISTANT} == {None}
    (broken,) = session.turns[5].tool_calls
    assert (broken.id, broken.name, broken.arguments) == ("call_mock_broken_cut", "view", None)
    assert broken.arguments_raw == '{"file_path": "/tmp/crush-work/notes.txt"'
    (failed,) = session.turns[6].tool_results
    assert (failed.call_id, failed.is_error) == ("call_mock_broken_cut", True)
    (good,) = session.turns[7].tool_calls
    assert good.arguments == {"file_path": "/tmp/crush-work/notes.txt"}
    (answer,) = session.turns[8].tool_results
    assert (answer.call_id, answer.is_error) == ("call_mock_good_read", False)
    assert "Meeting moved to Thursday." in answer.content


def test_the_planted_problems_are_found_once_and_the_good_call_stays_clean(capsys):
    assert scan(SAMPLE, capsys) == PLANTED


def test_a_part_type_the_reader_does_not_know_is_counted_in_the_problems(tmp_path):
    path = tmp_path / "crush.db"
    shutil.copy(SAMPLE, path)
    parts = json.dumps([{"type": "hologram", "data": {"frames": 3}}, {"type": "text", "data": {"text": "Seen."}}])
    with closing(sqlite3.connect(path)) as connection, connection:
        connection.execute("UPDATE messages SET parts = ? WHERE id = '6f1c2a4e-0000-4000-8000-000000000009'", [parts])
    session = open_source(path).session(SESSION_ID)
    assert session.problems == ("1 part of a type this reader does not know ('hologram'), kept as stored",)
    assert session.turns[-1].text == "Seen."


@pytest.mark.parametrize(
    ("odd", "line"),
    [
        (["hologram"], "1 part that is not a JSON object, kept as stored"),
        (["hologram", 3], "2 parts that are not JSON objects, kept as stored"),
    ],
)
def test_parts_that_are_not_json_objects_are_counted_as_such_in_words_that_agree(tmp_path, odd, line):
    path = tmp_path / "crush.db"
    shutil.copy(SAMPLE, path)
    parts = json.dumps([*odd, {"type": "text", "data": {"text": "Seen."}}])
    with closing(sqlite3.connect(path)) as connection, connection:
        connection.execute("UPDATE messages SET parts = ? WHERE id = '6f1c2a4e-0000-4000-8000-000000000009'", [parts])
    session = open_source(path).session(SESSION_ID)
    assert session.problems == (line,)
    assert session.turns[-1].text == "Seen."


def test_discovery_finds_the_home_folder_s_database_and_scan_reads_it_as_crush(empty_home: Path, capsys):
    database = empty_home / ".crush" / "crush.db"
    database.parent.mkdir()
    shutil.copy(SAMPLE, database)
    assert [(found.tool, found.path) for found in discover(empty_home, {})] == [("Crush", database)]
    main(["scan", "--json"])
    (session,) = json.loads(capsys.readouterr().out)["sessions"]
    assert (session["format"], session["session_id"]) == ("crush", SESSION_ID)


def test_parts_nested_past_what_json_reads_are_counted_in_the_problems(tmp_path):
    path = tmp_path / "crush.db"
    shutil.copy(SAMPLE, path)
    with closing(sqlite3.connect(path)) as connection, connection:
        connection.execute(
            "UPDATE messages SET parts = ? WHERE id = '6f1c2a4e-0000-4000-8000-000000000009'",
            ["[" * 100_000 + "]" * 100_000],
        )
    session = open_source(path).session(SESSION_ID)
    assert session.problems == ("1 message whose parts are nested too deeply to read, kept as stored",)
    assert len(session.turns) == 9


def test_a_fix_in_place_is_refused_in_one_line_naming_the_copy_that_can_be_written(tmp_path, capsys):
    database = Path(shutil.copy(SAMPLE, tmp_path / "crush.db"))
    before = database.read_bytes()
    assert main(["fix", str(database), "--accept", "all", "--in-place"]) == 2
    assert capsys.readouterr().err == (
        f"inspector: error: {database}: the crush schema cannot be written back (write a repaired copy with "
        "-o OUT --to openai); nothing was written\n"
    )
    assert database.read_bytes() == before and sorted(path.name for path in tmp_path.iterdir()) == ["crush.db"]
    assert main(["fix", str(database), "--accept", "all", "--to", "openai", "-o", str(tmp_path / "crush.json")]) == 1
    assert json.loads((tmp_path / "crush.json").read_text())["messages"]
