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
        """The file's lines: each record's own line when it did not change, else compact JSON; a
        file that did not end with a line break still does not when its last line is kept. The
        lines between two changes are decoded together, as one piece of the file."""
        lines = document.lines
        newline = "\r\n" if lines and lines[0].endswith("\r\n") else "\n"
        changed = {*self.replaced, *self.removed, *self.before, *self.after}
        out: list[str] = []
        kept_from = 0  # the first record of the lines kept as they are since the last change
        for index, record in enumerate(records):
            if lines is not None and id(record) not in changed:
                continue
            if lines is not None and kept_from < index:
                out.append(lines.joined(kept_from, index))  # every line but the file's last ends in a break
            kept_from = index + 1
            out.extend(compact_line(new) + newline for new in self.before.get(id(record), ()))
            if id(record) in self.removed:
                pass
            elif lines is None or id(record) in self.replaced:
                out.append(compact_line(self.current(record)) + newline)
            elif lines[index].endswith("\n"):
                out.append(lines[index])
            elif index == len(records) - 1 and not self.after.get(id(record)):
                out.append(lines[index])  # the file's last line, which had no line break
            else:
                out.append(lines[index] + newline)
            out.extend(compact_line(new) + newline for new in self.after.get(id(record), ()))
        if lines is not None and kept_from < len(records):
            out.append(lines.joined(kept_from, len(records)))
        return "".join(out)


def compact_line(record: Any) -> str:
    """Compact JSON, as these Node tools write a line; U+2028 and U+2029 escaped, so no reader
    takes them for line breaks."""
    return (
        json.dumps(record, ensure_ascii=False, separators=(",", ":"))
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029")
    )
