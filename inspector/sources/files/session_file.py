"""A session file (JSON or JSON Lines) as a `Source`: read whole once, its sessions kept, and
written back whole, in its own format, through a temporary file and a rename.

The audit of a write is a JSON Lines file beside the output, `OUT.audit.ndjson`, one entry per
applied fix, landing together with the output (`file_audit`). A backup (`PATH.bak`) is complete
before it takes its name. In place, the file is backed up and replaced only while it is still
exactly as its sessions were read (`file_state`: an agent may be appending to it), and its audit
keeps the entries of its earlier fixes.

A session its tool keeps as one file per record (OpenCode's older storage, whose format has
`write_records`) is written back record by record instead, all files or none, with its own
backup, lock and audit (`record_files_write`), and in place only while none of its files
changed since it was read (`record_files_state`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path

from inspector.errors import InspectorError
from inspector.model import AppliedFix, Location, Session
from inspector.sources.base import (
    AuditPlace,
    AuditRecord,
    Capabilities,
    FileSource,
    Listed,
    SessionWriter,
    WriteOptions,
    WrittenFix,
    file_output,
)
from inspector.sources.files.document import Document, read_document
from inspector.sources.files.file_audit import audit_path_for, land_with_audit
from inspector.sources.files.file_state import FileState, check_unchanged, state_of
from inspector.sources.files.inspect_eval import is_eval_archive, read_eval
from inspector.sources.files.opencode_storage import is_storage_session, read_storage_session, storage_folder
from inspector.sources.files.openhands_conversation import is_conversation_state, read_conversation
from inspector.sources.files.record_files_state import RecordFilesAsRead
from inspector.sources.formats import FORMATS, format_of, rendered_file
from inspector.sources.odd_records import without_odd_turns
from inspector.support.gc_pause import collector_paused
from inspector.support.safe_text import shown_name


class SessionFile(FileSource):
    """The sessions of one JSON or JSON Lines file, in the format recognised (or the one named)."""

    def __init__(self, path: Path, format_name: str | None = None) -> None:
        self.path = Path(path)
        self._format_name = format_name
        self._sessions: list[Session] | None = None
        self.read_as: FileState | None = None  # the file as its sessions were read (`file_state`)
        self.records_read_as: RecordFilesAsRead | None = None  # a storage's record files, likewise

    @classmethod
    def of_document(cls, document: Document, read_as: FileState, format_name: str | None = None) -> SessionFile:
        """The file's sessions from its `document` read already (a file being followed as it grows:
        `growing_file`), the file being then as `read_as` says, in the format recognised (or the
        one named)."""
        source = cls(Path(document.path), format_name)
        source._sessions = sessions_of_document(document, format_name)
        source.read_as = read_as
        return source

    @property
    def format(self) -> str:
        """The format's name, read from the file."""
        return self.all_sessions()[0].format

    @property
    def capabilities(self) -> Capabilities:
        """Written back in its own format unless the format has no writer (a log or trace its tool
        never loads back: such a file can only be exported)."""
        writable = FORMATS[self.format].writable
        return Capabilities(write_copy=writable, write_in_place=writable)

    def all_sessions(self) -> list[Session]:
        """Every session of the file, read once (`sessions_of_document`)."""
        if self._sessions is None:
            self.read_as = state_of(self.path)  # (before reading: a write while it is read is a change)
            with collector_paused():
                if is_eval_archive(self.path):
                    document = read_eval(self.path)
                elif is_conversation_state(self.path):
                    document = read_conversation(self.path)
                elif is_storage_session(self.path):
                    states: dict[Path, FileState | None] = {}
                    document = read_storage_session(self.path, states)
                    self.records_read_as = RecordFilesAsRead(self.path, states)
                else:
                    document = read_document(self.path)
                self._sessions = sessions_of_document(document, self._format_name)
        return self._sessions

    def listing(self) -> list[Listed]:
        """Every session's id and turn count (the file is read whole: JSON has no index)."""
        return [Listed(session.session_id, len(session.turns)) for session in self.all_sessions()]

    def sessions(self, only: str | None = None, start: int = 0) -> Iterator[Session]:
        """The file's sessions from number `start`, only the one with id `only` when given."""
        for session in self.all_sessions()[start:]:
            if only is None or session.session_id == only:
                yield session

    def writer(self, out: Location, in_place: bool, options: WriteOptions = WriteOptions()) -> SessionWriter:
        """A writer of the whole file to `out`: every session of this file, the repaired ones in
        place of their originals."""
        records = FORMATS[self.format].write_records
        if records is not None:  # a storage of one file per record: the files a repair changes
            from inspector.sources.files.record_files_write import RecordFilesWriter  # only `fix` and export write

            (document,) = {id(session.document): session.document for session in self.all_sessions()}.values()
            read_as = self.records_read_as
            assert read_as is not None  # taken as the storage's session was read
            output = file_output(out)
            audit = self.written_paths(out)[1]
            return RecordFilesWriter(read_as, lambda session: records(document, [session]), output, audit, in_place)
        return _FileWriter(self, file_output(out), in_place or options.replace_existing)

    def written_paths(self, out: Location) -> list[Path]:
        """The output and its audit beside it (a storage of one file per record written in place:
        the audit beside the storage's folder, `STORAGE.audit.ndjson`)."""
        output = file_output(out)
        if output == self.path and FORMATS[self.format].write_records is not None:
            return [output, audit_path_for(storage_folder(output))]
        return [output, audit_path_for(output)]


def sessions_of_document(document: Document, format_name: str | None = None) -> list[Session]:
    """Every session of a parsed session file, read as `format_name` when given (else the format
    recognised); the document keeps its bytes only for a format whose writer copies from them. A
    record of a shape no adapter foresaw (a list where a string belongs, say) still ends as a
    one-line `InspectorError`, never a traceback; so does a file that holds no session."""
    with collector_paused():
        try:
            file_format = format_of(document, format_name)
            if not file_format.copies_bytes:
                document.data = None  # no writer of this format copies from them: not held
            sessions = [
                without_odd_turns(_with_problems(session, document.problems)) for session in file_format.read(document)
            ]
        except (TypeError, KeyError, AttributeError, IndexError, ValueError) as exc:
            raise InspectorError(
                f"{shown_name(document.path)}: a record has a shape this format does not allow ({type(exc).__name__}: {exc})"
            ) from None
    if not sessions:
        raise InspectorError(f"{shown_name(document.path)}: holds no session")
    return sessions


def _with_problems(session: Session, problems: tuple[str, ...]) -> Session:
    """`session` reporting `problems` (about its file as a whole) too."""
    return replace(session, problems=session.problems + problems) if problems else session


class _FileWriter(SessionWriter):
    """Collects the repaired sessions, then writes the file and its audit on `commit`."""

    def __init__(self, source: SessionFile, out: Path, replace: bool) -> None:
        self._source = source
        self._sessions = list(source.all_sessions())
        self._places = {session.index: place for place, session in enumerate(self._sessions)}
        self._out = out
        self._replace = replace
        self._backup: Path | None = None  # the copy saved before a write in place

    def backup(self) -> Path:
        """The file's backup (`Source.backup`), once it is found still as its sessions were read."""
        self._refuse_if_changed()
        self._backup = self._source.backup()
        return self._backup

    def write(self, session: Session, fixes: Sequence[AppliedFix]) -> list[WrittenFix]:
        """Put the repaired session in place of the original with the same place in the file."""
        self._sessions[self._places[session.index]] = session
        return [WrittenFix(fix, session.session_id) for fix in fixes]

    def commit(self, audit: Sequence[AuditRecord]) -> AuditPlace:
        """Write the file and its audit beside it, landing together (see the module's docstring);
        in place, only while the file is still as its sessions were read (`file_state`), its audit
        keeping the entries of the fixes before and recording the backup saved."""
        in_place = self._out.resolve() == self._source.path.resolve()
        backup = self._backup if in_place else None
        rendered = rendered_file(self._sessions)
        place = land_with_audit(self._out, rendered, audit, self._replace, self._refuse_if_changed, backup)
        if in_place:  # the file is now what was written: an export over it again is from the same read
            self._source.read_as = state_of(self._out)
        return place

    def discard(self) -> None:
        """Nothing was written before `commit`."""

    def _refuse_if_changed(self) -> None:
        """Written in place, refuse (`file_state`) when the file is no longer as its sessions were read."""
        read_as = self._source.read_as
        if read_as is not None and self._out.resolve() == self._source.path.resolve():
            check_unchanged(self._out, read_as)
