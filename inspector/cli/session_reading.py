"""What `scan` and `report` read, and how: their shared options, the files they take (the paths
given, the bundled samples, or the person's own sessions found), and the summary of each session
read (or taken from the search index, `cached_scan`), with one error line per file that could not be."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from inspector.cli.baseline_scan import baseline_for, say_left_out, summaries_without_acknowledged
from inspector.cli.cached_scan import CachedScan, add_cache_options, cached_scan
from inspector.cli.engine_options import PathsAsTyped
from inspector.cli.error_line import say_error
from inspector.cli.exit_codes import FAILED, FOUND, FOUND_NOTHING
from inspector.cli.reading_options import add_reading_options, need_a_path
from inspector.cli.suggest import missing_file_hint
from inspector.errors import InspectorError, check_session_found
from inspector.model import ServerUrl, ToolSpec
from inspector.scan.file_pool import MIN_POOL_BYTES, FilePool
from inspector.scan.parallel import MAX_WORKERS, MIN_BYTES, ScanRequest, check_jobs
from inspector.scan.summary import SessionSummary
from inspector.sources import folder_sessions, no_sessions_in
from inspector.support.counted_words import counted
from inspector.support.gc_pause import collector_paused
from inspector.support.safe_text import shown_name
from inspector.support.tools_file import load_tools_file

if TYPE_CHECKING:
    from inspector.review.baseline import Baseline
    from inspector.search.fingerprint import Fingerprint


def add_scan_options(parser: argparse.ArgumentParser) -> None:
    """What `scan` and `report` read, and how."""
    parser.add_argument(
        "paths",
        nargs="*",
        action=PathsAsTyped,
        metavar="PATH",
        help="a session file, a directory of "
        "them, or a PostgreSQL database's URL (postgresql://USER@HOST:PORT/DB) (default: your own "
        "sessions, found where each agent keeps them)",
    )
    parser.add_argument("--samples", action="store_true", help="read the bundled sample sessions")
    parser.add_argument(
        "-j",
        "--jobs",
        type=int,
        metavar="N",
        help="processes scanning many files, or a large SQLite history "
        f"(default: one per CPU, at most {MAX_WORKERS}, from {MIN_POOL_BYTES // 2**20} MB of files to read, "
        f"or a history of {MIN_BYTES // 2**20} MB; 1 scans in one process)",
    )
    add_common_options(parser)
    add_cache_options(parser)


def add_common_options(parser: argparse.ArgumentParser) -> None:
    """The options `scan` and `fix` share: how to read the input, and which session of it."""
    add_reading_options(parser)
    parser.add_argument("--session", metavar="ID", help="only the session (conversation) with this id")


class Reading(NamedTuple):
    """What `scan` and `report` read: the files, the extra tool definitions, a table's column map."""

    files: list[Path]
    extra: tuple[ToolSpec, ...]
    mapping: dict[str, str] | None


def reading(args: argparse.Namespace) -> Reading:
    """The files `scan` and `report` read, after checking their options; none, said in one line on
    stderr, when no path was given and none of the person's own sessions were found."""
    check_jobs(args.jobs)  # once, before any path: a bad option is not an error of each file
    extra = tuple(load_tools_file(args.tools)) if args.tools else ()
    mapping = _parsed_map(args.map) if args.map is not None else None
    paths = _scan_paths(args)
    if not paths:
        from inspector.sources.discovery import places, shown_places  # only without a path

        print(
            f"inspector: no sessions of your own found ({shown_places(places())}); give a path, or --samples",
            file=sys.stderr,
        )
    return Reading(_expand(paths), extra, mapping)


def _parsed_map(value: str) -> dict[str, str]:
    """The column map `--map` gives (its module loads only when a history's table is mapped)."""
    from inspector.sources.schemas.table import parse_map

    return parse_map(value)


def summaries(args: argparse.Namespace, read: Reading) -> tuple[list[SessionSummary], list[str]]:
    """The summary of each session of the files read, and one error line per file that could not
    be read (printed in the files' order, as each is reached). The files to read are scanned on
    every CPU when they are many (`file_pool`)."""
    found: list[SessionSummary] = []
    errors: list[str] = []
    scan = cached_scan(args, read.extra, read.mapping)
    try:
        steps = [
            _step(args, scan, ScanRequest(path, args.format, read.extra, args.table, read.mapping), read)
            for path in read.files
        ]
        pool = FilePool([step.request for step in steps if step.reads], args.session, args.jobs)
        try:
            read_number = 0
            for step in steps:
                try:
                    if step.reads:
                        result = pool.scan(read_number, step.request)
                        read_number += 1
                        found.extend(result.summaries)
                        if result.error is not None:
                            raise InspectorError(result.error)
                        scan.keep(step.request.path, step.fingerprint, result.summaries)
                    else:
                        found.extend(_without_reading(args, step))
                except InspectorError as error:
                    errors.append(str(error))
                    say_error(str(error) + missing_file_hint(step.request.path))
        finally:
            pool.close()
    finally:
        scan.close(args.cache_stats)
    if not errors:  # a file that could not be read may hold the session
        check_session_found(args.session, found, [shown_name(p) for p in _searched(args, len(read.files))])
    return found, errors


class _Step(NamedTuple):
    """How one file's sessions are had: taken from the index (`kept`), read with its baseline, or
    read (`reads`, with the file's fingerprint before); `error` when even that could not be said."""

    request: ScanRequest
    kept: list[SessionSummary] | None = None
    baseline: Baseline | None = None
    fingerprint: Fingerprint | None = None
    error: str | None = None

    @property
    def reads(self) -> bool:
        """Whether the file is read as it is, its sessions kept in the index."""
        return self.kept is None and self.baseline is None and self.error is None


def _step(args: argparse.Namespace, scan: CachedScan, request: ScanRequest, read: Reading) -> _Step:
    """How the file of `request` is to be had (see `_Step`)."""
    try:
        baseline = baseline_for(args, request.path, len(read.files))
    except InspectorError as error:
        return _Step(request, error=str(error))
    if baseline is not None:
        scan.read += 1
        return _Step(request, baseline=baseline)
    kept = scan.taken(request.path)
    return _Step(request, kept=kept, fingerprint=None if kept is not None else scan.fingerprint(request.path))


def _without_reading(args: argparse.Namespace, step: _Step) -> list[SessionSummary]:
    """The summaries of a file not read as it is: taken from the index, or read with its baseline
    (those it acknowledges left out); its error, raised."""
    if step.error is not None:
        raise InspectorError(step.error)
    if step.kept is not None:
        return step.kept
    assert step.baseline is not None
    left_out = [0]
    with collector_paused():  # a long history builds many objects and frees few
        kept = list(summaries_without_acknowledged(step.request, args.session, step.baseline, left_out))
    say_left_out(step.baseline, left_out[0])
    return kept


def sources_named(args: argparse.Namespace, files: list[Path]) -> list[str]:
    """What a report says it was made from: the paths given, the samples, or the person's sessions."""
    if args.paths:
        return [str(path) for path in args.paths]
    return ["the bundled sample sessions"] if args.samples else [f"your {counted(len(files), 'session', 'sessions')}"]


def exit_code(found: Sequence[SessionSummary], errors: Sequence[str]) -> int:
    """`scan`'s exit code: 2 when a file could not be read, else 1 when something was found."""
    if errors:
        return FAILED
    return FOUND if any(summary.findings for summary in found) else FOUND_NOTHING


def _searched(args: argparse.Namespace, files: int) -> list[Path]:
    """Where a `--session ID` not found was looked for: the paths given, the samples, or the person's sessions."""
    if args.paths:
        return list(args.paths)
    from inspector.sources.discovery import SAMPLES  # only without a path

    return [SAMPLES] if args.samples else [Path(f"your {counted(files, 'session', 'sessions')}")]


def _scan_paths(args: argparse.Namespace) -> list[Path]:
    """The paths `scan` reads: those given, the samples (`--samples`), or the person's sessions
    found, each followed by its subagents' transcripts."""
    if args.samples and args.paths:
        raise InspectorError("give paths or --samples, not both")
    if args.paths:
        return list(args.paths)
    from inspector.sources.discovery import SAMPLES, discover, subagents_of  # only without a path

    if args.samples:
        return [SAMPLES]
    need_a_path(args, ("table", "map"))
    return [path for found in discover() for path in (found.path, *subagents_of(found))]


def _expand(paths: Sequence[Path]) -> list[Path]:
    """Files as given; a directory stands for its sessions (`folder_sessions`)."""
    expanded: list[Path] = []
    for path in paths:
        if not isinstance(path, ServerUrl) and path.is_dir():
            files = folder_sessions(path)
            if not files:
                raise InspectorError(no_sessions_in(path))
            expanded.extend(files)
        else:
            expanded.append(path)
    return expanded
