"""`inspector fix`: repair a session file or an SQLite history and write the result beside an
audit of every change, optionally running each recovered call through the user's executor first.

A history is fixed one conversation at a time (`inspector.sources.sqlite.write`); session files
are read whole, repaired and exported (`inspector.repair.write`).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Iterable, Iterator

from inspector.catalogue import load_tools_file
from inspector.detect import kinds
from inspector.errors import FOUND, FOUND_NOTHING, InspectorError, check_session_found
from inspector.repair.execute import (DEFAULT_TIMEOUT, ExecutionResult, check_command, execute_call, execute_findings,
                               recovered_calls, results_by_call)
from inspector.repair.write import backup, describe_audit, export
from inspector.sources.sqlite.database import is_sqlite
from inspector.sources.sqlite.table import parse_map
from inspector.sources.sqlite.write import fix_history
from inspector.repair.apply import accepted_findings, apply_fixes
from inspector.scan.scanner import ScanResult, iter_scan


def run_fix(args: argparse.Namespace) -> int:
    """`inspector fix`: apply the accepted kinds' fixes and write the repaired sessions (or
    history) with their audit; the exit code."""
    accepted = _accepted_kinds(args.accept)
    timeout = _execute_timeout(args)
    extra = load_tools_file(args.tools) if args.tools else []
    source: Path = args.path
    out = source if args.in_place else args.output
    if not args.in_place and out.resolve() == source.resolve():
        raise InspectorError(f"{out}: is the input; use --in-place to replace it (a backup is kept)")
    unfixable = _Unfixable(accepted)
    if is_sqlite(source):  # one conversation at a time
        found, fixed = _fix_history(args, extra, accepted, timeout, unfixable)
        audit = out
    else:
        results = list(_scan_path(source, args, extra))
        check_session_found(args.session, results, [source])
        repaired, applied, executions = [], [], []
        for result in unfixable.passing(results):
            chosen = accepted_findings(result.findings, accepted)
            ran = _reported(execute_findings(args.execute, result.session, chosen, timeout)) if args.execute else []
            executions.extend(ran)
            session, fixes = apply_fixes(result.session, chosen, results_by_call(ran))
            repaired.append(session)
            applied.extend((result.session, fix) for fix in fixes)
        if args.in_place:
            saved = backup(source)
            print(f"backup: {saved}")
        audit = export(repaired, applied, out, executions)
        found, fixed = sum(len(result.findings) for result in results), len(applied)
    print(f"{source}: {found} finding{'s' if found != 1 else ''}, {fixed} fix{'es' if fixed != 1 else ''} applied")
    print(f"wrote {out}")
    print(f"audit: {describe_audit(audit)}" + ("" if fixed else " (nothing was changed)"))
    if unfixable.count:
        several = unfixable.count != 1
        print(f"{unfixable.count} finding{'s' if several else ''} of the accepted kinds {'have' if several else 'has'} "
              f"no automatic fix: review {'them' if several else 'it'} in the app (inspector {source})")
    return FOUND if found else FOUND_NOTHING


class _Unfixable:
    """Counts the findings of the accepted kinds that have no automatic fix and want a person's
    eye (warnings and errors: an `info` tool error is what the tool said), as results pass by (a
    history's conversations are read once, as they are fixed)."""

    def __init__(self, accepted: set[str]) -> None:
        self.accepted = accepted
        self.count = 0

    def passing(self, results: Iterable[ScanResult]) -> Iterator[ScanResult]:
        for result in results:
            self.count += sum(finding.fix is None and finding.kind in self.accepted and finding.severity != "info"
                              for finding in result.findings)
            yield result


def _fix_history(args: argparse.Namespace, extra: list, accepted: set[str], timeout: float,
                 unfixable: _Unfixable) -> tuple[int, int]:
    """Fix an SQLite history one conversation at a time (only the one of `--session` is read);
    the number of findings and of fixes applied. With `--execute`, a first read collects the
    accepted recovered calls of every conversation, which then run before the database is copied
    or locked (the executor may write to it, as seed 000's `save_memory` does); only the
    executor's answers are kept for the write."""
    source: Path = args.path
    first = next(_scan_path(source, args, extra), None)  # reading one conversation checks the input before anything
    check_session_found(args.session, [] if first is None else [first], [source])
    executions = _execute_history(args, extra, accepted, timeout) if args.execute else []
    read_from = backup(source) if args.in_place else source  # in place, read the backup, write the file
    if args.in_place:
        print(f"backup: {read_from}")
    out = source if args.in_place else args.output
    results = unfixable.passing(_scan_path(read_from, args, extra))
    return fix_history(read_from, results, accepted, out, args.in_place, executions)


def _execute_history(args: argparse.Namespace, extra: list, accepted: set[str], timeout: float) -> list[ExecutionResult]:
    """Read the whole history keeping only the accepted recovered calls, then run them (so a
    history that cannot be read runs nothing)."""
    pending = [(result.session.session_id, finding.turn, call) for result in _scan_path(args.path, args, extra)
               for finding, call in recovered_calls(accepted_findings(result.findings, accepted))]
    return _reported(execute_call(args.execute, call, session_id, turn, timeout) for session_id, turn, call in pending)


def _execute_timeout(args: argparse.Namespace) -> float:
    """The executor's time-out, after checking the options before anything runs."""
    if args.execute is None:
        if args.execute_timeout is not None:
            raise InspectorError("--execute-timeout: only applies with --execute CMD")
        return DEFAULT_TIMEOUT
    timeout = DEFAULT_TIMEOUT if args.execute_timeout is None else args.execute_timeout
    if not timeout > 0:
        raise InspectorError(f"--execute-timeout: {args.execute_timeout:g} is not a positive number of seconds")
    check_command(args.execute)
    out = args.path if args.in_place else args.output
    if not out.resolve().parent.is_dir():
        raise InspectorError(f"{out}: its directory does not exist; nothing was run")
    return timeout


def _reported(executions: Iterable[ExecutionResult]) -> list[ExecutionResult]:
    """Run the executions (a lazy iterable), printing one line per call as it finishes."""
    ran = []
    for execution in executions:
        print(execution.describe(), flush=True)
        ran.append(execution)
    return ran


def _scan_path(path: Path, args: argparse.Namespace, extra: list) -> Iterator[ScanResult]:
    """The scan results of one input path with the session and table options applied."""
    mapping = parse_map(args.map) if args.map is not None else None
    return iter_scan(path, args.format, extra, args.table, mapping, args.session)


def _accepted_kinds(value: str) -> set[str]:
    """The kinds `--accept` names ('all' or a comma-separated list), checked."""
    known = kinds()
    if value.strip() == "all":
        return set(known)
    chosen = {kind.strip() for kind in value.split(",") if kind.strip()}
    unknown = sorted(chosen - set(known))
    if unknown or not chosen:
        named = ", ".join(unknown) or repr(value)
        raise InspectorError(f"--accept: unknown kind {named} (choose 'all' or from: {', '.join(known)})")
    return chosen
