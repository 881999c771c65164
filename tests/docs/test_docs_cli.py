"""`docs/cli.md` describes the command line the parser builds: a section for every command, every
option of it named in its section, and none named there that the command does not take."""

from __future__ import annotations

import argparse
import re

import pytest

from inspector.cli.main import build_parser, main
from tests.helpers.markdown_pages import page, section


def commands() -> dict[str, argparse.ArgumentParser]:
    """Each command's name and its own parser, as `inspector --help` lists them."""
    (subparsers,) = [action for action in build_parser()._actions if isinstance(action, argparse._SubParsersAction)]
    return dict(subparsers.choices)


def taken(parser: argparse.ArgumentParser) -> set[str]:
    """Every option string a parser takes (`-o`, `--output`, ...), and the metavar of each positional
    argument; a command with actions of its own (`hook install`) takes theirs too."""
    names: set[str] = set()
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        names |= set(action.option_strings) if action.option_strings else {action.metavar or action.dest}
        if isinstance(action, argparse._SubParsersAction):
            names |= {name for sub in action.choices.values() for name in taken(sub)}
    return names


def named(text: str) -> set[str]:
    """The options a section names in backticks (`--jobs N` names `--jobs`)."""
    return {
        match for code in re.findall(r"`([^`]+)`", text) for match in re.findall(r"(?<![\w-])--?[a-z][a-z-]*", code)
    }


def test_the_command_list_is_the_one_documented():
    assert sorted(commands()) == ["fix", "hook", "mcp", "report", "scan", "search", "undo", "watch"]


@pytest.mark.parametrize("name", sorted(commands()))
def test_each_command_has_a_section_naming_every_option_it_takes(name):
    text = section(page("cli.md"), f"inspector {name}")
    options = taken(commands()[name])
    assert [option for option in sorted(options) if not re.search(rf"`[^`]*{re.escape(option)}\b", text)] == []
    assert named(text) - options - {"-"} == set(), "options named that the command does not take"


def app_options(capsys) -> set[str]:
    """The options of the app, as its `--help` lists them."""
    with pytest.raises(SystemExit):
        main(["--samples", "--help"])
    listed = capsys.readouterr().out.split("options:")[1]
    return set(re.findall(r"(?<![\w-])--?[a-z][a-z-]*", listed)) - {"-h", "--help"}


def test_the_app_has_a_section_naming_every_option_it_takes(capsys):
    text = section(page("cli.md"), "inspector [PATH]")
    options = app_options(capsys)
    assert options >= {"--samples", "--session", "--execute", "--tools", "--format", "--table", "--map"}
    assert [option for option in sorted(options) if f"`{option}" not in text] == []
    assert "`PATH`" in text
