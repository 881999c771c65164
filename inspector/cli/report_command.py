"""`inspector report PATH --html OUT | --markdown OUT [--redact]`: a scan's findings as a report to
share, written where the person says, checked before anything is read (then the scan, then the
report written).

An `OUT` of `-` is the standard output (for one of the two at most). Any other `OUT` is written
whole or not at all (`support.atomic_files`: a hidden temporary file renamed into place); it is
never the input by any name (a symlink or a hard link to a file read is refused), never anything
but a regular file, and an existing one is replaced only with `--force`.
"""

from __future__ import annotations

import argparse
import os
import stat
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from inspector.cli.commands import summary
from inspector.cli.exit_codes import FAILED, FOUND_NOTHING, epilog
from inspector.cli.report_help import REPORT_HELP
from inspector.cli.session_reading import add_scan_options, reading, sources_named, summaries
from inspector.errors import InspectorError
from inspector.model import Location
from inspector.report.html_report import render_html
from inspector.report.markdown_report import render_markdown
from inspector.report.masked_view import refuse_unmasked
from inspector.report.share_view import ReportView, build_view
from inspector.scan.summary import SessionSummary
from inspector.support.atomic_files import file_mode, land, staged_bytes
from inspector.support.safe_text import one_line, shown_name

STDOUT = "-"


def add_command(commands: argparse._SubParsersAction[Any]) -> None:
    """Add `report` to the command line's `commands`."""
    report = commands.add_parser(
        "report",
        help=summary("report"),
        description=REPORT_HELP,
        epilog=epilog("report"),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_scan_options(report)
    report.add_argument("--html", metavar="OUT", help="write the report as one self-contained HTML page (- for stdout)")
    report.add_argument("--markdown", metavar="OUT", help="write the report as Markdown (- for stdout)")
    report.add_argument("--redact", action="store_true", help="mask secrets and e-mail addresses (the patterns above)")
    report.add_argument("--force", action="store_true", help="replace OUT if it exists (only ever a regular file)")
    report.set_defaults(run=_report)


def _report(args: argparse.Namespace) -> int:
    """The outputs checked before anything is read, then the scan, then the report written."""
    targets = report_targets(args.html, args.markdown)
    read = reading(args)
    targets.check(read.files, args.force)
    found, errors = summaries(args, read) if read.files else ([], [])
    if errors and not found:
        return FAILED  # nothing could be read: there is nothing to report (each error said why)
    write_reports(targets, found, errors, args.redact, sources_named(args, read.files))
    said_written(targets, found)
    return FAILED if errors else FOUND_NOTHING  # written: a report is no check (`scan` is)


@dataclass(frozen=True)
class ReportTargets:
    """Where each report goes: (renderer, OUT) pairs, OUT being a path or `-`."""

    outputs: tuple[tuple[Callable[[ReportView], str], str], ...]

    def check(self, inputs: Sequence[Location], force: bool) -> None:
        """Fail with one line, before anything is read, unless every OUT can be written: its
        directory exists, it is none of `inputs` by any name (a database on a server is no file
        here), and if it exists it is a regular file and `force` lets it be replaced."""
        files = [path for path in inputs if isinstance(path, Path)]
        read = [status for status in map(_status, files) if status is not None]
        for _, out in self.outputs:
            if out != STDOUT:
                _check_output(Path(out), read, force)


def report_targets(html: str | None, markdown: str | None) -> ReportTargets:
    """The outputs `--html` and `--markdown` name, checked: at least one, and not both the same."""
    outputs = tuple(
        (render, out) for render, out in ((render_html, html), (render_markdown, markdown)) if out is not None
    )
    if not outputs:
        raise InspectorError("report: give --html OUT or --markdown OUT (- for the standard output)")
    if html is not None and markdown is not None and (html == markdown or _same_file(Path(html), Path(markdown))):
        raise InspectorError(f"{shown_name(html)}: --html and --markdown name the same output; give each its own")
    return ReportTargets(outputs)


def said_written(targets: ReportTargets, summaries: Sequence[SessionSummary]) -> None:
    """Say in one line what was written: each OUT and the findings the report holds (on stderr
    when the report itself went to the standard output, which it alone fills)."""
    findings = sum(len(summary.findings) for summary in summaries)
    names = " and ".join("the standard output" if out == STDOUT else shown_name(out) for _, out in targets.outputs)
    line = (
        f"wrote {names}: a report of {findings} finding{'s' if findings != 1 else ''} "
        f"in {len(summaries)} session{'s' if len(summaries) != 1 else ''}"
    )
    to_stdout = any(out == STDOUT for _, out in targets.outputs)
    print(one_line(line), file=sys.stderr if to_stdout else sys.stdout)


def write_reports(
    targets: ReportTargets,
    summaries: Sequence[SessionSummary],
    errors: Sequence[str],
    redact: bool,
    sources: Sequence[str],
) -> None:
    """Render the report once for each output and write it there; with `redact`, none is written
    if any would still show a secret."""
    generated = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    view = build_view(summaries, errors, redact, sources, generated)
    pages = [(render(view), out) for render, out in targets.outputs]
    for page, out in pages if redact else ():
        refuse_unmasked(page, out)
    for page, out in pages:
        data = page.encode("utf-8", "replace")  # the renderers leave no lone surrogate: this never replaces
        if out == STDOUT:
            _print_bytes(data)
        else:
            _write(Path(out), data, replace=_status(Path(out)) is not None)


def _check_output(out: Path, read: list[os.stat_result], force: bool) -> None:
    if not out.resolve().parent.is_dir():
        raise InspectorError(f"{shown_name(out)}: its directory does not exist; nothing was written")
    if not os.path.lexists(out):
        return
    status = _status(out)
    if status is None or not stat.S_ISREG(status.st_mode):
        raise InspectorError(f"{shown_name(out)}: is not a regular file; nothing was written")
    if any((status.st_dev, status.st_ino) == (other.st_dev, other.st_ino) for other in read):
        raise InspectorError(
            f"{shown_name(out)}: is one of the sessions read (the same file by another name); "
            "nothing was written: choose another output"
        )
    if not force:
        raise InspectorError(
            f"{shown_name(out)}: exists already; nothing was written (choose another output, or --force to replace it)"
        )


def _write(out: Path, data: bytes, replace: bool) -> None:
    """Write `data` to `out` whole or not at all; a new file only where nothing has appeared meanwhile."""
    try:
        land(staged_bytes(out, data, file_mode(out)), out, replace=replace)
    except FileExistsError:
        raise InspectorError(f"{shown_name(out)}: appeared while the report was made; nothing was written") from None
    except OSError as error:
        raise InspectorError(
            f"{shown_name(out)}: cannot be written ({error.strerror or error}); nothing was written"
        ) from None


def _print_bytes(data: bytes) -> None:
    """Write UTF-8 `data` to the standard output whatever its text encoding (the report says it is UTF-8)."""
    sys.stdout.flush()
    binary = getattr(sys.stdout, "buffer", None)
    if binary is None:
        sys.stdout.write(data.decode("utf-8"))
    else:
        binary.write(data)
        binary.flush()


def _same_file(one: Path, other: Path) -> bool:
    first, second = _status(one), _status(other)
    return first is not None and second is not None and (first.st_dev, first.st_ino) == (second.st_dev, second.st_ino)


def _status(path: Path) -> os.stat_result | None:
    """The file at `path` (a symlink followed), or None when there is none."""
    try:
        return os.stat(path)
    except (OSError, ValueError):
        return None
