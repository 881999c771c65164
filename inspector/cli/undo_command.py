"""`inspector undo TARGET [--fix ID | --since TIME] [--allow-triggers]`: revert fixes recorded in a
database's own audit (an SQLite history, or a PostgreSQL database by its URL): the fix `ID`, every fix applied since
`TIME`, or else the last `fix`'s; each with the fixes written with it to the same conversation.
A row changed since the fix is refused, and nothing is undone (see `inspector.sources.sql.undo`);
so is a database whose own triggers would run on what undo writes, unless `--allow-triggers`.
Given a session file, it puts back the file as it was before its last `fix --in-place`, while the
file is still as that fix wrote it (`inspector.sources.files.file_undo`); given a session of
OpenCode's older storage, the session's files (`inspector.sources.files.record_files_undo`).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from inspector.cli.commands import summary
from inspector.cli.exit_codes import FOUND_NOTHING, epilog
from inspector.errors import InspectorError
from inspector.model import ServerUrl
from inspector.sources import location
from inspector.sources.files.file_undo import undo_last_write
from inspector.sources.files.record_files_undo import session_to_name
from inspector.sources.location import is_database
from inspector.sources.postgres.undo import undo_on_server
from inspector.sources.sql.undo import since_time
from inspector.sources.sqlite.undo import undo_in_file
from inspector.support.safe_text import one_line, shown_name

SHOWN = 10  # fix ids named in the line saying what was undone


def add_command(commands: argparse._SubParsersAction[Any]) -> None:
    """Add `undo` to the command line's `commands`."""
    undo = commands.add_parser("undo", help=summary("undo"), epilog=epilog("undo"))
    undo.add_argument(
        "target",
        type=location,
        metavar="TARGET",
        help="an SQLite history, a PostgreSQL database's URL, or a session file fixed in place",
    )
    which = undo.add_mutually_exclusive_group()
    which.add_argument(
        "--fix",
        type=int,
        metavar="ID",
        help="the fix with this id in inspector_fixes (and those written "
        "with it to the same conversation); default: the last fix's",
    )
    which.add_argument("--since", metavar="TIME", help="every fix applied since TIME (ISO 8601, UTC unless it says)")
    undo.add_argument(
        "--allow-triggers", action="store_true", help="let the database's own triggers run on what the undo writes"
    )
    undo.set_defaults(run=run_undo)


def run_undo(args: argparse.Namespace) -> int:
    """Undo the fixes the options name; exit 0 once undone (2, through `InspectorError`, when not)."""
    since = since_time(args.since) if args.since is not None else None
    target = args.target
    if isinstance(target, ServerUrl):
        done = undo_on_server(target, args.fix, since, args.allow_triggers)
    elif (storage_said := session_to_name(target)) is not None:
        raise InspectorError(storage_said)
    elif _is_session_file(target):
        return _undo_in_a_session_file(target, args)
    else:
        done = undo_in_file(target, args.fix, since, args.allow_triggers)
    several = len(done.fixes) != 1
    named = ", ".join(map(str, done.fixes[:SHOWN])) + (
        f", ... ({len(done.fixes)} fixes)" if len(done.fixes) > SHOWN else ""
    )
    print(
        one_line(
            f"{shown_name(target)}: undid fix{'es' if several else ''} {named} in "
            f"{done.conversations} conversation{'s' if done.conversations != 1 else ''} "
            f"({done.rows} row{'s' if done.rows != 1 else ''} put back)"
        )
    )
    print("audit: the undo is recorded in table inspector_fixes (kind undo), its rows in inspector_changes")
    return FOUND_NOTHING


def _undo_in_a_session_file(path: Path, args: argparse.Namespace) -> int:
    """Undo the last `fix --in-place` of a session file (`file_undo`), saying what was put back."""
    if args.fix is not None or args.since is not None:
        raise InspectorError(
            f"{shown_name(path)}: a session file's fixes are undone a whole fix --in-place at a time, the last "
            "first (--fix and --since name a database's fixes)"
        )
    done = undo_last_write(path)
    several = "es" if done.fixes != 1 else ""
    print(
        one_line(
            f"{shown_name(path)}: undid the fix --in-place of {done.applied_at} ({done.fixes} "
            f"fix{several}): put back {shown_name(done.restored)}, its copy from before"
        )
    )
    print(one_line(f"kept: {shown_name(done.kept)} (as that fix wrote it)"))
    print(one_line(f"audit: the undo is recorded in {shown_name(done.audit)}"))
    return FOUND_NOTHING


def _is_session_file(path: Path) -> bool:
    """Whether `path` is a file undo reads as a session file: a regular file that is no database
    (a path that is no file is left to the database's own checks to word)."""
    return path.is_file() and path.stat().st_size > 0 and not is_database(path)
