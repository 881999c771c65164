"""Terminal escapes and hidden or direction characters, in a session or in a file name, are shown
escaped wherever they are printed and kept exactly in JSON: none reaches the terminal."""

from __future__ import annotations

import json

import pytest

from inspector.cli.main import main
from inspector.support.safe_text import neutralise
from tests.helpers.files import write_json

OSC_52 = "\x1b]52;c;SGVsbG8=\x07"  # writes "Hello" to the clipboard
TITLE = "\x1b]0;owned\x07"
CLEAR = "\x1b[2J"
HOSTILE_NAME = f"save{OSC_52}{TITLE}{CLEAR}\u202e\u200b"


def _hostile_session(tmp_path, name="session.json"):
    """A session whose tool name, argument key and call id hold escape sequences and hidden characters."""
    return write_json(
        tmp_path / name,
        {
            "messages": [
                {"role": "user", "content": "hi"},
                {
                    "role": "assistant",
                    "content": '{"result": "ok"} Saved.',
                    "tool_calls": [
                        {
                            "id": f"c1{CLEAR}",
                            "type": "function",
                            "function": {"name": HOSTILE_NAME, "arguments": json.dumps({f"k{TITLE}": 1})},
                        }
                    ],
                },
            ]
        },
        indent=None,
    )


def _assert_inert(text):
    assert "\x1b" not in text and "\x07" not in text and "\u202e" not in text and "\u200b" not in text


def test_scan_shows_escapes_from_a_session_and_its_file_name_never_sends_them(tmp_path, capsys):
    path = _hostile_session(tmp_path, f"odd{TITLE}.json")
    assert main(["scan", str(path)]) == 1
    out = capsys.readouterr().out
    _assert_inert(out)
    assert "save\\x1b]52;c;SGVsbG8=\\x07\\x1b]0;owned\\x07\\x1b[2J\\u202e\\u200b" in out
    assert "odd\\x1b]0;owned\\x07.json" in out


def test_json_output_keeps_the_exact_values_as_json_escapes(tmp_path, capsys):
    path = _hostile_session(tmp_path)
    main(["scan", "--json", str(path)])
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out  # JSON escapes them: \u001b
    tools = {finding["tool"] for finding in json.loads(out)["sessions"][0]["findings"]}
    assert HOSTILE_NAME in tools


def test_error_lines_show_a_file_name_escaped_on_one_line(tmp_path, capsys):
    missing = tmp_path / f"gone{CLEAR}\nforged line{OSC_52}.json"
    assert main(["scan", str(missing)]) == 2
    err = capsys.readouterr().err
    _assert_inert(err)
    assert err.count("\n") == 1 and "gone\\x1b[2J\\nforged line\\x1b]52;c;SGVsbG8=\\x07.json" in err


def test_fix_prints_paths_escaped(tmp_path, capsys):
    path = _hostile_session(tmp_path, f"odd{TITLE}.json")
    out = tmp_path / f"fixed{CLEAR}.json"
    assert main(["fix", str(path), "--accept", "all", "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    _assert_inert(printed)
    assert "wrote " in printed and "fixed\\x1b[2J.json" in printed


@pytest.mark.parametrize(
    "hidden, shown",
    [
        ("\u202e", "\\u202e"),
        ("\u2066", "\\u2066"),
        ("\u2069", "\\u2069"),
        ("\u200b", "\\u200b"),
        ("\u200d", "\\u200d"),
        ("\ufeff", "\\ufeff"),
        ("\x1b", "\\x1b"),
        ("\x9b", "\\x9b"),
        ("\x7f", "\\x7f"),
        ("\ud800", "\\ud800"),
    ],
)
def test_neutralise_shows_hidden_and_direction_characters(hidden, shown):
    assert neutralise(f"a{hidden}b") == f"a{shown}b"
    assert neutralise(neutralise(f"a{hidden}b")) == f"a{shown}b"
    assert neutralise("line\n\ttabbed é 日本") == "line\n\ttabbed é 日本"
