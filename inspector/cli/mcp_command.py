"""`inspector mcp`: serve the MCP server (`inspector.mcp_server`) over stdio, for an agent to check
its own replies and a person to ask their agent about their sessions. The MCP SDK is the `mcp`
extra: without it, one line says how to install it."""

from __future__ import annotations

import argparse
from typing import Any

from inspector.cli.commands import summary
from inspector.cli.exit_codes import FOUND_NOTHING, epilog
from inspector.errors import InspectorError

INSTALL = "pip install 'inspector[mcp]'"


def add_command(commands: argparse._SubParsersAction[Any]) -> None:
    """Add `mcp` to the command line's `commands`."""
    mcp = commands.add_parser(
        "mcp",
        help=summary("mcp"),
        epilog=epilog("mcp"),
    )
    mcp.set_defaults(run=_run)


def _run(args: argparse.Namespace) -> int:
    try:
        from inspector.mcp_server.server import serve  # the MCP SDK, loaded only here
    except ModuleNotFoundError as missing:
        if missing.name is None or not missing.name.startswith("mcp"):
            raise
        raise InspectorError(f"the MCP server needs the MCP SDK: {INSTALL}") from None
    serve()
    return FOUND_NOTHING
