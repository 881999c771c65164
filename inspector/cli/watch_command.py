"""`inspector watch`: follow the person's most recent session of any agent as it is written (the
newest session file where the agents keep them, opened as `inspector --follow PATH` opens one)."""

from __future__ import annotations

import argparse
from typing import Any

from inspector.cli.commands import summary
from inspector.cli.exit_codes import epilog
from inspector.errors import InspectorError


def add_command(commands: argparse._SubParsersAction[Any]) -> None:
    """Add `watch` to the command line's `commands`."""
    watch = commands.add_parser(
        "watch",
        help=summary("watch"),
        epilog=epilog("watch"),
    )
    watch.set_defaults(run=_run)


def _run(args: argparse.Namespace) -> int:
    from inspector.cli.open_app import open_app
    from inspector.sources.discovery import agent_named, discover, places, shown_places

    found = [session for session in discover() if not agent_named(session.tool).history and session.path.is_file()]
    if not found:
        raise InspectorError(f"no session file of your own to follow ({shown_places(places())}): give one to --follow")
    return open_app([str(found[0].path), "--follow"])
