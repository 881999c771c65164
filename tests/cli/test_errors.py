"""Bad input: one clear line on stderr naming the file, exit 2, no traceback, input untouched."""

import json

import pytest

from inspector.cli.main import main


def _run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _one_line_error(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    assert lines[0].startswith("inspector: error: ")
    return lines[0]


@pytest.mark.parametrize(
    "name, content, expected",
    [
        ("empty.json", b"", "file is empty"),
        ("blank.json", b"  \n\n", "file is empty"),
        ("truncated.json", b'{"messages": [{"role": "user", "content": "hi"}', "line 1 column"),
        (
            "unknown.json",
            b'{"rows": [1, 2, 3], "count": 3}',
            "not a recognised session format (an object with keys: rows, count)",
        ),
        ("number.json", b"42", "not a recognised session format (a JSON number)"),
        ("null.json", b"null", "not a recognised session format (a JSON null)"),
        ("boolean.json", b"true", "not a recognised session format (a JSON boolean)"),
        ("note.txt", b"hello\n", "not a recognised session format (text of 1 line)"),
        ("two.jsonl", b'{"a": 1}\n{"a": 2}\n', "not a recognised session format (JSON Lines of 2 records)"),
        ("binary.json", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary file"),
        ("latin1.json", '{"messages": "caf\xe9"}'.encode("latin-1"), "not UTF-8"),
    ],
)
def test_bad_files(tmp_path, capsys, name, content, expected):
    path = tmp_path / name
    path.write_bytes(content)
    code, out, err = _run(capsys, "scan", str(path))
    assert code == 2
    line = _one_line_error(err)
    assert str(path) in line and expected in line
    assert path.read_bytes() == content


def test_truncated_json_names_line_and_column(tmp_path, capsys):
    path = tmp_path / "cut.json"
    path.write_text('{\n  "messages": [\n    {"role": "user", "content": "hi"},\n    {"role": "assis', encoding="utf-8")
    code, _, err = _run(capsys, "scan", str(path))
    assert code == 2 and "line 4 column" in _one_line_error(err)


def test_truncated_json_says_what_is_wrong_in_words(tmp_path, capsys):
    path = tmp_path / "cut.json"
    path.write_text('{"messages": [{"role": "user", "content": "hi', encoding="utf-8")
    code, _, err = _run(capsys, "scan", str(path))
    assert code == 2 and _one_line_error(err).endswith("line 1 column 43: invalid JSON (Unterminated string)")


def test_a_session_of_one_turn_is_counted_in_the_singular(tmp_path, capsys):
    path = tmp_path / "one.json"
    path.write_text('{"messages": [{"role": "user", "content": "hi"}]}', encoding="utf-8")
    code, out, _ = _run(capsys, "scan", str(path))
    assert code == 0 and "(openai, 1 turn, 0 findings)" in out and "1 session, 1 turn, 0 findings" in out


def test_missing_file(tmp_path, capsys):
    code, _, err = _run(capsys, "scan", str(tmp_path / "nope.json"))
    assert code == 2 and "nope.json: no such file" in _one_line_error(err)


def test_directory_without_session_files(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("hello")
    code, _, err = _run(capsys, "scan", str(tmp_path))
    assert code == 2 and "no session files" in _one_line_error(err)


def test_directory_where_nothing_loads_reports_each_file(tmp_path, capsys):
    (tmp_path / "a.json").write_text("")
    (tmp_path / "b.json").write_text("[1, 2")
    code, out, err = _run(capsys, "scan", str(tmp_path))
    assert code == 2
    assert "a.json: file is empty" in err and "b.json: line 1" in err
    assert "Traceback" not in err


def test_fix_refuses_to_overwrite_its_input_without_in_place(write_session, capsys):
    path = write_session([{"role": "user", "content": "hi"}])
    before = path.read_bytes()
    code, _, err = _run(capsys, "fix", str(path), "--accept", "all", "-o", str(path))
    assert code == 2 and "--in-place" in _one_line_error(err)
    assert path.read_bytes() == before


def test_fix_with_an_unknown_kind(write_session, capsys):
    path = write_session([{"role": "user", "content": "hi"}])
    code, _, err = _run(capsys, "fix", str(path), "--accept", "everything", "-o", str(path) + ".out")
    assert code == 2 and "unknown kind everything" in _one_line_error(err)


def test_tools_file_errors(write_session, tmp_path, capsys):
    path = write_session([{"role": "user", "content": "hi"}])
    tools = tmp_path / "tools.json"
    tools.write_text(json.dumps({"nothing": "here"}))
    code, _, err = _run(capsys, "scan", str(path), "--tools", str(tools))
    assert code == 2 and "no tool definitions found" in _one_line_error(err)
    code, _, err = _run(capsys, "scan", str(path), "--tools", str(tmp_path / "missing.json"))
    assert code == 2 and "no such tools file" in _one_line_error(err)


def test_forced_format_that_does_not_fit(write_session, capsys):
    path = write_session([{"role": "user", "content": "hi"}])
    code, _, err = _run(capsys, "scan", str(path), "--format", "gemini")
    assert code == 2 and "does not have the shape of the gemini format" in _one_line_error(err)


def test_fix_into_a_missing_directory_fails_cleanly(write_session, tmp_path, capsys):
    path = write_session([{"role": "user", "content": "hi"}])
    code, _, err = _run(capsys, "fix", str(path), "--accept", "all", "-o", str(tmp_path / "no" / "out.json"))
    assert code == 2 and "cannot write" in _one_line_error(err)


@pytest.mark.parametrize(
    "document",
    [
        {
            "messages": [
                {"role": "user", "content": "hi"},
                {"role": "assistant", "content": [{"type": ["text"], "text": 1}]},
            ]
        },
        {"system": "s", "messages": [{"role": "user", "content": [{"type": {"x": 1}}]}]},
        {"contents": [{"role": ["model"], "parts": [{"text": "hi"}]}]},
        {"session_id": "s", "entries": [{"role": "assistant", "content": "x", "tool_calls": "not a list"}]},
    ],
)
def test_records_of_unforeseen_shapes_never_crash(tmp_path, capsys, document):
    path = tmp_path / "odd.json"
    path.write_text(json.dumps(document))
    code, out, err = _run(capsys, "scan", str(path))
    assert code in (0, 1, 2)
    assert "Traceback" not in err
    if code == 2:
        _one_line_error(err)


@pytest.mark.parametrize("command", [["scan"], ["report", "--markdown", "-"]], ids=["scan", "report"])
def test_a_tools_file_s_odd_name_is_quoted_in_its_error(write_session, tmp_path, capsys, command):
    path = write_session([{"role": "user", "content": "hi"}])
    tools = tmp_path / "tools\n\x1b[2Jforged: 0 findings.json"
    tools.write_text("[1, 2")
    code, _, err = _run(capsys, *command, str(path), "--tools", str(tools))
    line = _one_line_error(err)
    assert code == 2 and "\x1b" not in err
    assert f'"{tmp_path}/tools\\n\\x1b[2Jforged: 0 findings.json": line 1 column' in line
