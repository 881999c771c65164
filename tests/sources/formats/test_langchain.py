"""LangChain message histories as files: `messages_to_dict` and `dumpd` lists as langchain-core 1.7
and a LangGraph `create_react_agent` wrote them (`sessions/langchain.*.json`),
read by their own markers, their invalid calls flagged once, and written back with both copies of
each call (`tool_calls` / `invalid_tool_calls` and `additional_kwargs.tool_calls`) in step."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.cli.main import main
from inspector.model import ASSISTANT, SYSTEM, TOOL, USER
from inspector.sources import FORMATS, load_sessions, render_sessions
from inspector.sources.files.document import read_document
from tests.helpers.samples import SESSIONS, TOOL_SAMPLES
from tests.helpers.scanning import finding_triples

SAMPLES = TOOL_SAMPLES
DICT = SAMPLES / "langchain.messages.json"
DUMPD = SAMPLES / "langchain.dumpd.json"
BOTH = [(DICT, "langchain", "data"), (DUMPD, "langchain-dumpd", "kwargs")]
PLANTED = [
    (2, "result-prefix", None),
    (4, "tool-markup", "read_file"),
    (6, "malformed-arguments", "read_file"),
    (6, "malformed-arguments", "read_file"),
    (6, "orphan-call", "read_file"),
    (6, "orphan-call", "read_file"),
]


def write(tmp_path: Path, value, name: str = "history.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(value, indent=2) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("path, name, _", BOTH)
def test_each_container_is_claimed_by_its_own_format_alone(path, name, _):
    document = read_document(path)
    assert [n for n, file_format in FORMATS.items() if file_format.claims(document)] == [name]  # not OpenAI, not Gemini
    (session,) = load_sessions(path)
    assert (session.format, session.problems) == (name, ())


def test_no_other_sample_is_claimed_by_the_langchain_formats():
    others = [
        p
        for p in [*SAMPLES.iterdir(), *SESSIONS.iterdir()]
        if p.suffix in (".json", ".jsonl") and "langchain" not in p.name
    ]
    assert others
    for path in others:
        document = read_document(path)
        assert not FORMATS["langchain"].claims(document) and not FORMATS["langchain-dumpd"].claims(document), path


@pytest.mark.parametrize("path, _, __", BOTH)
def test_messages_are_read_with_invalid_calls_once_and_the_good_call_answered(path, _, __):
    (session,) = load_sessions(path)
    assert [t.role for t in session.turns] == [
        SYSTEM,
        USER,
        ASSISTANT,
        USER,
        ASSISTANT,
        USER,
        ASSISTANT,
        USER,
        ASSISTANT,
        TOOL,
        ASSISTANT,
    ]
    assert session.turns[2].id == "msg_mock_00"
    cut, braces = session.turns[6].tool_calls  # not read again from additional_kwargs
    assert (cut.id, cut.arguments_raw, cut.arguments) == ("call_mock_broken_cut", '{"file_path": "notes.txt"', None)
    assert braces.arguments_raw == '{"file_path": "notes.txt"}}}}'
    (good,) = session.turns[8].tool_calls
    assert (good.id, good.arguments) == ("call_mock_good", {"file_path": "notes.txt"})
    (result,) = session.turns[9].tool_results
    assert (result.call_id, result.name, result.is_error) == ("call_mock_good", "read_file", False)


@pytest.mark.parametrize("path, _, __", BOTH)
def test_the_planted_failures_are_found_once_and_the_good_call_stays_clean(path, _, __):
    assert finding_triples(path) == PLANTED


@pytest.mark.parametrize("path, _, __", BOTH)
def test_round_trip_without_fixes_is_byte_identical(path, _, __, tmp_path):
    assert render_sessions(load_sessions(path)) == path.read_text(encoding="utf-8")
    wrapped = write(tmp_path, {"messages": json.loads(path.read_text()), "thread": "t1"})
    assert render_sessions(load_sessions(wrapped)) == wrapped.read_text(encoding="utf-8")


@pytest.mark.parametrize("path, _, fields", BOTH)
def test_fix_moves_repaired_calls_to_tool_calls_keeping_additional_kwargs_in_step(path, _, fields, tmp_path):
    out = tmp_path / "fixed.json"
    assert main(["fix", str(path), "--accept", "all", "-o", str(out)]) == 0
    assert finding_triples(out) == []
    before, after = json.loads(path.read_text()), json.loads(out.read_text())
    assert len(after) == len(before) + 4  # the recovered call and its result, two orphan results
    assert after[:2] == before[:2] and after[3] == before[3] and after[7] == before[5] and after[11:] == before[7:]
    fixed = after[8][fields]
    assert list(fixed) == list(before[6][fields])  # key order kept
    assert [(c["id"], c["args"]) for c in fixed["tool_calls"]] == [
        ("call_mock_broken_cut", {"file_path": "notes.txt"}),
        ("call_mock_broken_braces", {"file_path": "notes.txt"}),
    ]
    assert fixed["invalid_tool_calls"] == []
    assert [c["function"]["arguments"] for c in fixed["additional_kwargs"]["tool_calls"]] == [
        '{"file_path": "notes.txt"}'
    ] * 2
    results = [m[fields] for m in after[9:11]]
    assert [(r["tool_call_id"], r["status"]) for r in results] == [
        ("call_mock_broken_cut", "success"),
        ("call_mock_broken_braces", "success"),
    ]
    recovered = after[4][fields]
    assert (recovered["content"], recovered["tool_calls"][0]["args"]) == ("", {"file_path": "notes.txt"})


@pytest.mark.parametrize("where", ["invalid_tool_calls", "additional_kwargs"])
def test_a_call_id_that_is_no_text_is_none_and_the_fix_writes_the_rest(tmp_path, where):
    """An `id` that is a list (LangChain's are texts): the call reads with none, and `fix` repairs
    the message (it stopped with a traceback writing it, or refused the file reading it)."""
    messages = json.loads(DICT.read_text())
    fields = messages[6]["data"]
    entries = (
        fields["invalid_tool_calls"] if where == "invalid_tool_calls" else fields["additional_kwargs"]["tool_calls"]
    )
    entries[1]["id"] = []
    path, out = write(tmp_path, messages), tmp_path / "fixed.json"
    assert main(["fix", str(path), "--accept", "all", "-o", str(out)]) == 0
    assert finding_triples(out) == []  # every planted failure repaired, the output read again


def test_calls_kept_only_in_additional_kwargs_are_read_and_repaired_there(tmp_path):
    messages = json.loads(DICT.read_text())
    del messages[6]["data"]["invalid_tool_calls"]  # an older writer: LangChain parses additional_kwargs on load
    path = write(tmp_path, messages)
    assert [c.id for c in load_sessions(path)[0].turns[6].tool_calls] == [
        "call_mock_broken_cut",
        "call_mock_broken_braces",
    ]
    out = tmp_path / "fixed.json"
    main(["fix", str(path), "--accept", "malformed-arguments", "-o", str(out)])
    data = json.loads(out.read_text())[6]["data"]
    assert data["tool_calls"] == [] and "invalid_tool_calls" not in data
    assert [c["function"]["arguments"] for c in data["additional_kwargs"]["tool_calls"]] == [
        '{"file_path": "notes.txt"}'
    ] * 2
    assert [f for f in finding_triples(out) if f[0] == 6] == [(6, "orphan-call", "read_file")] * 2


def test_records_that_are_no_messages_are_counted_and_kept(tmp_path):
    messages = json.loads(DICT.read_text())
    messages[3:3] = [{"type": "remove", "data": {"id": "x"}}, {"type": "remove", "data": {"id": "y"}}, "note"]
    path = write(tmp_path, messages)
    (session,) = load_sessions(path)
    assert session.problems == (
        "2 messages of type 'remove' not read as turns",
        "1 record that is not an object not read as a turn",
    )
    out = tmp_path / "fixed.json"
    main(["fix", str(path), "--accept", "all", "-o", str(out)])
    assert json.loads(out.read_text())[3:6] == messages[3:6]


def test_a_serialized_object_of_another_class_is_counted_and_kept(tmp_path):
    records = json.loads(DUMPD.read_text())
    records.insert(
        1,
        {
            "lc": 1,
            "type": "constructor",
            "id": ["langchain", "schema", "document", "Document"],
            "kwargs": {"page_content": "x"},
        },
    )
    path = write(tmp_path, records)
    (session,) = load_sessions(path)
    assert session.problems == ("1 serialized 'Document' not read as a turn",)
    assert render_sessions([session]) == path.read_text()
