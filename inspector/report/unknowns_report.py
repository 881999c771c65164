"""The report of `scan --unknowns`: what the readers do not know across the files scanned, by
format and the version of the tool that wrote it, so a tool's format change is seen the day it
ships. Text for a person, and a JSON object (schema 1) for a drift check in CI."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from inspector.sources.unread_records import Unread
from inspector.support.safe_text import one_line

SCHEMA = 1


@dataclass(frozen=True)
class FileSurvey:
    """One file read for `--unknowns`: its format, and what its reader does not know (None when
    the format offers no survey)."""

    format: str
    unread: tuple[Unread, ...] | None


@dataclass(frozen=True)
class UnknownRow:
    """Records of one kind no reader knows, over every file: `count` of them in `files` files."""

    format: str
    version: str | None
    record_type: str
    key: str | None
    count: int
    files: int


def unknown_rows(surveys: Sequence[FileSurvey]) -> list[UnknownRow]:
    """The counts of every file summed, by format, version, record type and key, in the order met."""
    counts: dict[tuple[str, str | None, str, str | None], list[int]] = {}
    for survey in surveys:
        for unread in survey.unread or ():
            total = counts.setdefault((survey.format, unread.version, unread.record_type, unread.key), [0, 0])
            total[0] += unread.count
            total[1] += 1
    return [UnknownRow(*key, count, files) for key, (count, files) in counts.items()]


def not_surveyed(surveys: Sequence[FileSurvey]) -> dict[str, int]:
    """How many files of each format whose reader offers no survey were read."""
    formats: dict[str, int] = {}
    for survey in surveys:
        if survey.unread is None:
            formats[survey.format] = formats.get(survey.format, 0) + 1
    return formats


def render_unknowns(surveys: Sequence[FileSurvey]) -> str:
    """The text report: one block per format and version, one line per record type or key."""
    rows = unknown_rows(surveys)
    read = len(surveys)
    lines = []
    if rows:
        lines.append(
            f"Records the readers do not know, by format and the version that wrote them ({_files(read)} read):"
        )
        shown: tuple[str, str | None] | None = None
        for row in rows:
            if (row.format, row.version) != shown:
                shown = (row.format, row.version)
                lines.append(f"  {row.format} {one_line(row.version or '(version not stated)')}")
            lines.append(f"    {_what(row):<56} {row.count:>7,} in {_files(row.files)}")
        lines.append("They are kept in place as they are; a reader that knows them is a change to its format module.")
    else:
        lines.append(f"Every record of the {_files(read)} read is known to its reader.")
    skipped = not_surveyed(surveys)
    if skipped:
        formats = ", ".join(f"{name} {count}" for name, count in skipped.items())
        lines.append(
            f"Not looked into: {_files(sum(skipped.values()))} of formats whose readers list no unknowns ({formats})."
        )
    return "\n".join(lines) + "\n"


def unknowns_json(surveys: Sequence[FileSurvey], errors: Sequence[str]) -> dict[str, Any]:
    """The JSON report: the rows, the files not looked into by format, and the files not read."""
    return {
        "schema": SCHEMA,
        "files": len(surveys),
        "unknowns": [
            {
                "format": row.format,
                "version": row.version,
                "record_type": row.record_type,
                "key": row.key,
                "count": row.count,
                "files": row.files,
            }
            for row in unknown_rows(surveys)
        ],
        "not_surveyed": not_surveyed(surveys),
        "errors": list(errors),
    }


def _what(row: UnknownRow) -> str:
    kind = one_line(repr(row.record_type)) if row.record_type else "(no type)"
    if row.key is None:
        return f"records of type {kind}"
    return f"key {one_line(repr(row.key))} of {kind} records"


def _files(count: int) -> str:
    return f"{count:,} file{'s' * (count != 1)}"
