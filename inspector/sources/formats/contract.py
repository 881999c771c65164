"""The contract of a file format: the `FileFormat` each format module of
`inspector.sources.formats` ends with (`FORMAT = FileFormat(NAME, claims, read, write)`).

A format is:

- `name`: the name `--format` takes, as the user types it: the module's file name with `-` for
  `_` (`pydantic_ai.py` is `pydantic-ai`); every session it reads carries it as `Session.format`.
- `claims(document) -> bool`: whether a parsed `Document` is this format's, judged by markers only
  this format writes (a key set, an event type, a record's class name), never because nothing else
  matched, so that it never claims another format's files. It is asked about every file: it stays
  cheap (most look at the first records only). The registry's probe order and its rule for two
  claims at once are in `inspector.sources.formats`.
- `read(document) -> list[Session]`: every session of the file, each `Turn` keeping the record it
  was read from as `raw`. A record it cannot read, or of a type it does not know, is counted in
  its session's `problems` and left where it is: unknown records are counted, never dropped. A
  file that holds no session at all is one `InspectorError` line.
- `write(document, sessions) -> str | bytes`, or None: the file's new text (or its UTF-8 bytes),
  given every session read from it (repaired or not). Only turns marked `edited` are re-rendered and turns with no `raw` (added
  by a repair) inserted (`messages.record_lists.rebuild_records`); every other record, and for JSON
  Lines every untouched line, is written back as it was, so a file with nothing repaired comes
  back byte for byte. A writer may refuse a document it cannot hold a repair in with one
  `InspectorError` line. A format with no writer (neither `write` nor `write_records`) is
  read-only: a log or trace its tool never loads back, whose sessions are scanned and exported
  (`fix --to openai`), never repaired in their own format.
- `write_records(document, sessions) -> dict[str, str]`, or None: for a document its tool keeps
  as many JSON files, one per record (OpenCode's older storage: `files.opencode_storage`), the
  record files a repair changes or adds, each by its path relative to the storage's folder with
  its new text, written as the tool writes them; a file not named stays as it was, byte for
  byte. Such a format has no `write` (no one file holds the session); the source lands the files
  together (`files.record_files_write`).
- `copies_bytes`: whether `write` copies the records it leaves as they were from a JSON file's
  bytes (`Document.render_bytes`, building the new value by sharing the original's objects and
  never changing them in place); only then does the document keep its bytes once read.
- `survey(document) -> tuple[Unread, ...]`, or None: the record types and keys in the document
  that the reader does not know, by the version of the tool that wrote them
  (`inspector.sources.unread_records`), for `scan --unknowns`. Offered by the formats of tools
  whose files change from release to release (the coding agents); never needed to read.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from inspector.model import Session
from inspector.sources.files.document import Document
from inspector.sources.unread_records import Unread

Claims = Callable[[Document], bool]
Reader = Callable[[Document], list[Session]]
Writer = Callable[[Document, list[Session]], str | bytes]
Survey = Callable[[Document], tuple[Unread, ...]]
RecordsWriter = Callable[[Document, list[Session]], dict[str, str]]


@dataclass(frozen=True)
class FileFormat:
    """One file format: its `name`, how it `claims` a document, how it `read`s one, unless it is
    read-only how it `write`s one back (or, kept as many files, its changed `write_records`), and
    for a tool whose files change between releases how it `survey`s what its reader does not know
    (see the module's docstring for what each must do)."""

    name: str
    claims: Claims
    read: Reader
    write: Writer | None = None
    survey: Survey | None = None
    write_records: RecordsWriter | None = None
    copies_bytes: bool = False  # its writer copies untouched records from a JSON file's bytes, kept for it

    @property
    def writable(self) -> bool:
        """Whether repaired sessions can be written back in this format (else it is read-only)."""
        return self.write is not None or self.write_records is not None
