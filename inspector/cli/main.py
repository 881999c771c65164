"""The command line: `inspector scan`, `inspector fix`, `inspector undo`, `inspector report` (a report
to share, in HTML or Markdown, read as `scan` reads), `inspector hook` (the check inside an agent,
`inspector.cli.hook_command`), `inspector watch` (following the newest session as it is written),
`inspector mcp` (the MCP server, `inspector.cli.mcp_command`), `inspector search` (words and
findings across every session, `inspector.cli.search_command`), and `inspector [PATH]`, which opens
the app. Each command is a module of its own (`inspector.cli.commands`), imported only when it runs.

With no path, `inspector` and `inspector scan` take the person's own sessions, found where each
agent keeps them (`inspector.sources.discovery`). When there are
none, the app opens the bundled samples and says so, and `scan` says where it looked (one line on
stderr) and exits 0: nothing was found. `--samples` takes the bundled samples on purpose.

Exit codes (`inspector.cli.exit_codes`): `scan` exits 0 when nothing is found and 1 when something
is; `report` 0 once written; `fix` 0 once written with no finding left in it, 1 with findings left;
2 on an error (one line on stderr, never a traceback).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Collection, Sequence
from importlib import import_module
from typing import NoReturn

from inspector import __version__
from inspector.cli.commands import COMMAND_LINES
from inspector.cli.error_line import say_error
from inspector.cli.exit_codes import COMMANDS, FAILED
from inspector.cli.suggest import OneLineParser, did_you_mean, missing_file_hint
from inspector.errors import InspectorError
from inspector.support import quick_exit


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line and return its exit code."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    if not arguments or (arguments[0] not in COMMANDS and arguments[0] not in ("-h", "--help", "--version")):
        if arguments and _mistyped_command(arguments[0]):
            say_error(f"{arguments[0]}: no such command or file{did_you_mean(arguments[0], COMMANDS)}")
            return FAILED
        from inspector.cli.open_app import open_app  # the app's options load what it reads

        try:
            return open_app(arguments)
        except InspectorError as error:
            say_error(str(error))
            return FAILED
    parser = build_parser([arguments[0]] if arguments[0] in COMMANDS else [])
    args = parser.parse_command_line(arguments)
    try:
        return int(args.run(args))
    except InspectorError as error:
        say_error(str(error) + _hint(args))
        return FAILED
    except KeyboardInterrupt:
        say_error("interrupted")
        return FAILED
    except BrokenPipeError:
        return FAILED


def run() -> NoReturn:
    """The command line's entry point: `main`, then the process ends (at once when a scan holds the
    large session it read: `quick_exit`)."""
    quick_exit.arm()
    quick_exit.leave(main())


def _mistyped_command(word: str) -> bool:
    """Whether `word`, given where a command or the app's path goes, is a command mistyped: close to
    one, and neither an option, a file nor a server's URL."""
    if word.startswith("-") or "://" in word or did_you_mean(word, COMMANDS) == "":
        return False
    try:
        return not os.path.lexists(word)
    except ValueError:  # a NUL in it: no file's name
        return False


def build_parser(built: Collection[str] = COMMANDS) -> OneLineParser:
    """The parser of the commands (`scan`, `report`, `fix`, `undo`, `hook`, `watch`, `mcp`); the
    app has its own (`open_app`). Only the commands in `built` get their options (and their
    modules imported); the others keep their line in `--help`."""
    parser = OneLineParser(
        prog="inspector",
        description="Find and repair broken LLM tool calls in agent sessions.",
        epilog="inspector [PATH] opens the app on a session file, a directory of them "
        "or a database (a PostgreSQL one by its URL) (default: your own sessions, where each agent keeps them; "
        "--samples: the bundled samples); it also takes --session ID, "
        "--execute CMD, and scan's --tools FILE, --format NAME and "
        "--table T --map ... for a database's own table.",
    )
    parser.add_argument("--version", action="version", version=f"inspector {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, command_line in COMMAND_LINES.items():
        if name in built:
            import_module(command_line.module).add_command(commands)
        else:
            commands.add_parser(name, help=command_line.summary)
    return parser


def _hint(args: argparse.Namespace) -> str:
    """For an error of a command given one file that is not there (`fix`, `undo`): the closest
    file beside it, if any."""
    given = getattr(args, "path", None) or getattr(args, "target", None)
    return missing_file_hint(given)
