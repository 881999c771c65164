"""The command line: `inspector scan`, `inspector fix`, `inspector undo`, `inspector report` (a report
to share, in HTML or Markdown, read as `scan` reads), `inspector hook` (the check inside an agent,
`inspector.cli.hook_command`), `inspector watch` (following the newest session as it is written),
`inspector mcp` (the MCP server, `inspector.cli.mcp_command`), and `inspector [PATH]`, which opens
the app.

With no path, `inspector` and `inspector scan` take the person's own sessions, found where Claude
Code, Codex CLI, Gemini CLI and `llm` keep them (`inspector.sources.discovery`). When there are
none, the app opens the bundled samples and says so, and `scan` says where it looked (one line on
stderr) and exits 0: nothing was found. `--samples` takes the bundled samples on purpose.

Exit codes (`inspector.cli.exit_codes`): `scan` exits 0 when nothing is found and 1 when something
is; `report` 0 once written; `fix` 0 once written with no finding left in it, 1 with findings left;
2 on an error (one line on stderr, never a traceback).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from inspector import __version__
from inspector.cli.baseline_scan import add_baseline_options, baseline_for, say_left_out, summaries_without_acknowledged
from inspector.cli.engine_options import SPARK, PathsAsTyped, add_engine_options, check_engine_options
from inspector.cli.exit_codes import COMMANDS, FAILED, FOUND, FOUND_NOTHING, epilog
from inspector.cli.hook_command import add_hook_command
from inspector.cli.mcp_command import add_mcp_command
from inspector.cli.open_app import open_app
from inspector.cli.output_formats import FOR_CI, JSON, add_output_options, chosen_output, write_for_ci
from inspector.cli.reading_options import add_reading_options, need_a_path
from inspector.cli.report_help import REPORT_HELP
from inspector.cli.suggest import OneLineParser, choices_shown, did_you_mean, missing_file_hint, one_of
from inspector.cli.watch_command import add_watch_command
from inspector.detect import kinds
from inspector.errors import InspectorError, check_session_found
from inspector.model import ServerUrl, ToolSpec
from inspector.repair import DEFAULT_TIMEOUT
from inspector.report.json_report import build_report, encode_json
from inspector.report.text_report import render_report
from inspector.scan.parallel import MAX_WORKERS, MIN_BYTES, ScanRequest, check_jobs, scan_summaries
from inspector.scan.summary import SessionSummary
from inspector.sources import location, session_files
from inspector.sources.formats.openai import NAME as OPENAI  # `fix --to openai` writes this format
from inspector.sources.schemas.table import parse_map
from inspector.support.gc_pause import collector_paused
from inspector.support.safe_text import one_line, shown_name
from inspector.support.tools_file import load_tools_file

if TYPE_CHECKING:
    pass


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line and return its exit code."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    if not arguments or (arguments[0] not in COMMANDS and arguments[0] not in ("-h", "--help", "--version")):
        if arguments and _mistyped_command(arguments[0]):
            _fail(f"{arguments[0]}: no such command or file{did_you_mean(arguments[0], COMMANDS)}")
            return FAILED
        try:
            return open_app(arguments)
        except InspectorError as error:
            _fail(str(error))
            return FAILED
    parser = build_parser()
    args = parser.parse_args(arguments)
    try:
        return args.run(args)
    except InspectorError as error:
        _fail(str(error) + _hint(args))
        return FAILED
    except KeyboardInterrupt:
        _fail("interrupted")
        return FAILED
    except BrokenPipeError:
        return FAILED


def _mistyped_command(word: str) -> bool:
    """Whether `word`, given where a command or the app's path goes, is a command mistyped: close to
    one, and neither an option, a file nor a server's URL."""
    if word.startswith("-") or "://" in word or did_you_mean(word, COMMANDS) == "":
        return False
    try:
        return not os.path.lexists(word)
    except ValueError:  # a NUL in it: no file's name
        return False


def build_parser() -> argparse.ArgumentParser:
    """The parser of the commands (`scan`, `report`, `fix`, `undo`, `hook`, `watch`, `mcp`); the app has its own (`open_app`)."""
    parser = OneLineParser(
        prog="inspector",
        description="Find and repair broken LLM tool calls in agent sessions.",
        epilog="inspector [PATH] opens the app on a session file, a directory of them "
        "or a database (a PostgreSQL one by its URL) (default: your own sessions, where each agent keeps them; "
        "--samples: the bundled samples); it also takes --session ID, "
        "--execute CMD, and scan's --tools FILE, --format NAME and "
        "--table T --map ... for a database's own table.",
    )
    parser.add_argument("--version", action="version", version=f"inspector {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    scan = commands.add_parser(
        "scan", help="report suspect turns in session files or directories", epilog=epilog("scan")
    )
    _scan_options(scan)
    add_output_options(scan)
    scan.add_argument(
        "--unknowns",
        action="store_true",
        help="instead of findings, list the record types and keys the readers do not know, by format "
        "and the version that wrote them (exit 1 when there are any)",
    )
    add_baseline_options(scan)
    add_engine_options(scan)
    scan.set_defaults(run=_scan)

    report = commands.add_parser(
        "report",
        help="write a report to share: one HTML page or Markdown, with the flagged turns and their repairs",
        description=REPORT_HELP,
        epilog=epilog("report"),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _scan_options(report)
    report.add_argument("--html", metavar="OUT", help="write the report as one self-contained HTML page (- for stdout)")
    report.add_argument("--markdown", metavar="OUT", help="write the report as Markdown (- for stdout)")
    report.add_argument("--redact", action="store_true", help="mask secrets and e-mail addresses (the patterns above)")
    report.add_argument("--force", action="store_true", help="replace OUT if it exists (only ever a regular file)")
    report.set_defaults(run=_report)

    fix = commands.add_parser(
        "fix",
        help="apply fixes and write the repaired session with an audit record",
        usage="inspector fix PATH --accept KINDS (-o OUT | --in-place) [options]",
        epilog=epilog("fix"),
    )
    fix.add_argument(
        "path",
        type=location,
        metavar="PATH",
        help="the session file or database to repair (a PostgreSQL database by its URL, in place only)",
    )
    fix.add_argument(
        "--accept",
        metavar="KINDS",
        help=f"'all' or a comma-separated list of kinds: {', '.join(kinds())} (required; "
        "without it, one line names the kinds found)",
    )
    where = fix.add_mutually_exclusive_group()  # one of them is required: `run_fix` says so in one line
    where.add_argument("-o", "--output", type=Path, metavar="OUT", help="write the repaired session here")
    where.add_argument("--in-place", action="store_true", help="replace PATH, after saving a copy as PATH.bak")
    fix.add_argument(
        "--to",
        type=one_of([OPENAI], "format to write"),
        metavar=choices_shown([OPENAI]),
        help="write the repaired sessions as OpenAI Chat Completions JSON "
        "(JSON Lines for several) instead of the input's format, naming in one line what could not be carried",
    )
    fix.add_argument("--force", action="store_true", help="replace OUT if it exists (only ever a regular file)")
    fix.add_argument(
        "--allow-triggers", action="store_true", help="let the database's own triggers run on what the fix writes"
    )
    fix.add_argument(
        "--execute",
        metavar="CMD",
        help="run each recovered call through CMD (no shell; the call as JSON on "
        "its stdin) and record its stdout as the call's result",
    )
    fix.add_argument(
        "--execute-timeout",
        type=float,
        metavar="SECONDS",
        help=f"stop CMD after this long and record an error result (default {DEFAULT_TIMEOUT:g})",
    )
    _common_options(fix)
    fix.set_defaults(run=_fix)

    undo = commands.add_parser(
        "undo", help="revert fixes recorded in a database's own audit (inspector_fixes)", epilog=epilog("undo")
    )
    undo.add_argument(
        "target", type=location, metavar="TARGET", help="an SQLite history, or a PostgreSQL database's URL"
    )
    which = undo.add_mutually_exclusive_group()
    which.add_argument(
        "--fix",
        type=int,
        metavar="ID",
        help="the fix with this id in inspector_fixes (and those written "
        "with it to the same conversation); default: the last fix's",
    )
    which.add_argument("--since", metavar="TIME", help="every fix applied since TIME (ISO 8601, UTC unless it says)")
    undo.add_argument(
        "--allow-triggers", action="store_true", help="let the database's own triggers run on what the undo writes"
    )
    undo.set_defaults(run=_undo)
    add_hook_command(commands)
    add_watch_command(commands)
    add_mcp_command(commands)
    return parser


def _scan_options(parser: argparse.ArgumentParser) -> None:
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
        help="processes scanning a large SQLite history "
        f"(default: one per CPU, at most {MAX_WORKERS}, from {MIN_BYTES // 2**20} MB; "
        "1 scans in one process)",
    )
    _common_options(parser)


def _common_options(parser: argparse.ArgumentParser) -> None:
    """The options `scan` and `fix` share: how to read the input, and which session of it."""
    add_reading_options(parser)
    parser.add_argument("--session", metavar="ID", help="only the session (conversation) with this id")


def _scan(args: argparse.Namespace) -> int:
    check_engine_options(args)
    output = chosen_output(args)
    args.json = output == JSON  # what the Spark scan and the baseline read
    if output in FOR_CI and (args.unknowns or args.engine == SPARK):
        raise InspectorError(
            f"--output-format {output} reports findings of the local engine: not with --unknowns or --engine spark"
        )
    if args.unknowns:
        from inspector.cli.unknowns_command import run_unknowns  # only this report surveys the files

        if args.engine == SPARK:
            raise InspectorError("--unknowns runs on the local engine, not --engine spark")
        return run_unknowns(_reading(args).files, args.format, output == JSON, _fail)
    if args.engine == SPARK:
        from inspector.cli.spark_scan import run_spark_scan  # only a Spark scan loads Spark's modules

        return run_spark_scan(args)
    reading = _reading(args)
    summaries, errors = _summaries(args, reading) if reading.files else ([], [])
    if output == JSON:
        sys.stdout.write(encode_json(build_report(summaries, errors)) + "\n")
    elif output in FOR_CI:
        write_for_ci(output, summaries, errors)
    elif not reading.files:
        return FOUND_NOTHING
    elif summaries or not errors:  # an empty history says so: 0 sessions
        sys.stdout.write(render_report(summaries))
    return _exit_code(summaries, errors)


def _report(args: argparse.Namespace) -> int:
    """`inspector report`: the outputs checked before anything is read, then the scan, then the report written."""
    from inspector.cli.report_command import report_targets, said_written, write_reports  # only `report` renders

    targets = report_targets(args.html, args.markdown)
    reading = _reading(args)
    targets.check(reading.files, args.force)
    summaries, errors = _summaries(args, reading) if reading.files else ([], [])
    if errors and not summaries:
        return FAILED  # nothing could be read: there is nothing to report (each error said why)
    write_reports(targets, summaries, errors, args.redact, _sources_named(args, reading.files))
    said_written(targets, summaries)
    return FAILED if errors else FOUND_NOTHING  # written: a report is no check (`scan` is)


class _Reading(NamedTuple):
    """What `scan` and `report` read: the files, the extra tool definitions, a table's column map."""

    files: list[Path]
    extra: tuple[ToolSpec, ...]
    mapping: dict[str, str] | None


def _reading(args: argparse.Namespace) -> _Reading:
    """The files `scan` and `report` read, after checking their options; none, said in one line on
    stderr, when no path was given and none of the person's own sessions were found."""
    check_jobs(args.jobs)  # once, before any path: a bad option is not an error of each file
    extra = tuple(load_tools_file(args.tools)) if args.tools else ()
    mapping = parse_map(args.map) if args.map is not None else None
    paths = _scan_paths(args)
    if not paths:
        from inspector.sources.discovery import places, shown_places  # only without a path

        print(
            f"inspector: no sessions of your own found ({shown_places(places())}); give a path, or --samples",
            file=sys.stderr,
        )
    return _Reading(_expand(paths), extra, mapping)


def _summaries(args: argparse.Namespace, reading: _Reading) -> tuple[list[SessionSummary], list[str]]:
    """The summary of each session of the files read, and one error line per file that could not
    be read (printed as it happens)."""
    summaries: list[SessionSummary] = []
    errors: list[str] = []
    for path in reading.files:
        try:
            request = ScanRequest(path, args.format, reading.extra, args.table, reading.mapping)
            baseline = baseline_for(args, path, len(reading.files))
            left_out = [0]
            with collector_paused():  # a long history builds many objects and frees few
                # a history is read one conversation at a time: only what the reports need is kept
                summaries.extend(
                    scan_summaries(request, args.session, args.jobs)
                    if baseline is None
                    else summaries_without_acknowledged(request, args.session, baseline, left_out)
                )
            if baseline is not None:
                say_left_out(baseline, left_out[0])
        except InspectorError as error:
            errors.append(str(error))
            _fail(str(error) + missing_file_hint(path))
    if not errors:  # a file that could not be read may hold the session
        check_session_found(args.session, summaries, [shown_name(p) for p in _searched(args, len(reading.files))])
    return summaries, errors


def _searched(args: argparse.Namespace, files: int) -> list[Path]:
    """Where a `--session ID` not found was looked for: the paths given, the samples, or the person's sessions."""
    if args.paths:
        return args.paths
    from inspector.sources.discovery import SAMPLES  # only without a path

    return [SAMPLES] if args.samples else [Path(f"your {files:,} sessions")]


def _sources_named(args: argparse.Namespace, files: list[Path]) -> list[str]:
    """What a report says it was made from: the paths given, the samples, or the person's sessions."""
    if args.paths:
        return [str(path) for path in args.paths]
    return ["the bundled sample sessions"] if args.samples else [f"your {len(files):,} sessions"]


def _exit_code(summaries: Sequence[SessionSummary], errors: Sequence[str]) -> int:
    if errors:
        return FAILED
    return FOUND if any(summary.findings for summary in summaries) else FOUND_NOTHING


def _scan_paths(args: argparse.Namespace) -> list[Path]:
    """The paths `scan` reads: those given, the samples (`--samples`), or the person's sessions found."""
    if args.samples and args.paths:
        raise InspectorError("give paths or --samples, not both")
    if args.paths:
        return args.paths
    from inspector.sources.discovery import SAMPLES, discover  # only without a path

    if args.samples:
        return [SAMPLES]
    need_a_path(args, ("table", "map"))
    return [found.path for found in discover()]


def _fix(args: argparse.Namespace) -> int:
    from inspector.cli.fix_command import run_fix  # imported here so that `scan` never loads the writers

    return run_fix(args)


def _undo(args: argparse.Namespace) -> int:
    from inspector.cli.undo_command import run_undo  # imported here so that `scan` never loads the writers

    return run_undo(args)


def _expand(paths: Sequence[Path]) -> list[Path]:
    """Files as given; a directory stands for the session files directly inside it."""
    expanded: list[Path] = []
    for path in paths:
        if not isinstance(path, ServerUrl) and path.is_dir():
            files = session_files(path)
            if not files:
                raise InspectorError(
                    f"{shown_name(path)}: no session files (*.json, *.jsonl, *.db, *.sqlite, *.sqlite3, *.traj, "
                    "Aider's logs) in this directory"
                )
            expanded.extend(files)
        else:
            expanded.append(path)
    return expanded


def _hint(args: argparse.Namespace) -> str:
    """For an error of a command given one file that is not there (`fix`, `undo`): the closest
    file beside it, if any."""
    given = getattr(args, "path", None) or getattr(args, "target", None)
    return missing_file_hint(given)


def _fail(message: str) -> None:
    """Print one error line; what it quotes from a session or a file name is shown, never obeyed."""
    print(f"inspector: error: {one_line(message)}", file=sys.stderr)
