"""The audit of a written file: `OUT.audit.ndjson` beside it, one JSON line per applied fix,
landing together with the file it describes.

Both are written to temporary files and flushed to disk, then the audit is renamed into place first
and the file second (`inspector.support.atomic_files`), so there is never a file without its
audit. A failure between the two renames puts the previous audit back (or removes the new one); a
process killed between them leaves the new audit beside the old file (or none): it records fixes
that are not in the file, and running the same `fix` again writes both.

A new file's audit belongs to it (a write into OUT replaces OUT's audit). A file written in place
keeps its history: the entries of its earlier fixes stay, the new ones are added after them, and
each new entry records that write (`in_place`: the name of the backup saved before it, and the
SHA-256 of the file it wrote), which is what `inspector undo FILE` reads (`file_undo`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from inspector.errors import InspectorError
from inspector.sources.base import AuditPlace, AuditRecord
from inspector.support.atomic_files import file_mode, kept_aside, land, staged_bytes
from inspector.support.safe_text import shown_name, utf8_bytes

AUDIT_SUFFIX = ".audit.ndjson"  # of the audit's name, after the file's
IN_PLACE = "in_place"  # the key of an entry written in place: {"backup": NAME, "written_sha256": HEX}


def audit_path_for(out: Path) -> Path:
    """Where the audit record of `out` goes: `OUT.audit.ndjson` beside it."""
    return out.with_name(out.name + AUDIT_SUFFIX)


def land_with_audit(
    out: Path,
    rendered: str | bytes,
    audit: Sequence[AuditRecord],
    replace: bool,
    unchanged: Callable[[], None] | None = None,
    backup: Path | None = None,
) -> AuditPlace:
    """Write `rendered` (text, or its UTF-8 bytes) into `out` and the `audit` entries into
    `OUT.audit.ndjson` beside it, landing together (see the module's docstring); `out` is replaced
    only when `replace`, and, when `unchanged` is given, only if it does not refuse (raise) right
    before. `backup` is given for a write in place, after `out` was copied there: the entries
    already in the audit are kept, and each new one records the write (`IN_PLACE`). Any failure
    is one `InspectorError` line and leaves nothing written; where the audit went."""
    data = rendered if isinstance(rendered, bytes) else utf8_bytes(rendered)  # a lone surrogate as it was read
    entries = [record.entry for record in audit]
    earlier = b""
    if backup is not None:
        from hashlib import sha256  # (a write in place only: a scan loads this module, never writes)

        written = {"backup": backup.name, "written_sha256": sha256(data).hexdigest()}
        entries = [{**entry, IN_PLACE: written} for entry in entries]
        earlier = audit_so_far(audit_path_for(out))
    text = "".join(json.dumps(entry, ensure_ascii=False) + "\n" for entry in entries)
    land_file_and_audit(out, data, earlier + utf8_bytes(text), replace, unchanged)
    audit_path = audit_path_for(out)
    return AuditPlace(audit_path, shown_name(audit_path))


def audit_so_far(audit_path: Path) -> bytes:
    """The bytes of the audit at `audit_path` as it is (ending with a line end), or none when
    there is none: what a write in place keeps before its own entries."""
    try:
        earlier = audit_path.read_bytes()
    except FileNotFoundError:
        return b""
    except OSError as exc:
        raise InspectorError(f"{shown_name(audit_path)}: cannot read ({exc.strerror}); nothing was written") from None
    return earlier if not earlier or earlier.endswith(b"\n") else earlier + b"\n"


def audit_entries(out: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """`(line number, entry)` of every entry of `out`'s audit, in order (none when it has no audit);
    a line that is not a JSON object is one `InspectorError` line."""
    path = audit_path_for(out)
    try:
        lines = path.read_bytes().splitlines()
    except FileNotFoundError:
        return
    except OSError as exc:
        raise InspectorError(f"{shown_name(path)}: cannot read ({exc.strerror}); nothing was changed") from None
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
        except (ValueError, RecursionError):
            entry = None
        if not isinstance(entry, dict):
            raise InspectorError(f"{shown_name(path)}: line {number} is not an audit entry; nothing was changed")
        yield number, entry


def land_file_and_audit(
    out: Path, data: bytes, audit_bytes: bytes, replace: bool, unchanged: Callable[[], None] | None = None
) -> None:
    """Stage `data` for `out`, then land the audit `audit_bytes` and the file (see the module's
    docstring: `out` is replaced only when `replace`, and only once `unchanged`, when given, has not
    refused); one `InspectorError` line and nothing written on a failure."""
    output = None
    try:
        output = staged_bytes(out, data, file_mode(out))
        with landed_beside(audit_path_for(out), audit_bytes):
            if unchanged is not None:
                unchanged()
            land(output, out, replace)
    except FileExistsError:
        raise InspectorError(f"{shown_name(out)}: exists already; nothing was written") from None
    except OSError as exc:
        raise InspectorError(f"{shown_name(out)}: cannot write ({exc.strerror}); nothing was written") from None
    finally:
        if output is not None:
            output.unlink(missing_ok=True)


@contextmanager
def landed_beside(path: Path, data: bytes) -> Iterator[None]:
    """Land `data` as the file `path` (an audit), then run the block (what the audit describes
    lands there); if the block fails, the previous file is put back (or the new one removed)."""
    staged = staged_bytes(path, data, file_mode(path))
    try:
        aside = kept_aside(path)
    except BaseException:
        staged.unlink(missing_ok=True)
        raise
    try:
        land(staged, path)
        try:
            yield
        except BaseException:
            if aside is not None:
                os.replace(aside, path)
            else:
                path.unlink(missing_ok=True)
            raise
    finally:
        if aside is not None:
            aside.unlink(missing_ok=True)
