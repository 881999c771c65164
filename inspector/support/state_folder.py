"""The inspector's folder in the person's state directory: `$XDG_STATE_HOME/inspector`, by
default `~/.local/state/inspector`. What the inspector keeps between two runs lives there: the
hook's state (`hooks/`), the search index (`search.db`)."""

from __future__ import annotations

import os
from pathlib import Path


def inspector_state_folder() -> Path:
    """`$XDG_STATE_HOME/inspector` (an unset or empty variable: `~/.local/state/inspector`)."""
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "inspector"
