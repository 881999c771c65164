"""The one line every error of the command line is: `inspector: error: ...` on stderr."""

from __future__ import annotations

import sys

from inspector.support.safe_text import one_line


def say_error(message: str) -> None:
    """Print one error line; what it quotes from a session or a file name is shown, never obeyed."""
    print(f"inspector: error: {one_line(message)}", file=sys.stderr)
