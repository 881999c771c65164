"""The Textual interface: a picker of sessions and a screen to review each finding.

It only composes the core (`inspector.review`, `inspector.preview`, `inspector.edits`); the core
never imports it, and the command line imports it only when the app is asked for.
"""

from __future__ import annotations

from pathlib import Path


def run(target: Path, execute: str | None = None) -> int:
    """Open the app on a session file or a directory of them; return the exit code. `execute` is
    the executor command that approved recovered calls may be run through (never without it).

    Raises `InspectorError` (one line) when a directory holds no session file.
    """
    from inspector.tui.app import InspectorApp

    InspectorApp(target, execute).run()
    return 0
