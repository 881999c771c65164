"""`inspector [PATH]`: the app, on a session file or directory, a database, the bundled samples, or
the person's own sessions found where their agents keep them (the samples, with a notice, when
there are none). Its errors are raised, and `main` prints them as every command's: one line, exit 2.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from inspector.cli.exit_codes import APP, COMMANDS, epilog
from inspector.cli.reading_options import add_reading_options, need_a_path
from inspector.cli.suggest import OneLineParser, missing_file_hint
from inspector.errors import InspectorError
from inspector.model import Location
from inspector.sources import location
from inspector.sources.schemas.table import parse_map
from inspector.support.safe_text import shown_name
from inspector.support.tools_file import load_tools_file

if TYPE_CHECKING:
    import argparse

    from inspector.sources.discovery import FoundSession


def open_app(arguments: list[str]) -> int:
    """Open the TUI on a session file or directory, or a PostgreSQL database by its URL (by default
    the person's own sessions, else the bundled samples; `--samples`: the samples); `--execute CMD`
    lets the person run approved recovered calls through CMD; `--session ID` opens that session (a
    database's conversation) of the file straight away. The options that say how to read the input
    are `scan`'s, with its errors: `--tools FILE` (checked against in the review), `--format NAME`,
    and `--table T --map ...` to read a database's conversations from that table."""
    parser = OneLineParser(
        prog="inspector",
        usage="inspector [PATH | URL | --samples] [--follow] [--session ID] "
        "[--execute CMD] [--tools FILE] [--format NAME] "
        "[--table T --map role=COL,content=COL[,id=COL,session=COL,order=COL]]",
        epilog=epilog(APP),
    )
    parser.add_argument(
        "paths",
        nargs="*",
        type=location,
        metavar="PATH",
        help="a session file, a directory of them, an SQLite history, or a PostgreSQL database's "
        "URL (postgresql://USER@HOST:PORT/DB) (default: your own sessions, "
        "found where each agent keeps them, newest first; the samples when there are none)",
    )
    parser.add_argument("--samples", action="store_true", help="open the bundled sample sessions")
    parser.add_argument(
        "--execute", metavar="CMD", help="let the X key run an approved fix's recovered calls through CMD"
    )
    parser.add_argument("--session", metavar="ID", help="open the session (conversation) with this id straight away")
    parser.add_argument(
        "--follow",
        action="store_true",
        help="show the turns an agent appends to the session file PATH as it writes them, scanned as they land",
    )
    add_reading_options(parser)
    args = parser.parse_args(arguments)
    if len(args.paths) > 1:
        raise InspectorError(f"give one session file or directory to open (or a command: {', '.join(COMMANDS)})")
    target, found, notice = _app_target(args)
    if isinstance(target, Path) and not target.exists():
        raise InspectorError(
            f"{shown_name(target)}: no such file or directory{missing_file_hint(target)}"
            if args.paths
            else f"{shown_name(target)}: the bundled sample sessions are missing; give a session file or directory"
        )
    if isinstance(target, Path) and not (target.is_file() or target.is_dir()):
        raise InspectorError(
            f"{shown_name(target)}: a pipe or a device, not a file or folder the app can open: save what it "
            "holds to a file and open that (inspector scan reads it as it is)"
        )
    if args.session is not None and isinstance(target, Path) and not target.is_file():
        raise InspectorError(
            f"{shown_name(target)}: --session ID opens a session of one file or database, not of a directory"
        )
    if args.follow and not (isinstance(target, Path) and target.is_file() and args.paths):
        raise InspectorError("--follow follows one session file: give its path")
    if args.execute is not None:
        from inspector.repair.execute import check_command  # only the app and `fix` run recovered calls

        check_command(args.execute)
    mapping = parse_map(args.map) if args.map is not None else None
    extra = tuple(load_tools_file(args.tools)) if args.tools else ()
    from inspector.tui import run  # imported here so that `scan` and `fix` never load Textual
    from inspector.tui.conversations import ReadOptions

    reading = ReadOptions(args.table, mapping, args.format, extra)
    return run(target, args.execute, args.session, reading, found, notice, args.follow)


def _app_target(args: argparse.Namespace) -> tuple[Location | None, list[FoundSession], str]:
    """What the app opens: the path given, the samples (`--samples`, or when the person has no
    sessions: then with a notice saying so), or None and the person's sessions found."""
    if args.samples and args.paths:
        raise InspectorError("give a path or --samples, not both")
    if args.paths:
        return args.paths[0], [], ""
    from inspector.sources.discovery import SAMPLES, discover, places, shown_places  # only without a path

    if not args.samples:
        need_a_path(args, ("session", "format", "table", "map"))  # the sessions found are in several formats
        found = discover()
        if found:
            return None, found, ""
        return (
            SAMPLES,
            [],
            f"These are the bundled samples: no sessions of your own were found ({shown_places(places())})",
        )
    return SAMPLES, [], ""
