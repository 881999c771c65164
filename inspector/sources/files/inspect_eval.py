"""Reading an Inspect AI `.eval` log: a zip archive whose members are JSON, most of them
compressed with Zstandard (zip method 93), which the standard library's `zipfile` cannot
decompress before Python 3.14.

`zipfile` still reads the central directory (names, offsets, sizes, CRCs); a Zstandard member's
bytes are taken from behind its local header and decompressed with Zstandard, a stored or
deflated one is read by `zipfile` itself. The archive becomes one `Document` shaped like Inspect's
legacy `.json` log: `header.json`'s keys (`version`, `eval`, `plan`, `results`, ...) and
`samples`, the `samples/<id>_epoch_<n>.json` members in the archive's order; the other members
(`summaries.json`, `reductions.json`, `_journal/...`) hold no messages and are not read. A cut-off
or damaged archive is one `InspectorError` line.

What the members read expand to is bounded before anything is decompressed, by the sizes the
directory declares (a member is never inflated past its declared size: more is damage): at most
`EXPANSION_RATIO` times the archive's size (but `MIN_ALLOWANCE` whatever its size) and never more
than `MAX_EXPANDED` in all. An archive past that (a decompression bomb) is refused in one line.
Each member is decompressed as a stream into one buffer of its declared size.
"""

from __future__ import annotations

import io
import os
import struct
import zlib
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Protocol

from inspector.errors import InspectorError
from inspector.sources.files.document import Document, json_value
from inspector.support.long_numbers import loads_keeping_long_numbers, too_long_to_read
from inspector.support.safe_text import shown_name

if TYPE_CHECKING:
    import zipfile

SUFFIX = ".eval"
ZIP_ZSTANDARD = 93
_LOCAL_HEADER = struct.Struct("<4s22xHH")  # signature, 22 bytes of fields, name and extra lengths
_LOCAL_SIGNATURE = b"PK\x03\x04"
_SAMPLES = "samples/"
EXPANSION_RATIO = 100  # JSON compresses about 10 to 20 times; whitespace and repeats more
MIN_ALLOWANCE = 64 << 20  # bytes a small archive may always expand to
MAX_EXPANDED = 1 << 30  # bytes an archive may expand to at most, in all
_CHUNK = 1 << 20


def is_eval_archive(path: Path) -> bool:
    """Whether `path` names an Inspect AI `.eval` log (by its suffix: Inspect names them so)."""
    return Path(path).suffix == SUFFIX


def read_eval(path: Path) -> Document:
    """The `.eval` archive at `path` as a `Document` shaped like a legacy `.json` log."""
    import zipfile  # imported here: every scan loads this module, few read an archive

    path = Path(path)
    try:
        with open(path, "rb") as handle, zipfile.ZipFile(handle) as archive:
            members = {info.filename: info for info in archive.infolist()}
            if "header.json" not in members and not any(name.startswith(_SAMPLES) for name in members):
                raise InspectorError(
                    f"{shown_name(path)}: a zip archive without header.json or samples/, not an Inspect AI log"
                )
            header_info = members.get("header.json")
            samples = [info for name, info in members.items() if name.startswith(_SAMPLES) and name.endswith(".json")]
            _check_expansion(
                path, [header_info, *samples] if header_info else samples, os.fstat(handle.fileno()).st_size
            )
            value: dict[str, Any] = {}
            numbers: list[str] = []  # the digits of the integers too long to read, in every member
            if header_info is not None:
                header = _member_json(archive, handle, header_info, path, numbers)
                value.update(header if isinstance(header, dict) else {"header": header})
            value["samples"] = [_member_json(archive, handle, info, path, numbers) for info in samples]
    except zipfile.BadZipFile as exc:
        raise InspectorError(f"{shown_name(path)}: not a readable .eval archive ({exc}; cut off or damaged?)") from None
    except OSError as exc:
        raise InspectorError(f"{shown_name(path)}: cannot read ({exc.strerror or exc})") from None
    return Document(path, value, long_numbers=numbers)


def expansion_allowed(archive_size: int) -> int:
    """How many bytes the members of an archive of `archive_size` bytes may expand to, in all."""
    return min(MAX_EXPANDED, max(MIN_ALLOWANCE, EXPANSION_RATIO * archive_size))


def _check_expansion(path: Path, read: list[zipfile.ZipInfo], archive_size: int) -> None:
    """Fail with one line when the members to `read` declare more bytes than the archive may expand to."""
    allowed = expansion_allowed(archive_size)
    declared = sum(info.file_size for info in read)
    if declared > allowed:
        raise InspectorError(
            f"{shown_name(path)}: expands to {declared:,} bytes, more than the {allowed:,} an archive of "
            f"{archive_size:,} bytes may (a decompression bomb?); not read"
        )


def _member_json(
    archive: zipfile.ZipFile, handle: IO[bytes], info: zipfile.ZipInfo, path: Path, numbers: list[str]
) -> Any:
    """The JSON value of one member, an integer too long to read kept as a `LongNumber` (its digits
    appended to `numbers`)."""
    data = _member_bytes(archive, handle, info, path)
    try:
        try:
            return json_value(data)
        except ValueError as exc:
            if not too_long_to_read(exc):
                raise
        return loads_keeping_long_numbers(data, numbers)[0]
    except (ValueError, RecursionError) as exc:
        raise InspectorError(f"{shown_name(path)}: member {info.filename}: not JSON ({exc})") from None


def _member_bytes(archive: zipfile.ZipFile, handle: IO[bytes], info: zipfile.ZipInfo, path: Path) -> bytearray:
    """The decompressed bytes of one member, their CRC checked."""
    if info.compress_type != ZIP_ZSTANDARD:
        try:
            with archive.open(info) as member:  # its CRC checked at its end, its size capped
                return _decompressed(member, info.file_size)
        except NotImplementedError as exc:
            raise InspectorError(f"{shown_name(path)}: member {info.filename}: {exc}") from None
        except (zlib.error, EOFError) as exc:
            raise InspectorError(
                f"{shown_name(path)}: member {info.filename}: cannot decompress ({exc}; cut off?)"
            ) from None
    handle.seek(info.header_offset)
    signature, name_length, extra_length = _LOCAL_HEADER.unpack(handle.read(_LOCAL_HEADER.size).ljust(30, b"\0"))
    if signature != _LOCAL_SIGNATURE:
        raise InspectorError(
            f"{shown_name(path)}: member {info.filename}: no local header where the directory says (damaged)"
        )
    from inspector.support.zstandard_module import zstd  # imported here, as zipfile is in `read_eval`

    handle.seek(info.header_offset + _LOCAL_HEADER.size + name_length + extra_length)
    compressed = handle.read(info.compress_size)
    try:
        with zstd.ZstdFile(io.BytesIO(compressed)) as reader:
            data = _decompressed(reader, info.file_size)
    except (zstd.ZstdError, EOFError) as exc:
        raise InspectorError(
            f"{shown_name(path)}: member {info.filename}: cannot decompress ({exc}; cut off?)"
        ) from None
    if len(compressed) != info.compress_size or len(data) != info.file_size or zlib.crc32(data) != info.CRC:
        raise InspectorError(f"{shown_name(path)}: member {info.filename}: cut off or damaged (size or CRC differs)")
    return data


class _Reader(Protocol):
    """A member's decompressing reader (`zipfile`'s, or a Zstandard file's)."""

    def read(self, size: int = -1, /) -> bytes: ...


def _decompressed(reader: _Reader, size: int) -> bytearray:
    """What `reader` (a member's decompressing reader) gives, at most `size` + 1 bytes of it (more
    than the directory says is damage, and a bomb is never inflated past it), read in chunks into
    one buffer of `size` bytes: the member is held once, never twice."""
    data = bytearray(size)
    view, total = memoryview(data), 0
    while total <= size and (chunk := reader.read(min(size + 1 - total, _CHUNK))):
        if total + len(chunk) > size:
            return data + b"?"  # longer than declared: the caller's size check says so
        view[total : total + len(chunk)] = chunk
        total += len(chunk)
    view.release()
    del data[total:]
    return data
