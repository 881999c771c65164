"""The options that say how to read one input, the same for `scan`, `fix` and the app: extra tool
definitions, a format, a database's own table; and the check that they come with that input."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from inspector.cli.suggest import one_of
from inspector.errors import InspectorError
from inspector.sources import format_names


def add_reading_options(parser: argparse.ArgumentParser) -> None:
    """How to read the input, the same for `scan`, `fix` and the app: extra tool definitions,
    a format, a database's own table."""
    parser.add_argument(
        "--tools",
        type=Path,
        metavar="FILE",
        help="tool definitions to check against (OpenAI, Anthropic, Gemini or MCP shape)",
    )
    parser.add_argument(
        "--format",
        type=one_of(format_names(), "format"),
        metavar="NAME",
        help=f"read the input as this format instead of detecting it: {', '.join(format_names())}",
    )
    parser.add_argument("--table", metavar="T", help="read this database table of chat messages (with --map)")
    parser.add_argument(
        "--map",
        metavar="role=COL,content=COL[,id=COL,session=COL,order=COL]",
        help="which columns of --table hold each message's role, content, id, conversation and order",
    )


def need_a_path(args: argparse.Namespace, options: Sequence[str]) -> None:
    """Fail when one of `options`, which are about one file or database, comes without its path."""
    given = [f"--{option}" for option in options if getattr(args, option) is not None]
    if given:
        raise InspectorError(f"{' and '.join(given)} can only be used with the path of a file or database")
