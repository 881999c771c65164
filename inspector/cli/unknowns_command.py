"""`inspector scan --unknowns`: instead of findings, what the readers do not know in the files
(record types and keys, by format and the version of the tool that wrote them). Exit 1 when there
is any, so a scheduled run in CI sees a tool's format change the day it ships."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from inspector.cli.exit_codes import FAILED, FOUND, FOUND_NOTHING
from inspector.errors import InspectorError
from inspector.report.json_report import encode_json
from inspector.report.unknowns_report import FileSurvey, render_unknowns, unknown_rows, unknowns_json
from inspector.sources import FORMATS, open_source
from inspector.sources.files.session_file import SessionFile
from inspector.sources.schemas import schema_named
from inspector.sources.sqlite.database import mapped_errors, reading
from inspector.sources.sqlite.history import SqliteHistory
from inspector.sources.sqlite.queries import SqliteQueries


def run_unknowns(files: Sequence[Path], format_name: str | None, as_json: bool, fail: Callable[[str], None]) -> int:
    """Survey each file (a file that cannot be read is one line through `fail`), print the report."""
    surveys: list[FileSurvey] = []
    errors: list[str] = []
    for path in files:
        try:
            surveys.append(survey_file(path, format_name))
        except InspectorError as error:
            errors.append(str(error))
            fail(str(error))
    if as_json:
        sys.stdout.write(encode_json(unknowns_json(surveys, errors)) + "\n")
    elif surveys:  # (no file at all: the line saying none was found is enough)
        sys.stdout.write(render_unknowns(surveys))
    if errors:
        return FAILED
    return FOUND if unknown_rows(surveys) else FOUND_NOTHING


def survey_file(path: Path, format_name: str | None) -> FileSurvey:
    """What the reader of `path`'s format or schema does not know in it (None for one whose reader
    offers no survey)."""
    source = open_source(path, format_name)
    if isinstance(source, SqliteHistory):
        return _database_survey(source)
    if not isinstance(source, SessionFile):
        return FileSurvey(source.format, None)
    sessions = source.all_sessions()
    survey = FORMATS[source.format].survey
    return FileSurvey(source.format, survey(sessions[0].document) if survey is not None else None)


def _database_survey(source: SqliteHistory) -> FileSurvey:
    """What the reader of a SQLite history's schema does not know in it."""
    location = source.location
    survey = schema_named(location.format).survey
    if survey is None:
        return FileSurvey(location.format, None)
    with reading(source.path) as conn, mapped_errors(source.path, "surveying the records"):
        return FileSurvey(location.format, survey(SqliteQueries(conn), location))
