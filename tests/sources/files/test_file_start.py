"""The start of a large session file read alone: whole records only, each the record the whole file
holds, read by the format the whole file is read as; a small file, or a start that holds no whole
record, is left to be read whole."""

from __future__ import annotations

import json
from pathlib import Path

from inspector.sources.files.document import read_document
from inspector.sources.files.file_start import START_BYTES, document_start, json_start, session_at_start
from inspector.sources.files.session_file import SessionFile
from tests.helpers.large_files import large_openai
from tests.helpers.samples import SESSIONS

REAL = Path(__file__).resolve().parents[3] / "sessions"


def test_a_json_document_is_cut_after_its_last_whole_message_and_read_as_the_whole_is(tmp_path: Path):
    for indent in (2, None):  # indented, and on one line
        path = large_openai(tmp_path, indent)
        whole = read_document(path).value
        start = document_start(path)
        assert start is not None and not start.is_jsonl
        messages = start.value["messages"]
        assert 100 < len(messages) < len(whole["messages"])
        assert messages == whole["messages"][: len(messages)] and start.value["tools"] == whole["tools"]
        session = session_at_start(path)
        full = SessionFile(path).all_sessions()[0]
        assert session is not None and session.format == full.format == "openai"
        assert [turn.raw for turn in session.turns] == [turn.raw for turn in full.turns[: len(session.turns)]]
        assert session.tools == full.tools


def test_a_json_lines_file_keeps_its_whole_lines_within_the_start(tmp_path: Path):
    lines = (REAL / "claude-code.jsonl").read_bytes().splitlines(keepends=True)
    path = tmp_path / "large.jsonl"
    with path.open("wb") as out:
        while out.tell() <= 2 * START_BYTES:
            out.writelines(lines)
    start = document_start(path)
    whole = read_document(path)
    assert start is not None and start.is_jsonl
    assert 0 < len(start.value) < len(whole.value) and start.value == whole.value[: len(start.value)]
    assert len(path.read_bytes()[:START_BYTES].splitlines()) - 1 <= len(start.value)
    session, full = session_at_start(path), SessionFile(path).all_sessions()[0]
    assert session is not None and session.format == full.format == "claude-code"
    assert 0 < len(session.turns) < len(full.turns)
    assert [turn.raw for turn in session.turns] == [turn.raw for turn in full.turns[: len(session.turns)]]


def test_a_small_file_is_read_whole(tmp_path: Path):
    assert document_start(SESSIONS / "analyst-agent.openai.json") is None
    assert session_at_start(SESSIONS / "analyst-agent.openai.json") is None


def test_the_cut_skips_brackets_commas_and_quotes_inside_strings():
    text = b'{"a": [1, 2], "messages": [{"t": "x, ] } [\\" ,"}, {"t": "y"}, {"t": "cut, [ {'
    assert json.loads(json_start(text) or b"") == {"a": [1, 2], "messages": [{"t": 'x, ] } [" ,'}, {"t": "y"}]}
    assert json_start(b'[{"t": 1}, {"t": [1, 2], "u": 3') == b'[{"t": 1}]'  # the record cut off is left out
    assert json_start(b'{"messages": [{"t": "only one record, cut off') is None
    assert json_start(b"not json at all") is None
