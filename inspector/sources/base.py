"""The one interface every kind of storage implements: a `Source`.

A source is opened from a path (`inspector.sources.open_source`), lists its sessions cheaply (for a
picker), reads one or all of them as `Session`s, and writes repaired sessions back through a
`SessionWriter`. What it can do is stated in its `Capabilities`, so callers ask instead of
branching on kinds. Every write goes through `inspector.repair.write.write_repaired`, which makes
the backup, builds the audit and hands both to the source's writer; a source never applies fixes
itself.

The contract an implementation meets:

- `path` (a `Location`: a file, or a server's database), `format` (the name `--format` takes),
  `capabilities`, and `streams`: whether sessions are read one at a time and never all held (a
  history: it may be large, is listed before it is read, is worth scanning in several processes,
  and a review may hold only some of its sessions);
- `listing()`: every session's id and message count, in the order `sessions()` gives them, reading
  no more than it must;
- `sessions(only, start)`: the sessions one at a time (`only` keeps one id, `start` skips the first
  ones); a record it cannot read is a problem of its session, never a silent drop;
- `reading_while_writing(backup)`: what to read while the source itself is written in place;
- `written_paths(out)`: every file a write into `out` creates or replaces (the output and, for a
  file, its audit beside it), which the write path checks before anything is written;
- `writer(out, in_place, options)`: a `SessionWriter` into `out` (a new file, or the source in
  place: `out` is then its `path`), which in place makes the backup itself
  (`SessionWriter.backup`), under its lock when the storage has one, and says what to read while
  it writes (`SessionWriter.reading`);
- `cannot_write(in_place)`: the line refusing a write its `capabilities` do not allow.
A source kept in one file on disk is a `FileSource`: its `path` is a `Path`, it writes into files
only, and `backup()` makes a consistent copy beside it, never over an earlier one, landed whole
or not at all (`save_backup`).
`write_repaired` may instead write into another format (`to`, e.g. `inspector.sources.openai_export`):
that writer needs nothing of the source, so a read-only source can be exported too.
Any failure is one `InspectorError` line.
"""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, NamedTuple

from inspector.errors import InspectorError
from inspector.model import AppliedFix, Location, ServerUrl, Session
from inspector.support.atomic_files import land, staged
from inspector.support.safe_text import shown_name


@dataclass(frozen=True)
class Capabilities:
    """What a source can do with repaired sessions.

    `write_copy`: write a repaired copy in its own format (`fix -o NEW`); `write_in_place`: replace
    the source after a backup (`fix --in-place`); `forks`: a repaired conversation is written as a
    new fork beside the original, which stays as it was. A source that can do neither write is
    read-only: its sessions can only be exported to another format.
    """

    write_copy: bool = True
    write_in_place: bool = True
    forks: bool = False


@dataclass(frozen=True)
class WriteOptions:
    """What a person allowed a write: `replace_existing`, to replace an existing regular file at
    the output (`fix --force`, or the app's export when the person chose to); `allow_triggers`, to
    write a database whose own triggers run on the tables written (`fix --allow-triggers`)."""

    replace_existing: bool = False
    allow_triggers: bool = False


class Listed(NamedTuple):
    """One session as a listing shows it: its id and how many messages it holds."""

    session_id: str | None
    messages: int


@dataclass(slots=True, unsafe_hash=True)
class WrittenFix:
    """Where a writer put one applied fix: the table and row it changed (databases), and a note on
    anything the storage could not hold. Treated as an immutable value, as `AppliedFix` is."""

    fix: AppliedFix
    session_id: str | None
    table: str | None = None
    row_id: Any = None
    note: str = ""


@dataclass(slots=True)
class AuditRecord:
    """One applied fix as the audit keeps it: where it was written and the audit entry
    (`inspector.repair.audit.audit_entry`). Treated as an immutable value, as `AppliedFix` is."""

    written: WrittenFix
    entry: dict[str, Any]


class AuditPlace(NamedTuple):
    """Where a write's audit went: its file (a JSON Lines file, or the database itself: an SQLite
    file, or a server's) and, for a person, where in it."""

    path: Location
    shown: str


class SessionWriter(ABC):
    """Writes repaired sessions into one target: in place, `backup` first; `write` each (or a
    `batch` of them at once, `write_batch`), then `commit` with the audit, or `discard` to leave the
    target as it was."""

    # How many sessions with findings `write_batch` takes at once. 1: every session is written as it
    # is read, in order. More (a server's database, where each statement is a round trip): sessions
    # without findings are not handed over at all, and the others come in batches.
    batch = 1

    @abstractmethod
    def backup(self) -> Path | None:
        """In place: save a consistent copy of the target beside it before anything is written
        (see `Source.backup`), taken under the writer's lock when the storage has one; its path
        (None for a storage that keeps its own backup: a server's database, in its audit tables)."""

    def reading(self, source: Source, backup: Path | None) -> Source:
        """What to read the sessions to write from, after `backup` in place (None when not in
        place): the source's choice (`Source.reading_while_writing`), unless the writer has its own."""
        return source if backup is None else source.reading_while_writing(backup)

    def recorded(self, session_id: str | None) -> set[tuple[int, str, str]]:
        """The fixes the target's own audit says were applied to session `session_id` already, as
        (turn, kind, text before): never applied twice. A target without such an audit: none."""
        return set()

    def recorded_batch(self, session_ids: Sequence[str | None]) -> dict[str | None, set[tuple[int, str, str]]]:
        """`recorded` for each of `session_ids` at once."""
        return {session_id: self.recorded(session_id) for session_id in session_ids}

    @abstractmethod
    def write(self, session: Session, fixes: Sequence[AppliedFix]) -> list[WrittenFix]:
        """Write one session, repaired by `fixes` (sessions without fixes may be skipped)."""

    def write_batch(self, repaired: Sequence[tuple[Session, Sequence[AppliedFix]]]) -> list[list[WrittenFix]]:
        """`write` each session of `repaired` with its fixes; what each wrote, in the same order."""
        return [self.write(session, fixes) for session, fixes in repaired]

    @abstractmethod
    def commit(self, audit: Sequence[AuditRecord]) -> AuditPlace:
        """Make everything written, and the audit, land together; returns where the audit is."""

    @abstractmethod
    def discard(self) -> None:
        """Leave the target as it was before the writer opened it (again, nothing happens)."""

    def left_out(self) -> str:
        """After `commit`: one line naming what the target could not hold of the sessions written
        (an export to another format), or '' when it holds everything."""
        return ""

    def failed(self, error: BaseException) -> BaseException:
        """The error to report for `error`, met while writing (after `discard`)."""
        return error

    def __enter__(self) -> SessionWriter:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        """On any error, discard what was written and raise the error as `failed` words it."""
        if error is not None:
            self.discard()
            raise self.failed(error) from None


class Source(ABC):
    """Sessions kept in one file or database (see the module's docstring for the contract)."""

    path: Location  # where: a file, or a database on a server
    streams = False
    unit = "session"  # what one session is called in messages (a database's are conversations)

    @property
    def capabilities(self) -> Capabilities:
        """What the source can do with repaired sessions: by default, write them as a copy and in place."""
        return Capabilities()

    @property
    def table_key(self) -> str | None:
        """A database's table named with --table/--map (`table.named_table_key`); None by default."""
        return None

    @property
    @abstractmethod
    def format(self) -> str:
        """The name of the format (or schema) the source is read as."""

    @abstractmethod
    def listing(self) -> list[Listed]:
        """Every session's id and message count, in reading order."""

    @abstractmethod
    def sessions(self, only: str | None = None, start: int = 0) -> Iterator[Session]:
        """The sessions one at a time: only the one with id `only` when given, from number `start` on."""

    @abstractmethod
    def writer(self, out: Location, in_place: bool, options: WriteOptions = WriteOptions()) -> SessionWriter:
        """A writer of repaired sessions into `out` (the source itself, its `path`, when `in_place`)."""

    @abstractmethod
    def written_paths(self, out: Location) -> list[Path]:
        """Every file a write into `out` creates or replaces."""

    def cannot_write(self, in_place: bool) -> str:
        """The line refusing a write its `capabilities` do not allow (in place, or as a copy)."""
        how = "in place" if in_place else "as a copy"
        hint = (
            "it is read-only: write a repaired copy with -o OUT --to openai"
            if not (self.capabilities.write_copy or self.capabilities.write_in_place)
            else "use -o OUT"
        )
        return (
            f"{shown_name(self.path)}: the {self.format} format cannot be written {how} ({hint}); nothing was written"
        )

    def session(self, session_id: str) -> Session:
        """The session `session_id`; an unknown id is an `InspectorError`."""
        for session in self.sessions(only=session_id):
            return session
        raise InspectorError(
            f"{shown_name(self.path)}: no {self.unit} {session_id!r} (see `inspector scan {shown_name(self.path)}` for the ids)"
        )

    def reading_while_writing(self, backup: Path) -> Source:
        """What to read the sessions from while the source itself is written in place (after
        `backup`): the source itself, unless reading it while it is written is not safe."""
        return self


class FileSource(Source):
    """Sessions kept in one file on disk (a session file, an SQLite database): written into a
    file (a copy, or the file itself), and copied to a backup beside it."""

    path: Path

    def written_paths(self, out: Location) -> list[Path]:
        """Every file a write into `out` creates or replaces: `out` itself, unless the source
        puts more beside it."""
        return [file_output(out)]

    def backup(self) -> Path:
        """Copy the source to `PATH.bak` (or `PATH.bak.N` if that exists already); the copy's path."""
        return save_backup(self.path, self._copy_to)

    def _copy_to(self, target: Path) -> None:
        """Copy the source's bytes (and times) to `target`, an empty file."""
        import shutil  # imported here: only writing in place needs it, and reading a session is the usual run

        shutil.copy2(self.path, target)


def file_output(out: Location) -> Path:
    """`out` as the file a write into a file goes to: a database on a server is none (one
    `InspectorError` line)."""
    if isinstance(out, ServerUrl):
        raise InspectorError(f"{shown_name(out)}: a database on a server holds no copy of a file; nothing was written")
    return Path(out)


def backups_of(path: Path) -> list[Path]:
    """The backups `save_backup` saved of `path`, first to last (`PATH.bak`, `PATH.bak.1`, ...)."""
    found: list[Path] = []
    while os.path.lexists(target := _backup_name(path, len(found))):
        found.append(target)
    return found


def _backup_name(path: Path, number: int) -> Path:
    """The name of the backup of `path` saved after `number` others: `PATH.bak`, then `PATH.bak.N`."""
    return path.with_name(f"{path.name}.bak" + (f".{number}" if number else ""))


def save_backup(path: Path, copy: Callable[[Path], None]) -> Path:
    """Save a copy of `path` as `PATH.bak` (or `PATH.bak.N` if that name is taken), never over an
    earlier one: `copy(temporary)` fills a temporary file beside it, which takes the backup's
    name only once complete and flushed to disk. A copy that fails (a full disk, say) leaves
    nothing behind and is one `InspectorError` line; the backup's path."""
    number = 0
    while True:
        target = _backup_name(path, number)
        number += 1
        if os.path.lexists(target):
            continue
        try:
            land(staged(target, copy, path.stat().st_mode & 0o7777), target, replace=False)
        except FileExistsError:  # another program took the name meanwhile: the next one
            continue
        except OSError as exc:
            raise InspectorError(
                f"{shown_name(target)}: cannot write the backup ({exc.strerror}); nothing was changed"
            ) from None
        return target
