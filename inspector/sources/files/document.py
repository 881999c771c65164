"""Reading a session file into a `Document` (JSON, JSON Lines or plain text) and writing one back.

This is the only place that touches the bytes of a plain session file. Every failure becomes an
`InspectorError` naming the file (and the line and column where known).

A JSON file is decoded by `msgspec`, about twice as fast as `json` on a large session and to the
same values (integers of any size included); whatever it refuses (a byte-order mark, NaN, a lone
surrogate, JSON Lines, invalid JSON) goes the `json` way, which also words the errors.

A file that is neither, and does not start as JSON's objects and lists do (with `{` or `[`, after
blank space) nor is one value `json` reads, is a text document (`is_text`): its `value` is its text, decoded once, for the formats that read a
tool's Markdown or plain-text logs; a file that starts as JSON and breaks is still one JSON error.

An integer too long to read (`long_numbers`) is kept as written: in a JSON file it is held as a
placeholder and written back as its digits; in JSON Lines its line is an unreadable line, reported
and written back as it was.

A JSON Lines file is held once, as the bytes read: each line is decoded by `msgspec` from its
slice of them, and a line it refuses goes the `json` way (to the same values `json` gives, or to
`json`'s words for why it is not JSON). The lines are kept as offsets into those bytes, so an
untouched line is written back as it was read, and the file's text is never held as strings.
"""

from __future__ import annotations

import codecs
import json
import os
import stat
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import Any

import msgspec

from inspector.errors import InspectorError
from inspector.sources.files import json_splice
from inspector.sources.files.line_index import LinePlaces, LineTexts, line_starts
from inspector.sources.location import MAGIC, STANDARD_INPUT_FILE
from inspector.support.atomic_files import file_mode, land, staged_bytes
from inspector.support.json_error_words import what_is_wrong
from inspector.support.lazy_pattern import lazy_pattern
from inspector.support.long_numbers import (
    MAX_DIGITS,
    loads_keeping_long_numbers,
    too_long_to_read,
    with_long_numbers,
)
from inspector.support.safe_text import shown_name, utf8_bytes

_DECODE_JSON = msgspec.json.Decoder().decode
_REFUSED = object()
_TOO_DEEP = "nested too deeply to read"
_INDENT_WINDOW = 4096  # characters at the start of a file in which to look for its indentation
_SNIFF_BYTES = 64 * 1024  # the first chunk, read and checked before the rest
_CHUNK_BYTES = 1 << 20
_BOM = codecs.BOM_UTF8
_NOT_JSON_SPACE = lazy_pattern(rb"[^ \t\r\n]")
_JSON_OPENERS = b"{["  # how a session file in JSON or JSON Lines starts
# printable ASCII that starts no value `json` reads (NaN and Infinity included) and is no space
_TEXT_STARTS = bytes(sorted(set(range(0x21, 0x7F)) - set(b'{["-0123456789tfnNI')))
# a JSON Lines record's first key and what follows its colon (a tool writes every line alike)
_FIRST_KEY_SPACING = lazy_pattern(r'\s*\{\s*"(?:[^"\\\n]|\\.){0,200}"\s*:(\s?)')


@dataclass(frozen=True)
class BadLine:
    """A line of a JSON Lines file that is not valid JSON: kept as it is, reported, skipped."""

    number: int
    error: str


@dataclass
class Document:
    """A parsed session file.

    `path` names the file: its `Path` on this machine, or the URI of a file read elsewhere (by
    Spark's executors, `document_of_bytes`). For JSON, `value` is the parsed value. For JSON
    Lines, `value` is the list of records, one per line (a `BadLine` for a line that does not
    parse, None for a blank line), and `lines` gives each original line with its ending (decoded
    when read), so untouched lines are written back byte for byte. An integer of JSON too long to
    read is a `LongNumber` in `value`, its digits in `long_numbers`, written back as they were.
    A JSON file `msgspec` decoded keeps its bytes as `data`, from which `render_bytes` copies
    whatever a repair left as it was (dropped once read for a format whose writer does not), and
    `derived` holds what a format's reader built from the value for its writer (`derived_once`).
    """

    path: Path | str
    value: Any
    lines: LineTexts | None = None
    indent: int | str | None = None
    long_numbers: list[str] = field(default_factory=list)  # the digits of each `LongNumber` in `value`
    is_text: bool = False  # a text document: `value` is the file's text
    data: bytes | bytearray | None = field(default=None, repr=False, compare=False)  # a JSON file's bytes, read
    derived: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)  # see `derived_once`

    @property
    def is_jsonl(self) -> bool:
        """True when the file is JSON Lines."""
        return self.lines is not None

    @property
    def problems(self) -> tuple[str, ...]:
        """What each session of the file reports about the file as a whole."""
        count = len(self.long_numbers)
        if not count:
            return ()
        numbers = "a number" if count == 1 else f"{count:,} numbers"
        return (f"{numbers} of over {MAX_DIGITS:,} digits, too long to read, kept as written",)

    def derived_once(self, name: str, derive: Callable[[], Any]) -> Any:
        """What `derive()` gives, computed once for this document under `name`: a structure a
        format's reader builds from the value and its writer needs again (the value is never
        changed once read)."""
        if name not in self.derived:
            self.derived[name] = derive()
        return self.derived[name]

    def with_long_numbers(self, json_text: str) -> str:
        """`json_text`, written from a value of this document, with each long number's digits again."""
        return with_long_numbers(json_text, self.long_numbers)

    def render(self, value: Any) -> str:
        """The text of this file with `value` in place of the original.

        JSON is written with the original's indentation; JSON Lines writes each record that is
        one of the original records as its original line, and any other record on one line, with
        no space after `:` and `,` when the file's first line has none after its first key's colon
        (as Node tools write, `JSON.stringify`), else as `json.dumps` writes (as Python tools do).
        A record that stands for several lines (None for each blank line, say) takes them in turn.
        A text document's value is its text, written as it is.
        """
        lines = self.lines
        if self.is_text:
            return str(value)
        if lines is None:
            return self.with_long_numbers(json.dumps(value, indent=self.indent, ensure_ascii=False)) + "\n"
        place = LinePlaces(self.value[: len(lines)])
        newline = "\r\n" if lines and lines[0].endswith("\r\n") else "\n"
        spacing = _FIRST_KEY_SPACING.match(lines[0]) if lines else None
        separators = (",", ":") if spacing is not None and not spacing.group(1) else None
        out = []
        line = None
        for record in value:
            index = place.of(record)
            line = None if index is None else lines[index]
            if line is None:
                out.append(json.dumps(record, ensure_ascii=False, separators=separators) + newline)
            else:
                out.append(line if line.endswith("\n") else line + newline)
        if line is not None and not lines[-1].endswith("\n"):  # the last record is an original; no final break
            out[-1] = line.rstrip("\r\n") if line.endswith("\n") else line
        return "".join(out)

    def render_bytes(self, value: Any) -> bytes:
        """The bytes of this file with `value` in place of the original, as `render` writes it,
        except that a JSON file whose bytes are kept has every part of `value` that is a part of
        the original (the very same object) copied from those bytes, layout and all, and only the
        rest encoded (`json_splice`). `value` must be built from the original without changing
        any of its objects in place."""
        if self.data is not None and self.lines is None and not self.long_numbers:
            spliced = json_splice.spliced(self.data, self.value, value, self.indent)
            if spliced is not None:
                return spliced
        return utf8_bytes(self.render(value))


def read_document(path: Path) -> Document:
    """Read and parse `path` as JSON, or as JSON Lines when it is not one JSON value."""
    return parse_document(path, read_session_bytes(path))


def document_of_bytes(path: Path | str, data: bytes) -> Document:
    """Parse the bytes of the session file named `path`, read elsewhere (by Spark's executors),
    with the same checks as `read_document`: an SQLite database or binary data is refused, and so
    is an empty file. `path` only names the file in the `Document` and its errors."""
    _check_head(path, data[:_SNIFF_BYTES])
    if not data or data.isspace():
        raise InspectorError(f"{shown_name(path)}: file is empty")
    return parse_document(path, data)


def parse_document(path: Path | str, data: bytes | bytearray) -> Document:
    """The `Document` held in `data`, the bytes of the file `path`: JSON, or JSON Lines when it is
    not one JSON value, or text when it is neither and does not start as JSON does. A JSON Lines
    document keeps `data` (its lines are slices of it)."""
    value = _decode_fast(data)
    if value is not _REFUSED:
        head = data[: 4 * _INDENT_WINDOW + 4].decode("utf-8", "ignore")  # up to 4 bytes a character
        return Document(path, value, indent=_detect_indent(head), data=data)
    document = _read_json_lines(path, data)
    if document is not None:
        return document
    if not _starts_as_text(data):
        return _read_by_json(path, data)
    try:
        return _read_by_json(path, data)  # a value only `json` reads (NaN, a string with a lone surrogate)
    except InspectorError:
        return _read_text(path, data)


def _starts_as_text(data: bytes | bytearray) -> bool:
    """Whether the first character that is not blank space (past a byte-order mark) does not open
    a JSON object or list."""
    start = len(_BOM) if data.startswith(_BOM) else 0
    first = _NOT_JSON_SPACE.search(data, start)
    return first is not None and data[first.start()] not in _JSON_OPENERS


def _read_text(path: Path | str, data: bytes | bytearray) -> Document:
    """The text document of `data`, decoded as UTF-8 (a byte-order mark kept in its text)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InspectorError(f"{shown_name(path)}: not UTF-8 text (bad byte at offset {exc.start})") from None
    return Document(path, text, is_text=True)


def read_session_bytes(path: Path) -> bytearray:
    """The bytes of the session file at `path`, read once, as a stream: a regular file, or a pipe
    (a FIFO, a process substitution) named on the command line, whose bytes can be read only once.

    A device, a socket or a directory is refused with one line. The first chunk is sniffed before
    the rest is read: a NUL byte there means binary data, and reading stops. Further on, a chunk of
    nothing but NUL bytes (a sparse file's hole) stops the reading too, so memory is spent only on
    what really is text."""
    _check_readable(path)
    try:
        with open(path, "rb") as handle:
            data = bytearray(handle.read(_SNIFF_BYTES))
            _check_head(path, data)
            while chunk := handle.read(_CHUNK_BYTES):
                if chunk[0] == 0 and chunk[-1] == 0 and chunk.count(0) == len(chunk):
                    raise InspectorError(
                        f"{shown_name(path)}: binary file, not a session (NUL bytes from offset {len(data)})"
                    )
                data += chunk
    except OSError as exc:
        raise InspectorError(f"{shown_name(path)}: cannot read ({exc.strerror})") from None
    if not data or data.isspace():
        raise InspectorError(f"{shown_name(path)}: file is empty")
    return data


def _check_readable(path: Path) -> None:
    """Fail with one line unless `path` is a regular file or a pipe."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        raise InspectorError(f"{shown_name(path)}: no such file") from None
    except OSError as exc:
        raise InspectorError(f"{shown_name(path)}: cannot read ({exc.strerror})") from None
    if stat.S_ISDIR(mode):
        raise InspectorError(f"{shown_name(path)}: is a directory, not a session file")
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        if str(path) == STANDARD_INPUT_FILE and os.isatty(0):
            raise InspectorError(
                "standard input is the terminal, not a session: pipe one in (cat FILE | inspector scan -)"
            )
        raise InspectorError(f"{shown_name(path)}: is a device, not a session file")
    if not (stat.S_ISREG(mode) or stat.S_ISFIFO(mode)):
        raise InspectorError(f"{shown_name(path)}: is not a regular file or a pipe, not a session file")


def _check_head(path: Path | str, head: bytes | bytearray) -> None:
    """Fail with one line when the first chunk of a file shows it is not text: an SQLite database
    (here only when it came through a pipe: SQLite reads files) or binary data."""
    if head.startswith(MAGIC):
        raise InspectorError(
            f"{shown_name(path)}: an SQLite database read through a pipe; save it to a file and name that"
        )
    if b"\x00" in head:
        raise InspectorError(f"{shown_name(path)}: binary file, not a session")


def write_text_atomic(path: Path, text: str) -> None:
    """Write the JSON (or JSON Lines) `text` to `path` whole or not at all
    (`inspector.support.atomic_files`: a temporary file flushed to disk, then renamed over it). A
    lone surrogate (which UTF-8 cannot hold) is written as its JSON escape, as it was read. The
    file keeps the permissions it had; a new one gets the usual ones (0666 less the umask), not the
    temporary file's 0600. A failure is an `InspectorError` and leaves nothing behind."""
    path = Path(path)
    try:
        land(staged_bytes(path, utf8_bytes(text), file_mode(path)), path)
    except OSError as exc:
        raise InspectorError(f"{shown_name(path)}: cannot write ({exc.strerror})") from None


def records_with_errors(records: Iterable[Any], kept: bool = False) -> list[str]:
    """Problems to report for the unparseable lines of a JSON Lines file (`kept`: saying that a
    write keeps them as they were)."""
    done = "skipped, kept as written" if kept else "skipped"
    return [f"line {r.number}: invalid JSON ({r.error}), {done}" for r in records if isinstance(r, BadLine)]


def json_value(data: bytes | bytearray) -> Any:
    """The JSON value of `data` exactly as `json.loads` reads it, and its errors when it cannot (a
    `ValueError` or `RecursionError`), decoded by the faster `msgspec` whenever that accepts it."""
    value = _decode_fast(data)
    return json.loads(data) if value is _REFUSED else value


def _decode_fast(data: bytes | bytearray) -> Any:
    """The JSON value of `data` by `msgspec`, or `_REFUSED` when it refuses it."""
    try:
        return _DECODE_JSON(data)
    except (msgspec.DecodeError, ValueError, RecursionError):  # ValueError: invalid UTF-8
        return _REFUSED


def _read_by_json(path: Path | str, data: bytes | bytearray) -> Document:
    """The one JSON value in `data`, which `msgspec` refused, read by `json` (or the error that
    says why it is none): `data` is not JSON Lines (`_read_json_lines`)."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InspectorError(f"{shown_name(path)}: not UTF-8 text (bad byte at offset {exc.start})") from None
    try:
        try:
            return Document(path, json.loads(text), indent=_detect_indent(text))
        except ValueError as error:
            if not too_long_to_read(error):
                raise
        value, numbers = loads_keeping_long_numbers(text)
        return Document(path, value, indent=_detect_indent(text), long_numbers=numbers)
    except RecursionError:
        raise InspectorError(f"{shown_name(path)}: {_TOO_DEEP}") from None
    except json.JSONDecodeError as error:
        raise InspectorError(
            f"{shown_name(path)}: line {error.lineno} column {error.colno}: invalid JSON ({what_is_wrong(error)})"
        ) from None


def _read_json_lines(path: Path | str, data: bytes | bytearray) -> Document | None:
    """The JSON Lines document in `data`, or None when `data` is not JSON Lines.

    `data` is JSON Lines when its first record (the first line that is not blank) parses and
    something other than JSON whitespace stands before or after that line: then `json` cannot
    read the whole as one value either. A byte-order mark at the start is not part of line 1; a
    first record may be `null`, which is not a blank line."""
    start = len(_BOM) if data.startswith(_BOM) else 0
    first = _NOT_JSON_SPACE.search(data, start)
    if first is not None and data[first.start()] in _TEXT_STARTS:  # a text log: its first line is no record
        return None
    starts = line_starts(data, start)
    view = memoryview(data)
    lines = pairwise(starts)  # shared: the first record's lines are read here, the rest by `_decode_rest`
    records: list[Any] = []
    for first_start, first_stop in lines:
        record = _line_record(path, view, first_start, first_stop, len(records) + 1, start)
        records.append(record)
        if record is not None or str(data[first_start:first_stop], "utf-8").strip():  # a blank line, or `null`
            break
    else:
        return None
    if isinstance(record, BadLine) or not (
        _NOT_JSON_SPACE.search(data, start, first_start) or _NOT_JSON_SPACE.search(data, first_stop)
    ):
        return None
    _decode_rest(path, view, lines, records, start)
    return Document(path, records, lines=LineTexts(data, starts))


def _line_record(path: Path | str, view: memoryview, start: int, stop: int, number: int, text_start: int) -> Any:
    """The record of line `number`, `view[start:stop]`: decoded by `msgspec`, or by `json` when
    `msgspec` refuses it (`_record_by_json`). `text_start` is where the text starts (past a
    byte-order mark)."""
    try:
        return _DECODE_JSON(view[start:stop])
    except (msgspec.DecodeError, ValueError, RecursionError):  # ValueError: invalid UTF-8
        return _record_by_json(path, view[start:stop], number, start - text_start)


def _decode_rest(
    path: Path | str, view: memoryview, lines: Iterator[tuple[int, int]], records: list[Any], text_start: int
) -> None:
    """Append to `records` the record of each line `lines` still gives (its start and stop in
    `view`), as `_line_record` reads one, in one loop with no call per line but `msgspec`'s: a
    line it refuses is read by `json`, and the loop goes on with the next."""
    decode = _DECODE_JSON
    append = records.append
    start = stop = 0
    while True:
        try:
            for start, stop in lines:
                append(decode(view[start:stop]))
            return
        except (msgspec.DecodeError, ValueError, RecursionError):  # ValueError: invalid UTF-8
            append(_record_by_json(path, view[start:stop], len(records) + 1, start - text_start))


def _record_by_json(path: Path | str, line: memoryview, number: int, offset: int) -> Any:
    """The record of line `number`, whose bytes are `line`, `offset` bytes into the text, read by
    `json`: None for a blank line, a `BadLine` for one that is not JSON."""
    try:
        text = str(line, "utf-8")
    except UnicodeDecodeError as exc:
        raise InspectorError(f"{shown_name(path)}: not UTF-8 text (bad byte at offset {offset + exc.start})") from None
    if not text.strip():
        return None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        return BadLine(number, f"{what_is_wrong(exc)} at column {exc.colno}")
    except ValueError:  # an integer too long to read
        return BadLine(number, f"a number of over {MAX_DIGITS:,} digits, too long to read")
    except RecursionError:
        return BadLine(number, _TOO_DEEP)


def _detect_indent(text: str) -> int | str | None:
    """The indentation of the first indented line, or None for a compact file."""
    head = text[:_INDENT_WINDOW]
    newline = head.find("\n")
    if newline < 0:
        return None
    for line in head[newline + 1 :].splitlines():
        stripped = line.lstrip(" \t")
        if stripped and len(stripped) < len(line):
            prefix = line[: len(line) - len(stripped)]
            return "\t" if prefix.startswith("\t") else len(prefix)
    return None
