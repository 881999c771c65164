"""A session file (JSON or JSON Lines) as a `Source`: read whole once, its sessions kept, and
written back whole, in its own format, through a temporary file and a rename.

The audit of a write is a JSON Lines file beside the output, `OUT.audit.jsonl`, one entry per
applied fix; the output and its audit are both written atomically.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterator, Sequence

from inspector.errors import InspectorError
from inspector.model import AppliedFix, Session
from inspector.sources.base import AuditPlace, AuditRecord, Capabilities, Listed, SessionWriter, Source, WrittenFix
from inspector.sources.files.document import read_document, write_text_atomic
from inspector.sources.files.formats import FORMATS, format_of, render_sessions
from inspector.support.gc_pause import collector_paused


def audit_path_for(out: Path) -> Path:
    """Where the audit record of `out` goes: `OUT.audit.jsonl` beside it."""
    return out.with_name(out.name + ".audit.jsonl")


class SessionFile(Source):
    """The sessions of one JSON or JSON Lines file, in the format recognised (or the one named)."""

    def __init__(self, path: Path, format_name: str | None = None) -> None:
        self.path = Path(path)
        self._format_name = format_name
        self._sessions: list[Session] | None = None

    @property
    def format(self) -> str:
        """The format's name, read from the file."""
        return self.all_sessions()[0].format

    @property
    def capabilities(self) -> Capabilities:
        """Written back in its own format unless its format module says `WRITABLE = False` (a log
        or trace its tool never loads back: such a file can only be exported)."""
        writable = getattr(FORMATS[self.format], "WRITABLE", True)
        return Capabilities(write_copy=writable, write_in_place=writable)

    def all_sessions(self) -> list[Session]:
        """Every session of the file, read once. A record of a shape no adapter foresaw (a list
        where a string belongs, say) still ends as a one-line `InspectorError`, never a traceback."""
        if self._sessions is None:
            with collector_paused():
                try:
                    document = read_document(self.path)
                    sessions = format_of(document, self._format_name).read(document)
                except (TypeError, KeyError, AttributeError, IndexError, ValueError) as exc:
                    raise InspectorError(f"{self.path}: a record has a shape this format does not allow "
                                         f"({type(exc).__name__}: {exc})") from None
            if not sessions:
                raise InspectorError(f"{self.path}: holds no session")
            self._sessions = sessions
        return self._sessions

    def listing(self) -> list[Listed]:
        """Every session's id and turn count (the file is read whole: JSON has no index)."""
        return [Listed(session.session_id, len(session.turns)) for session in self.all_sessions()]

    def sessions(self, only: str | None = None, start: int = 0) -> Iterator[Session]:
        """The file's sessions from number `start`, only the one with id `only` when given."""
        for session in self.all_sessions()[start:]:
            if only is None or session.session_id == only:
                yield session

    def writer(self, out: Path, in_place: bool) -> SessionWriter:
        """A writer of the whole file to `out`: every session of this file, the repaired ones in
        place of their originals."""
        return _FileWriter(self.all_sessions(), Path(out))


class _FileWriter(SessionWriter):
    """Collects the repaired sessions, then writes the file and its audit on `commit`."""

    def __init__(self, sessions: list[Session], out: Path) -> None:
        self._sessions = list(sessions)
        self._places = {session.index: place for place, session in enumerate(sessions)}
        self._out = out

    def write(self, session: Session, fixes: Sequence[AppliedFix]) -> list[WrittenFix]:
        """Put the repaired session in place of the original with the same place in the file."""
        self._sessions[self._places[session.index]] = session
        return [WrittenFix(fix, session.session_id) for fix in fixes]

    def commit(self, audit: Sequence[AuditRecord]) -> AuditPlace:
        """Write the file, then its audit beside it, each atomically."""
        write_text_atomic(self._out, render_sessions(self._sessions))
        path = audit_path_for(self._out)
        write_text_atomic(path, "".join(json.dumps(record.entry, ensure_ascii=False) + "\n" for record in audit))
        return AuditPlace(path, str(path))

    def discard(self) -> None:
        """Nothing was written before `commit`."""
