"""Recognising a file never guesses: a file two specific formats claim is refused with a line
naming both, and the general OpenAI format reads only what no specific format claims."""

import json

import pytest

from inspector.cli.main import main
from inspector.errors import InspectorError
from inspector.sources import load_sessions


def test_a_file_two_formats_claim_is_refused_naming_both(tmp_path, capsys):
    both = {
        "session_id": "s1",
        "entries": [{"role": "user", "content": "hi"}],
        "contents": [{"role": "user", "parts": [{"text": "hi"}]}],
    }
    path = tmp_path / "both.json"
    path.write_text(json.dumps(both))
    with pytest.raises(
        InspectorError, match="has the shape of session-dump and gemini at once; name one with --format"
    ):
        load_sessions(path)
    assert main(["scan", str(path)]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    assert main(["scan", str(path), "--format", "gemini"]) == 0


def test_a_plain_message_list_is_read_as_openai_only_when_no_specific_format_claims_it(tmp_path):
    path = tmp_path / "chat.json"
    path.write_text(
        json.dumps({"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "yo"}]})
    )
    assert [session.format for session in load_sessions(path)] == ["openai"]
