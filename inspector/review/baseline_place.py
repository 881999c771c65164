"""Where a session's baseline (`inspector.review.baseline`) is kept: beside the session file or
history it is about, as `NAME.baseline.ndjson`; for a session of OpenCode's JSON storage, beside
the storage folder, as `storage.ses_….json.baseline.ndjson` (OpenCode reads every file of a
project's session folder as a session: one more file there stops it listing them).

Not `.json`: Gemini CLI's session cleanup deletes the old files of its chats folder whose names
start as its sessions' and end in `.json` or `.jsonl`, and other agents list their sessions by
those endings. A baseline an earlier version wrote as `NAME.baseline.json` is still read.
Apart from the baseline itself, so that a scan looks for one without loading what reads it."""

from __future__ import annotations

from pathlib import Path

from inspector.sources.files.opencode_storage import is_storage_session, storage_folder

SUFFIX = ".baseline.ndjson"
EARLIER_SUFFIX = ".baseline.json"


def baseline_path_for(session: Path, suffix: str = SUFFIX) -> Path:
    """Where the baseline of the session file (or history) at `session` is kept: beside it, or
    beside its storage folder (`suffix`: `EARLIER_SUFFIX` for where an earlier version kept it)."""
    if is_storage_session(session):
        storage = storage_folder(session)
        return storage.with_name(f"{storage.name}.{session.name}{suffix}")
    return session.with_name(session.name + suffix)


def existing_baseline_for(session: Path) -> Path | None:
    """The baseline kept beside the session file at `session`, under its name or the earlier one;
    None when there is none."""
    for suffix in (SUFFIX, EARLIER_SUFFIX):
        if (path := baseline_path_for(session, suffix)).is_file():
            return path
    return None
