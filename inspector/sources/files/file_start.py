"""The first records of a large session file, read from its start alone, so that an interface can
show a session's first turns (and scan them) while the whole file is still being read.

Of a JSON Lines file, the start is its whole lines within the first bytes. Of a JSON document, it
is the document cut after the last element that ends within the first bytes of its outermost list
still open there (an OpenAI file's `messages`, say), every bracket still open then closed: the
elements kept are whole records, and the keys after that list (which the start does not reach) are
missing. Either is read by the format the whole file is read as, so each record read from the
start is the record read from the whole file; the session read from it leaves out its last turn,
which may be missing records that come after the start. A start that no format reads as one
session with turns (a file whose first record is larger than the start, a text log, an archive)
gives None: then the whole file is read as before.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import msgspec

from inspector.errors import InspectorError
from inspector.model import Session
from inspector.sources.files.document import Document, parse_document
from inspector.sources.files.inspect_eval import is_eval_archive
from inspector.sources.files.opencode_storage import is_storage_session
from inspector.sources.files.openhands_conversation import is_conversation_state
from inspector.sources.files.session_file import sessions_of_document
from inspector.support.lazy_pattern import lazy_pattern

START_BYTES = 1 << 19  # how much of a file its start is (a few thousand turns); a file no larger is read whole at once
# a JSON string (its escapes skipped), a string the start cuts off (`"` alone), or a bracket or comma
_TOKENS = lazy_pattern(rb'"[^"\\]*(?:\\.[^"\\]*)*"|"|[\[\]{},]', re.S)
_STRING, _COMMA = ord('"'), ord(",")
_OPENERS, _CLOSERS = b"[{", b"]}"
_CLOSING = {ord("["): b"]", ord("{"): b"}"}


def session_at_start(path: Path, format_name: str | None = None, size: int = START_BYTES) -> Session | None:
    """The session read from the first `size` bytes of the file at `path` (its turns those the
    start holds, but the last), as `format_name` when given (else the format recognised); None
    when the file is no larger than `size`, or its start is not one session with turns."""
    if is_eval_archive(path) or is_conversation_state(path) or is_storage_session(path):
        return None
    try:
        document = document_start(path, size)
        sessions = sessions_of_document(document, format_name) if document is not None else []
    except InspectorError:
        return None
    if len(sessions) != 1 or len(sessions[0].turns) < 2:
        return None
    # the last turn may be cut short: a format that makes one turn of several records (Claude
    # Code's events of one response) would miss those after the start
    return replace(sessions[0], turns=sessions[0].turns[:-1])


def document_start(path: Path, size: int = START_BYTES) -> Document | None:
    """The document of the first `size` bytes of the file at `path` (see the module's docstring);
    None when the file is no larger, or its start is neither JSON Lines nor JSON cut after a record."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(size + 1)
    except OSError:
        return None
    if len(data) <= size:
        return None
    data = data[:size]
    whole = data.rfind(b"\n") + 1
    if whole and _first_line_is_a_record(data):
        document = parse_document(path, data[:whole])
        return document if document.is_jsonl else None
    cut = json_start(data)
    return parse_document(path, cut) if cut is not None else None


def _first_line_is_a_record(data: bytes) -> bool:
    """Whether the first line that is not blank is a JSON value of its own (JSON Lines' first record)."""
    for line in data.splitlines():
        if line.strip():
            try:
                msgspec.json.decode(line)
            except (msgspec.DecodeError, ValueError):
                return False
            return True
    return False


def json_start(data: bytes) -> bytes | None:
    """The JSON text `data` starts with, cut after the last element of its outermost list still
    open at the end of `data` that ends within it, every bracket open there closed; None when
    that list has no element ending within `data` (or `data` is not the start of JSON)."""
    still_open = bytearray()  # the brackets open, outermost first
    last_comma: dict[int, int] = {}  # depth of a list -> where its last comma is
    for match in _TOKENS.finditer(data):
        token = data[match.start()]
        if token == _STRING:
            if match.end() - match.start() == 1:  # a string the start cuts off: nothing after it counts
                break
        elif token in _OPENERS:
            still_open.append(token)
        elif token in _CLOSERS:
            if not still_open:
                return None
            last_comma.pop(len(still_open), None)
            still_open.pop()
        elif token == _COMMA and still_open and still_open[-1] == _OPENERS[0]:
            last_comma[len(still_open)] = match.start()
    outermost = still_open.find(_OPENERS[0]) + 1  # the depth of the outermost list still open, 0: none
    cut = last_comma.get(outermost) if outermost else None
    if cut is None:
        return None
    return data[:cut] + b"".join(_CLOSING[bracket] for bracket in reversed(still_open[:outermost]))
