"""A value of an odd type where the format wants another (an object for an id, a list for the
messages, a binary tool name, a row the writer cannot take) is a problem of its record, or one line
and exit 2: every other record is read, and kept in a repaired file."""

from __future__ import annotations

import json
import shutil
import sqlite3
from contextlib import closing

import pytest

from inspector.cli.main import main
from tests.helpers.files import write_json
from tests.helpers.samples import SESSIONS
from tests.helpers.sqlite_histories import build_open_webui

ODD_VALUES = [{"a": 1}, [1], 7, True]


def _scan_json(path, capsys):
    code = main(["scan", "--json", str(path)])
    captured = capsys.readouterr()
    assert code in (0, 1), captured.err
    return json.loads(captured.out)["sessions"]


def _odd_cases(odd):
    """(file name, file value, where the odd value went) for every reader of session files."""
    call = {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
    return [
        (
            "result.openai.json",
            {
                "messages": [
                    {"role": "user", "content": "hi"},
                    {"role": "assistant", "content": None, "tool_calls": [call]},
                    {"role": "tool", "tool_call_id": odd, "content": "ok"},
                    {"role": "assistant", "content": "done"},
                ]
            },
        ),
        (
            "call.openai.json",
            {
                "messages": [
                    {"role": "user", "content": "hi"},
                    {"role": "assistant", "content": None, "tool_calls": [{**call, "id": odd}]},
                    {"role": "tool", "tool_call_id": "c1", "content": "ok"},
                    {"role": "assistant", "content": "done"},
                ]
            },
        ),
        (
            "name.openai.json",
            {
                "messages": [
                    {"role": "user", "content": "hi"},
                    {"role": "assistant", "content": None, "tool_calls": [call]},
                    {"role": "function", "name": odd, "content": "ok"},
                    {"role": "assistant", "content": "done"},
                ]
            },
        ),
        (
            "result.anthropic.json",
            {
                "system": "s",
                "messages": [
                    {"role": "user", "content": "hi"},
                    {"role": "assistant", "content": [{"type": "tool_use", "id": "c1", "name": "f", "input": {}}]},
                    {"role": "user", "content": [{"type": "tool_result", "tool_use_id": odd, "content": "ok"}]},
                    {"role": "assistant", "content": "done"},
                ],
            },
        ),
        (
            "call.anthropic.json",
            {
                "system": "s",
                "messages": [
                    {"role": "user", "content": "hi"},
                    {"role": "assistant", "content": [{"type": "tool_use", "id": odd, "name": "f", "input": {}}]},
                    {"role": "assistant", "content": "done"},
                ],
            },
        ),
        (
            "call.gemini.json",
            {
                "contents": [
                    {"role": "user", "parts": [{"text": "hi"}]},
                    {"role": "model", "parts": [{"functionCall": {"id": odd, "name": "f", "args": {}}}]},
                    {"role": "user", "parts": [{"functionResponse": {"name": odd, "response": {"r": 1}}}]},
                    {"role": "model", "parts": [{"text": "done"}]},
                ]
            },
        ),
        (
            "result.dump.json",
            {
                "session_id": "s1",
                "entries": [
                    {"role": "user", "content": "hi"},
                    {"role": "assistant", "content": "", "tool_calls": [call]},
                    {"role": "tool", "tool_call_id": odd, "name": "f", "content": "ok"},
                    {"role": "assistant", "content": "done"},
                ],
            },
        ),
    ]


@pytest.mark.parametrize("odd", ODD_VALUES, ids=["object", "list", "number", "boolean"])
def test_a_field_of_an_odd_type_is_a_problem_and_the_record_is_kept(tmp_path, capsys, odd):
    for (
        name,
        value,
    ) in _odd_cases(odd):
        path = tmp_path / name
        path.write_text(json.dumps(value, indent=2), encoding="utf-8")
        (session,) = _scan_json(path, capsys)
        assert any("skipped" in problem for problem in session["problems"]), (name, session["problems"])
        out = tmp_path / f"fixed.{name}"
        code = main(["fix", str(path), "--accept", "all", "-o", str(out)])
        assert code in (0, 1), (name, capsys.readouterr().err)
        written = json.loads(out.read_text(encoding="utf-8"))
        records = {
            json.dumps(record, sort_keys=True)
            for key in ("messages", "contents", "entries")
            for record in written.get(key, [])
        }
        odd_records = [
            record
            for key in ("messages", "contents", "entries")
            for record in value.get(key, [])
            if json.dumps(odd) in json.dumps(record)
        ]
        assert odd_records and all(json.dumps(record, sort_keys=True) in records for record in odd_records), name
        capsys.readouterr()


def test_a_fine_tuning_line_whose_messages_are_not_a_list_is_a_problem_of_its_own(tmp_path, capsys):
    path = tmp_path / "train.jsonl"
    good = {"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]}
    path.write_text(json.dumps(good) + "\n" + json.dumps({"messages": {"a": 1}}) + "\n", encoding="utf-8")
    sessions = _scan_json(path, capsys)
    assert [s["problems"] for s in sessions] == [[], ["its messages are not a list, skipped"]]


def test_a_tool_schema_whose_properties_are_not_an_object_checks_nothing(tmp_path, capsys):
    tools = [{"type": "function", "function": {"name": "f", "parameters": {"type": "object", "properties": [1]}}}]
    path = write_json(
        tmp_path / "tools.openai.json",
        {
            "messages": [
                {"role": "user", "content": "hi"},
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {"id": "c1", "type": "function", "function": {"name": "f", "arguments": '{"q": 1}'}}
                    ],
                },
                {"role": "tool", "tool_call_id": "c1", "content": "ok"},
            ],
            "tools": tools,
        },
        indent=None,
    )
    (session,) = _scan_json(path, capsys)
    assert session["findings"] == []


def test_an_sqlite_call_whose_name_is_binary_is_a_problem(tmp_path, capsys):
    path = tmp_path / "chat.db"
    shutil.copy(SESSIONS / "rails-chat.rubyllm.db", path)
    with closing(sqlite3.connect(path)) as conn, conn:
        conn.execute("UPDATE tool_calls SET name = x'00ff' WHERE id = 1")
    sessions = _scan_json(path, capsys)
    assert any(
        "a call's tool name is binary data, not text, skipped" in problem
        for session in sessions
        for problem in session["problems"]
    )


def test_a_stored_row_the_writer_cannot_take_is_one_line_and_rolled_back(tmp_path, capsys):
    path = build_open_webui(tmp_path / "webui.db")
    with closing(sqlite3.connect(path)) as conn, conn:
        conn.execute("UPDATE chat SET id = NULL WHERE rowid = 1")
    out = tmp_path / "fixed.db"
    assert main(["fix", str(path), "--accept", "all", "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "a stored row has a shape this schema's writer does not allow" in err
    assert "rolled back" in err and not out.exists()
