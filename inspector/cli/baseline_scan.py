"""`inspector scan` with a baseline (`inspector.review.baseline`): the findings a person
acknowledged in a review are left out of the count and the exit code.

A session file's (or history's) baseline is found beside it (`OUT.baseline.ndjson`, written by the
review's export) and read on its own; `--baseline FILE` names one instead (for the one PATH
scanned), `--no-baseline` reads none. A scan that leaves findings out says in one line on stderr
how many, and from which file.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from inspector.errors import InspectorError
from inspector.model import Location
from inspector.scan.parallel import ScanRequest
from inspector.scan.scanner import iter_scan
from inspector.scan.summary import SessionSummary, summarise
from inspector.support.safe_text import one_line, shown_name

if TYPE_CHECKING:
    from inspector.review.baseline import Baseline


def add_baseline_options(parser: argparse.ArgumentParser) -> None:
    """`--baseline FILE` and `--no-baseline` on `scan`."""
    which = parser.add_mutually_exclusive_group()
    which.add_argument(
        "--baseline",
        type=Path,
        metavar="FILE",
        help="leave out the findings this baseline acknowledges (default: PATH.baseline.ndjson "
        "beside the PATH scanned, which the app's export writes for the findings skipped)",
    )
    which.add_argument("--no-baseline", action="store_true", help="read no baseline: count every finding")


def baseline_for(args: argparse.Namespace, path: Location, files: int) -> Baseline | None:
    """The baseline that applies to the file at `path` (one of `files` read), if any."""
    if getattr(args, "no_baseline", True):  # `report` takes none
        return None
    from inspector.review.baseline_place import existing_baseline_for

    if args.baseline is not None:
        if files != 1:
            raise InspectorError("--baseline FILE: give the one session file or history it is about")
        return _read(args.baseline)
    if not isinstance(path, Path):
        return None
    beside = existing_baseline_for(path)
    return _read(beside) if beside is not None else None


def _read(path: Path) -> Baseline:
    """The baseline at `path`, its reader loaded only for a scan that has one."""
    from inspector.review.baseline import read_baseline

    return read_baseline(path)


def summaries_without_acknowledged(
    request: ScanRequest, only: str | None, baseline: Baseline, left_out: list[int]
) -> Iterator[SessionSummary]:
    """The summary of each session of `request.path` (only the session `only` when given), its
    findings that `baseline` acknowledges left out and counted into `left_out` (one number)."""
    source = request.open()
    by_id = source.streams  # a database's conversations are named by their ids, a file's sessions by their places
    results = iter_scan(source, request.extra_tools, only if by_id else None)
    for place, result in enumerate(results):
        if only is not None and not by_id and result.session.session_id != only:
            continue
        acknowledged = baseline.acknowledged_in(str(result.session.session_id) if by_id else place, result)
        left_out[0] += len(acknowledged)
        kept = [finding for index, finding in enumerate(result.findings) if index not in acknowledged]
        yield summarise(replace(result, findings=kept))


def say_left_out(baseline: Baseline, count: int) -> None:
    """One line on stderr: how many acknowledged findings were left out, and from which baseline."""
    several = count != 1
    print(
        one_line(
            f"inspector: {count} acknowledged finding{'s' if several else ''} left out "
            f"(not counted, as the baseline {shown_name(baseline.path)} says; --no-baseline counts {'them' if several else 'it'})"
        ),
        file=sys.stderr,
    )
