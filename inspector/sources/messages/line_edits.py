"""The changes a writer makes to a JSON Lines file of chained records (Claude Code's events, Qwen
Code's records, Pi's entries, Factory Droid's messages), and the file's text with them: every
record it does not change is its own line again, byte for byte; a changed or new one is one line
of compact JSON, as those tools write.

Used by the Claude Code, Qwen Code, Pi and Factory Droid writers (`formats/_claude_code_chain.py`,
`formats/_qwen_code_chain.py`, `formats/_pi_tree.py`, `formats/_factory_droid_write.py`)."""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

from inspector.sources.files.document import Document
from inspector.support.safe_text import utf8_bytes

Record = dict[str, Any]


class LineEdits:
    """What changes in the file: records replaced or removed, new records before or after one
    (each keyed by `id()` of the original record)."""

    def __init__(self) -> None:
        self.replaced: dict[int, Record] = {}  # id(original record) -> its new version
        self.removed: set[int] = set()
        self.before: defaultdict[int, list[Record]] = defaultdict(list)
        self.after: defaultdict[int, list[Record]] = defaultdict(list)
        self.new: set[int] = set()  # ids of new records (changed in place)

    def current(self, record: Record) -> Record:
        """The record as it will be written."""
        return self.replaced.get(id(record), record)

    def set(self, record: Record, key: str, value: Any) -> None:
        """Change one key of an original record (its keys keep their order); a new one in place."""
        if id(record) in self.new:
            record[key] = value
        elif id(record) in self.replaced:
            self.replaced[id(record)][key] = value
        else:
            self.replaced[id(record)] = {**record, key: value}

    def text(self, document: Document, records: list[Any]) -> str:
        """The file's text (`data`, decoded)."""
        return self.data(document, records).decode("utf-8")

    def data(self, document: Document, records: list[Any]) -> bytes:
        """The file's lines: each record's own line when it did not change, else compact JSON; a
        file that did not end with a line break still does not when its last line is kept. The
        lines between two changes are copied together from the bytes read, as one piece."""
        lines = document.lines
        newline = b"\r\n" if lines and bytes(lines.bytes_of(0)[-2:]) == b"\r\n" else b"\n"
        changed = {*self.replaced, *self.removed, *self.before, *self.after}
        out: list[bytes | memoryview] = []
        kept_from = 0  # the first record of the lines kept as they are since the last change
        if lines is not None:  # only the records that change, and the lines between them copied at once
            places = [index for index, key in enumerate(map(id, records)) if key in changed]
        else:
            places = list(range(len(records)))
        for index in places:
            record = records[index]
            if lines is not None and kept_from < index:
                out.append(lines.bytes_of(kept_from, index))  # every line but the file's last ends in a break
            kept_from = index + 1
            out.extend(_line(new, newline) for new in self.before.get(id(record), ()))
            if id(record) in self.removed:
                pass
            elif lines is None or id(record) in self.replaced:
                out.append(_line(self.current(record), newline))
            else:
                line = lines.bytes_of(index)
                if bytes(line[-1:]) == b"\n" or (index == len(records) - 1 and not self.after.get(id(record))):
                    out.append(line)  # the file's last line may have had no line break
                else:
                    out.append(bytes(line) + newline)
            out.extend(_line(new, newline) for new in self.after.get(id(record), ()))
        if lines is not None and kept_from < len(records):
            out.append(lines.bytes_of(kept_from, len(records)))
        return b"".join(out)


def _line(record: Any, newline: bytes) -> bytes:
    """`record` as one line of compact JSON (`compact_line`), in UTF-8."""
    return utf8_bytes(compact_line(record)) + newline


def compact_line(record: Any) -> str:
    """Compact JSON, as these Node tools write a line; U+2028 and U+2029 escaped, so no reader
    takes them for line breaks."""
    return (
        json.dumps(record, ensure_ascii=False, separators=(",", ":"))
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029")
    )
