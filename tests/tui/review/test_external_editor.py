"""Handing a text to the person's editor: which editor, the temporary file, and what comes back,
with real editor processes (small scripts standing in for vi)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from inspector.tui.review.external_editor import FALLBACK, EditorFailed, edit_externally, editor_command


def script(tmp_path: Path, body: str) -> list[str]:
    """The command of an editor running `body` with `path` (the file) and `text` (its text) set;
    it logs the path it was given to `seen.log`."""
    editor = tmp_path / "editor.py"
    editor.write_text(
        f"import pathlib, sys\npath = pathlib.Path(sys.argv[-1])\n"
        f"pathlib.Path({str(tmp_path / 'seen.log')!r}).write_text(str(path))\n"
        f"text = path.read_text(encoding='utf-8')\n{body}\n",
        encoding="utf-8",
    )
    return [sys.executable, str(editor)]


def seen(tmp_path: Path) -> Path:
    return Path((tmp_path / "seen.log").read_text())


def test_visual_comes_before_editor_and_is_split_as_a_shell_would():
    both = {"VISUAL": f"'{sys.executable}' -u", "EDITOR": "nano"}
    assert editor_command(both) == [sys.executable, "-u"]
    assert editor_command({"VISUAL": "  ", "EDITOR": sys.executable}) == [sys.executable]


def test_without_a_variable_vi_is_the_editor():
    try:
        assert editor_command({}) == [FALLBACK]
    except EditorFailed as failure:  # a machine without vi says so
        assert str(failure) == "No vi found, which cannot be run: set $VISUAL or $EDITOR to your editor"


@pytest.mark.parametrize(
    ("environ", "said"),
    [
        ({"EDITOR": "/no/such/editor --wait"}, "$EDITOR names '/no/such/editor', which cannot be run"),
        ({"VISUAL": "'unclosed"}, "$VISUAL cannot be read (No closing quotation): the text is unchanged"),
    ],
)
def test_an_editor_that_cannot_be_run_is_one_line(environ, said):
    with pytest.raises(EditorFailed) as failure:
        editor_command(environ)
    assert str(failure.value).startswith(said) and "\n" not in str(failure.value)


def test_the_text_comes_back_as_edited_and_the_file_is_deleted(tmp_path: Path):
    argv = script(tmp_path, "path.write_text(text.upper() + '\\n', encoding='utf-8')")
    assert edit_externally("line one\nline twö", ".txt", argv) == "LINE ONE\nLINE TWÖ"  # vi's final newline dropped
    assert seen(tmp_path).suffix == ".txt" and not seen(tmp_path).exists() and not seen(tmp_path).parent.exists()
    assert edit_externally("ends with a newline\n", ".json", argv) == "ENDS WITH A NEWLINE\n\n"
    assert seen(tmp_path).suffix == ".json"


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ("sys.exit(1)", "The editor exited with status 1: the text is unchanged"),
        ("path.write_bytes(b'\\xff\\xfe not utf-8')", "The edited file is not UTF-8 text: the text is unchanged"),
        ("path.unlink()", "The editor left no file behind: the text is unchanged"),
    ],
)
def test_an_editor_that_fails_leaves_the_text_unchanged_and_no_file(tmp_path: Path, body: str, said: str):
    with pytest.raises(EditorFailed, match=said.replace("(", r"\(").replace(")", r"\)")):
        edit_externally("keep me", ".txt", script(tmp_path, body))
    assert not seen(tmp_path).parent.exists()


def test_a_program_that_cannot_start_is_one_line(tmp_path: Path):
    not_executable = tmp_path / "editor"
    not_executable.write_text("not a program")
    with pytest.raises(EditorFailed, match="cannot be run"):
        edit_externally("keep me", ".txt", [str(not_executable)])
