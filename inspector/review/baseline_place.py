"""Where a session's baseline (`inspector.review.baseline`) is kept: beside the session file or
history it is about, as `NAME.baseline.json`; for a session of OpenCode's JSON storage, beside the
storage folder, as `storage.ses_….json.baseline.json` (OpenCode reads every file of a project's
session folder as a session: one more file there stops it listing them). Apart from the baseline
itself, so that a scan looks for one without loading what reads it."""

from __future__ import annotations

from pathlib import Path

from inspector.sources.files.opencode_storage import is_storage_session, storage_folder

SUFFIX = ".baseline.json"


def baseline_path_for(session: Path) -> Path:
    """Where the baseline of the session file (or history) at `session` is kept: beside it, or
    beside its storage folder."""
    if is_storage_session(session):
        storage = storage_folder(session)
        return storage.with_name(f"{storage.name}.{session.name}{SUFFIX}")
    return session.with_name(session.name + SUFFIX)
