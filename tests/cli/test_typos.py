"""A newcomer's typos get one line naming what was meant: a command (`inspector scna`), a format's
name (`--format claude_code`, `--to opena`), a kind (`--accept result-prefx`, `search --kind
tool-markpu`: not an empty search), an option of the command (`fix --acept`, pointing to that
command's help); and `fix` without `--accept` says in one line what to add, naming the kinds
found, never the usage block."""

import shutil

import pytest

from inspector.cli.main import main
from tests.helpers.samples import SESSIONS


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        (["scna", "x"], "scna: no such command or file; did you mean scan?"),
        (["repotr"], "repotr: no such command or file; did you mean report?"),
        (["scan", "x", "--format", "claude_code"], "unknown format 'claude_code'; did you mean claude-code?"),
        (
            ["fix", "x", "--accept", "all", "--to", "opena", "-o", "y"],
            "unknown format to write 'opena'; did you mean openai?",
        ),
        (["scan", "x", "--engine", "sprk"], "unknown engine 'sprk'; did you mean spark?"),
        (["search", "", "--kind", "tool-markpu"], "unknown finding kind 'tool-markpu'; did you mean tool-markup?"),
        (["search", "", "--agent", "claude cod"], "unknown agent or format 'claude cod'; did you mean Claude Code?"),
        (["x", "--format", "gemini_cli"], "unknown format 'gemini_cli'; did you mean gemini-cli?"),
        (
            ["fix", "x", "--acept", "all", "-o", "y"],
            "unrecognized arguments: --acept all; did you mean --accept? (see inspector fix --help)",
        ),
        (["scan", "x", "--jsno"], "unrecognized arguments: --jsno; did you mean --json? (see inspector scan --help)"),
        (["report", "x", "--zzz"], "unrecognized arguments: --zzz (see inspector report --help)"),
        (
            ["hook", "install", "--usr"],
            "unrecognized arguments: --usr; did you mean --user? (see inspector hook install --help)",
        ),
    ],
)
def test_a_typo_is_one_line_saying_what_was_meant(arguments, said, capsys):
    assert _exit_code(arguments) == 2
    err = capsys.readouterr().err
    assert said in err and err.count("\n") == 1 and "usage" not in err


def _exit_code(arguments: list[str]) -> object:
    """What `inspector ARGUMENTS` exits with, whether `main` returns it or its parser exits."""
    try:
        return main(arguments)
    except SystemExit as stop:
        return stop.code


def test_a_file_named_like_a_command_opens_as_a_file(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    shutil.copy(SESSIONS / "memory-agent.openai.json", tmp_path / "scna")
    assert main(["scna", "x"]) == 2  # a path: the app takes one
    assert "did you mean" not in capsys.readouterr().err


def test_an_unknown_kind_says_the_closest(tmp_path, capsys):
    source = SESSIONS / "memory-agent.openai.json"
    assert main(["fix", str(source), "--accept", "result-prefx", "-o", str(tmp_path / "out.json")]) == 2
    assert "unknown kind result-prefx; did you mean result-prefix?" in capsys.readouterr().err


def test_fix_without_accept_is_one_line_naming_the_kinds_found(tmp_path, capsys):
    source = SESSIONS / "memory-agent.openai.json"
    assert main(["fix", str(source), "-o", str(tmp_path / "out.json")]) == 2
    err = capsys.readouterr().err
    assert err == "inspector: error: fix: add --accept KINDS ('all', or some of the kinds found: result-prefix 6)\n"
    assert main(["fix", str(source)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "result-prefix 6" in err and err.endswith(" and -o OUT or --in-place\n")
    assert main(["fix", str(source), "--accept", "all"]) == 2
    assert (
        capsys.readouterr().err
        == "inspector: error: fix: add -o OUT or --in-place: where to write the repaired sessions\n"
    )
    assert list(tmp_path.iterdir()) == []


def test_a_mistyped_file_name_or_extension_names_the_closest_file_beside_it(tmp_path, capsys):
    session = shutil.copy(SESSIONS / "memory-agent.openai.json", tmp_path / "session.json")
    typed = str(tmp_path / "session.jsn")
    for arguments in (
        ["scan", typed],
        ["report", typed, "--html", str(tmp_path / "r.html")],
        ["fix", typed, "--accept", "all", "-o", str(tmp_path / "out.json")],
        ["undo", typed],
        [typed],
    ):
        assert main(arguments) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.endswith(f"; did you mean {session}?\n"), (arguments, err)
    assert main(["scan", str(tmp_path / "unrelated.db")]) == 2
    assert "did you mean" not in capsys.readouterr().err
    assert sorted(path.name for path in tmp_path.iterdir()) == ["session.json"]
