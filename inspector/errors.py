"""The one exception the command line turns into a one-line message and exit code 2
(`inspector.cli.exit_codes`)."""

from __future__ import annotations

from collections.abc import Sequence


class InspectorError(Exception):
    """A problem with the user's input or files, worded to be shown as it is, on one line."""


def check_session_found(session: str | None, found: Sequence[object], paths: Sequence[object]) -> None:
    """Fail when `--session ID` was given and no session of `paths` (files, or databases on a
    server) has that id."""
    if session is not None and not found:
        raise InspectorError(f"no session {session!r} in {', '.join(map(str, paths))}")
