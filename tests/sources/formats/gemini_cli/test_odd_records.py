"""Damaged and odd Gemini CLI records: a cut last line, unknown lines, messages that are not objects
and values of odd types are problems kept in place, read, scanned and fixed without a traceback."""

import pytest

from inspector.cli.main import main
from inspector.sources import load_sessions, render_sessions
from tests.helpers.gemini_cli import DOCUMENT, SAMPLE, repair_and_reload, turn_shapes, write_document, write_log


def test_a_cut_last_line_and_unknown_lines_are_problems_kept_in_place(tmp_path):
    text = SAMPLE.read_text(encoding="utf-8")
    odd = '{"$compact":{"upTo":"x"}}\n{"$compact":{"upTo":"y"}}\n[1, 2]\n'
    path = tmp_path / "cut.jsonl"
    path.write_text(text + odd + '{"id":"9e8dfcaa-70b5-41f5-982d-d4', encoding="utf-8")
    (session,) = load_sessions(path)
    assert len(session.turns) == len(load_sessions(SAMPLE)[0].turns)
    assert session.problems[0].startswith("line 41: cut off, the last line is not whole JSON")
    assert session.problems[1:] == (
        "2 lines with keys $compact (not a message, $set, $rewindTo or metadata record), kept, not read",
        "1 line that is not a JSON object, kept, not read",
    )
    assert render_sessions([session]) == path.read_text(encoding="utf-8")
    out = tmp_path / "fixed.jsonl"
    repaired, reloaded = repair_and_reload(path, out)
    assert out.read_text().endswith(odd + '{"id":"9e8dfcaa-70b5-41f5-982d-d4')
    assert turn_shapes(reloaded.turns) == turn_shapes(repaired.turns)


def test_messages_that_are_not_objects_or_have_no_type_are_each_named_in_the_problems(tmp_path):
    messages = [*DOCUMENT["messages"], 7, [1], {"id": "x", "content": "no type"}]
    path = write_document(tmp_path / "odd.json", {**DOCUMENT, "messages": messages})
    (session,) = load_sessions(path)
    assert len(session.turns) == len(load_sessions(write_document(tmp_path / "plain.json", DOCUMENT))[0].turns)
    assert session.problems[-2:] == (
        "1 record without a message type not read as turns",
        "2 messages that are not JSON objects, kept (not read as turns)",
    )


ODD_DOCUMENT = {
    "sessionId": "s",
    "projectHash": "p",
    "messages": [
        7,
        {"type": "gemini", "content": 3, "toolCalls": "x"},
        {"type": "user", "content": [None, {"functionResponse": 1}]},
        {
            "type": "gemini",
            "content": [{"text": 5}],
            "toolCalls": [{"id": {"a": 1}, "name": "t", "args": "{", "result": 5}],
        },
        {"type": "user", "content": [{"functionResponse": {"id": [1], "name": "t"}}]},
        {"type": "odd"},
    ],
}
ODD_LOG = [
    {"sessionId": "s", "projectHash": "p"},
    {"$set": {"messages": 3}},
    {"$rewindTo": 4},
    5,
    {"sessionId": "s", "projectHash": "p", "messages": [1, {"id": "m", "type": "user", "content": {"text": "hi"}}]},
    {
        "id": "g",
        "type": "gemini",
        "content": [{"text": '<tool_call>{"name": "t", "arguments": {}}</tool_call>'}],
        "toolCalls": [None, {"name": "t", "id": 3}],
    },
]


@pytest.mark.parametrize(
    "name, write, value", [("odd.json", write_document, ODD_DOCUMENT), ("odd.jsonl", write_log, ODD_LOG)]
)
def test_odd_shapes_are_read_scanned_and_fixed_without_a_traceback(tmp_path, name, write, value):
    path = write(tmp_path / name, value)
    (session,) = load_sessions(path)
    assert session.problems
    assert main(["scan", str(path)]) in (0, 1)
    assert main(["fix", str(path), "--accept", "all", "-o", str(tmp_path / ("fixed." + name))]) in (0, 1)
