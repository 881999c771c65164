"""Where a session's baseline (`inspector.review.baseline`) is kept: beside the session file or
history it is about, as `NAME.baseline.json`. Apart from the baseline itself, so that a scan
looks for one without loading what reads it."""

from __future__ import annotations

from pathlib import Path

SUFFIX = ".baseline.json"


def baseline_path_for(session: Path) -> Path:
    """Where the baseline of the session file (or history) at `session` is kept: beside it."""
    return session.with_name(session.name + SUFFIX)
