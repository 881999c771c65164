"""`GrowingFile`: a transcript another process appends to, read a piece at a time, on the real
Claude Code sample written out line by line as the agent writes it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.errors import InspectorError
from inspector.sources.files.growing_file import GrowingFile, Growth
from tests.helpers.samples import TOOL_SAMPLES

LINES = (TOOL_SAMPLES / "claude-code.jsonl").read_bytes().splitlines(keepends=True)


def test_each_grow_reads_only_what_was_appended_and_a_half_line_waits(tmp_path: Path, monkeypatch):
    path = tmp_path / "session.jsonl"
    path.write_bytes(b"".join(LINES[:3]))
    growing = GrowingFile(path)
    assert growing.grow() is Growth.APPENDED  # the first read: the whole file is new
    assert len(growing.document().value) == 3
    reads: list[int] = []
    real_open = open

    def counted(file, mode="r", *args, **kwargs):  # how much each grow reads after the edges
        opened = real_open(file, mode, *args, **kwargs)
        real_read = opened.read
        opened.read = lambda size=-1: reads.append(len(data := real_read(size))) or data  # type: ignore[method-assign]
        return opened

    with path.open("ab") as out:
        out.write(LINES[3] + LINES[4][:20])  # a line and the start of the next
    monkeypatch.setattr("builtins.open", counted)
    assert growing.grow() is Growth.APPENDED
    assert reads[-1] == len(LINES[3]) + 20  # the appended bytes, not the file
    assert len(growing.document().value) == 4  # the half line is not read yet
    assert growing.grow() is Growth.NONE
    with path.open("ab") as out:
        out.write(LINES[4][20:])
    assert growing.grow() is Growth.APPENDED
    assert len(growing.document().value) == 5


def test_a_file_cut_or_rewritten_is_read_again_from_the_start(tmp_path: Path):
    path = tmp_path / "session.jsonl"
    path.write_bytes(b"".join(LINES[:6]))
    growing = GrowingFile(path)
    growing.grow()
    path.write_bytes(b"".join(LINES[:2]))  # compacted
    assert growing.grow() is Growth.REWRITTEN
    assert len(growing.document().value) == 2
    document = tmp_path / "chat.json"  # a JSON document saved whole each time, growing
    document.write_text(json.dumps({"messages": [{"role": "user", "content": "hi"}]}))
    growing = GrowingFile(document)
    growing.grow()
    document.write_text(
        json.dumps({"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "ok"}]})
    )
    assert growing.grow() is Growth.REWRITTEN
    assert len(growing.document().value["messages"]) == 2


def test_a_json_document_half_written_is_an_error_until_it_is_whole(tmp_path: Path):
    path = tmp_path / "chat.json"
    path.write_text('{"messages": [{"role": "user", "content": "h')
    growing = GrowingFile(path)
    growing.grow()
    with pytest.raises(InspectorError):
        growing.document()
    path.write_text('{"messages": [{"role": "user", "content": "hi"}]}')  # the rest written: an append
    assert growing.grow() is Growth.APPENDED
    assert growing.document().value["messages"][0]["content"] == "hi"
