"""A session file that is neither JSON nor JSON Lines, and does not start as JSON does, is a text
document (a tool's Markdown or plain-text log): held as its text and written back as it was; one
that starts as JSON and breaks is still one JSON error."""

from __future__ import annotations

import pytest

from inspector.errors import InspectorError
from inspector.sources.files.document import read_document


def test_markdown_is_a_text_document_written_back_byte_for_byte(tmp_path):
    data = "\ufeff# Notes\r\n\r\n#### a question  \n{not json}\n".encode()
    path = tmp_path / "notes.md"
    path.write_bytes(data)
    document = read_document(path)
    assert document.is_text and not document.is_jsonl
    assert document.render(document.value).encode() == data


@pytest.mark.parametrize("data", [b'{"messages": [', b"  [1, 2", b"NaN\n"])
def test_what_starts_as_json_is_read_as_json(tmp_path, data):
    path = tmp_path / "s.json"
    path.write_bytes(data)
    if data == b"NaN\n":
        assert not read_document(path).is_text
        return
    with pytest.raises(InspectorError, match="invalid JSON"):
        read_document(path)


def test_text_that_is_not_utf8_is_one_error_with_its_offset(tmp_path):
    path = tmp_path / "log.txt"
    path.write_bytes(b"TO LLM 2026-01-01T00:00:00\nUSER caf\xe9\n")
    with pytest.raises(InspectorError, match=r"log\.txt: not UTF-8 text \(bad byte at offset 35\)"):
        read_document(path)
