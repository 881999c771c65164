"""What the record files of a session kept as one file per record (OpenCode's older storage:
`opencode_storage`) were when the session was read, to tell, just before a repair replaces any of
them in place, whether OpenCode wrote the session since.

OpenCode writes a session's records while it runs: a part file saved again at each step of a
reply, a new part or message file added. A repair built from what was read and written over them
would drop those writes or leave the session half old, half new. So the storage is written in
place only while every record file of the session is still as read (`file_state`: the same file,
size and modification time) and its folders list no other record file; else the write is refused
in one line naming the first file that changed, and nothing is written.

A session read once may be written in place more than once (the app exports over its input
again): each write is of the session as read with its own repairs, as a session file is rewritten
whole from what was read. So the files an earlier write from the same read changed are kept as
they were read (`replaced`), to be put back by the next write unless it writes them again, and a
file it added to be removed: a call recovered twice would otherwise be two parts.
"""

from __future__ import annotations

from pathlib import Path

from inspector.sources.files.file_state import ChangedSinceRead, FileState, state_of
from inspector.sources.files.opencode_storage import record_files, storage_folder
from inspector.support.safe_text import shown_name

Written = dict[str, bytes | None]  # record files by their path in the storage: their bytes (None: no such file)


class RecordFilesAsRead:
    """The record files of one session (`record_files`) as its session was read, or as this
    inspector last wrote them in place: each one's state, by path; and the bytes as read of each
    file an in-place write from this read changed (`replaced`, None for a file it added)."""

    def __init__(self, session_file: Path, states: dict[Path, FileState | None]) -> None:
        self.session_file = Path(session_file)
        self.storage = storage_folder(self.session_file)
        self.states = states  # as `read_storage_session` took them, reading the session
        self.replaced: Written = {}

    def text_as_read(self, path: Path) -> str | None:
        """The text of the record file at `path` as the session was read; None for a file an
        in-place write from this read added."""
        name = path.relative_to(self.storage).as_posix()
        data = self.replaced[name] if name in self.replaced else path.read_bytes()
        return None if data is None else data.decode("utf-8", errors="surrogateescape")

    def wrote(self, written: Written, before: Written) -> None:
        """Note an in-place write of the files `written`, which held `before`, and take the files
        as they are now: writing them again from the same read is no change of OpenCode's."""
        for name, data in written.items():
            as_read = self.replaced[name] if name in self.replaced else before[name]
            if data == as_read:
                self.replaced.pop(name, None)
            else:
                self.replaced[name] = as_read
        self.states = {path: state_of(path) for path in record_files(self.session_file)}

    def check(self) -> None:
        """Refuse in one line (`ChangedSinceRead`) when a record file of the session was added,
        removed, written or replaced since it was read."""
        listed = record_files(self.session_file)
        for path in listed:
            if path not in self.states:
                _refuse(path, "added")
        now = set(listed)
        for path, state in self.states.items():
            if path not in now:
                _refuse(path, "removed")
            if state_of(path) != state:
                _refuse(path, "written")


def _refuse(path: Path, what: str) -> None:
    raise ChangedSinceRead(
        f"{shown_name(path)}: {what} since the session was read (is OpenCode still running?): nothing was "
        "written, so that nothing OpenCode wrote is lost; run the fix again once OpenCode is idle"
    )
