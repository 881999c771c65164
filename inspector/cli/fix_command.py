"""`inspector fix`: repair the sessions of a file or a history and write them with an audit of
every change, optionally running each recovered call through the user's executor first.

Every kind of storage takes the same road: the sessions are scanned one at a time as they are
written (`inspector.repair.write.write_repaired`), so a history is fixed with memory for one
conversation (a server's, for one batch of the conversations with findings). With `--execute`, a first read collects the accepted recovered calls, which run
before anything is copied or locked (the executor may write to the same database, as a chat app's
`save_memory` does); only the executor's answers are kept for the write (and a file's scanned
sessions, which it holds anyway: they are not scanned again). Where it will write is
checked before any of that (`check_targets`): `--force` lets an existing `-o OUT` be replaced,
`--allow-triggers` lets a database's own triggers run on what is written. `--to openai` writes the
repaired sessions as OpenAI Chat Completions JSON instead of the input's format (any source, never
in place), and says in one line what OpenAI messages could not carry.
"""

from __future__ import annotations

import argparse
import shlex
from collections.abc import Iterable, Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

from inspector.cli.commands import summary
from inspector.cli.exit_codes import FOUND, FOUND_NOTHING, epilog
from inspector.cli.session_reading import add_common_options
from inspector.cli.suggest import choices_shown, did_you_mean, one_of
from inspector.detect import kinds
from inspector.detect.secret import KIND as SECRET
from inspector.errors import InspectorError, check_session_found
from inspector.model import INFO, WARNING, Location, ToolCall, ToolSpec
from inspector.repair import DEFAULT_TIMEOUT
from inspector.repair.apply import accepted_findings
from inspector.repair.execute import ExecutionResult, check_command, execute_call, recovered_calls
from inspector.repair.write import Chosen, check_targets, write_repaired
from inspector.scan.scanner import ScanResult, iter_scan
from inspector.sources import location, open_source
from inspector.sources.base import Source
from inspector.sources.files.session_file import SessionFile
from inspector.sources.formats.openai import NAME as OPENAI  # `fix --to openai` writes this format
from inspector.sources.schemas.table import parse_map
from inspector.support.counted_words import counted
from inspector.support.quick_exit import hold
from inspector.support.safe_text import neutralise, one_line, shown_name
from inspector.support.tools_file import load_tools_file

MAX_TIMEOUT = 86400.0  # seconds: a day; an executor's call is never meant to run longer


def add_command(commands: argparse._SubParsersAction[Any]) -> None:
    """Add `fix` to the command line's `commands`."""
    fix = commands.add_parser(
        "fix",
        help=summary("fix"),
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
    add_common_options(fix)
    fix.set_defaults(run=run_fix)


def run_fix(args: argparse.Namespace) -> int:
    """`inspector fix`: apply the accepted kinds' fixes and write the repaired sessions (or
    history) with their audit; the exit code."""
    _check_required(args)
    accepted = _accepted_kinds(args.accept)
    timeout = _execute_timeout(args)
    extra = tuple(load_tools_file(args.tools)) if args.tools else ()
    path: Location = args.path
    out: Location = path if args.in_place else _copy_target(args.output, path)
    source = open_source(path, args.format, args.table, parse_map(args.map) if args.map is not None else None)
    check_targets(source, out, args.in_place, args.force, args.to)  # before anything runs or is written
    with closing(iter_scan(source, extra, args.session)) as results:  # reading one session checks the input first
        first = next(results, None)
    check_session_found(args.session, [] if first is None else [first], [shown_name(path)])
    checked = [] if first is None else [first]  # a file's sessions are held: those scanned are not scanned twice
    executions = _execute(args, source, extra, accepted, timeout, checked) if args.execute else []
    counts = _Counts(accepted)
    if args.in_place and not executions and _nothing_to_fix(args, source, extra, accepted, checked):
        return _left_as_it_was(path, counts, checked)

    def chosen(reading: Source) -> Iterator[Chosen]:
        for result in counts.passing(iter_scan(reading, extra, args.session, scanned=checked)):
            yield Chosen(result.session, accepted_findings(result.findings, accepted))

    outcome = write_repaired(source, out, chosen, args.in_place, executions, args.force, args.allow_triggers, args.to)
    if not source.streams:  # a file read whole, its repair written: the command line may end without freeing it
        hold(source)
    if outcome.backup is not None:
        command = f"inspector undo {neutralise(shlex.quote(str(path)))}"
        undone = f" ({command} undoes this fix)" if outcome.backup.is_file() else ""
        _say(f"backup: {shown_name(outcome.backup)}{undone}")
    fixed = outcome.applied
    _say(f"{shown_name(path)}: {counts.found} finding{'s' if counts.found != 1 else ''}")
    left = max(0, counts.found - fixed) + outcome.secrets_left  # a secret its storage still holds is left
    _say(
        f"wrote {shown_name(out)}"
        + _written_as(source, args.to, fixed)
        + f": {_fixes(fixed)} applied, {counts.left(left)}"
    )
    _say(f"audit: {shown_name(outcome.audit_shown)}" + ("" if fixed else " (nothing was changed)"))
    if outcome.left_out:
        _say(outcome.left_out)
    if fixed and counts.warned:
        warned = min(counts.warned, fixed)
        _say(
            f"{counted(warned, 'of the fixes applied is for a warning', 'of the fixes applied are for warnings')} "
            "(a repair that guessed, such as cut-off arguments completed, or a finding less sure): check "
            f"{'its turn' if warned == 1 else 'their turns'} (the audit names each, with its message)"
        )
    _say_unfixable(counts, path)
    return FOUND if left else FOUND_NOTHING


def _nothing_to_fix(
    args: argparse.Namespace,
    source: Source,
    extra: tuple[ToolSpec, ...],
    accepted: set[str],
    checked: list[ScanResult],
) -> bool:
    """Whether no finding of the accepted kinds in a session file has an automatic fix: then
    writing it in place would only copy it. Its sessions are held once read: their results join
    `checked`, for a write not to scan them again. A history is read again under the writer's
    lock, so it is not read here (False)."""
    if not isinstance(source, SessionFile):
        return False
    return not any(
        finding.fix is not None
        for result in _scanned_once(source, extra, args.session, checked)
        for finding in accepted_findings(result.findings, accepted)
    )


def _left_as_it_was(path: Location, counts: _Counts, results: list[ScanResult]) -> int:
    """Say that a session file with nothing to fix was left as it was (no backup, no audit: nothing
    was written); the exit code."""
    for _ in counts.passing(results):
        pass
    _say(f"{shown_name(path)}: {counts.found} finding{'s' if counts.found != 1 else ''}")
    _say(f"nothing to fix: {shown_name(path)} left as it was (no backup or audit written), {counts.left(counts.found)}")
    _say_unfixable(counts, path)
    return FOUND if counts.found else FOUND_NOTHING


def _say_unfixable(counts: _Counts, path: Location) -> None:
    """The line naming the findings of the accepted kinds that have no automatic fix, if any."""
    if counts.unfixable:
        several = counts.unfixable != 1
        _say(
            f"{counts.unfixable} finding{'s' if several else ''} of the accepted kinds {'have' if several else 'has'} "
            f"no automatic fix: review {'them' if several else 'it'} in the app (inspector {shown_name(path)})"
        )


def _fixes(count: int) -> str:
    return f"{count} fix{'es' if count != 1 else ''}"


def _written_as(source: Source, to: str | None, fixed: int) -> str:
    """What `wrote OUT` adds: the format written into, or that repaired conversations are forks."""
    if to is not None:
        return f" (as {to})"
    return (
        " (each repaired conversation is a new fork; the original is kept)"
        if fixed and source.capabilities.forks
        else ""
    )


def _say(line: str) -> None:
    """Print one line of the command's output at once; what it quotes from a session or a file
    name (paths, tool names, an executor's words) is shown, never obeyed by the terminal."""
    print(one_line(line), flush=True)


class _Counts:
    """Counts the findings, and those of the accepted kinds that have no automatic fix and want a
    person's eye (warnings and errors: an `info` tool error is what the tool said), as results pass
    by (each session is read once, as it is fixed)."""

    def __init__(self, accepted: set[str]) -> None:
        self.accepted = accepted
        self.found = 0
        self.unfixable = 0
        self.not_accepted: dict[str, int] = {}  # kind -> findings of it, of the kinds not accepted
        self.no_fix: dict[str, int] = {}  # kind -> findings of it with no automatic fix, of the kinds accepted
        self.warned = 0  # findings of the kinds accepted with a fix, that are warnings (a repair may have guessed)

    def passing(self, results: Iterable[ScanResult]) -> Iterator[ScanResult]:
        """The results, counted as they pass."""
        for result in results:
            self.found += len(result.findings)
            for finding in result.findings:
                if finding.kind not in self.accepted:
                    self.not_accepted[finding.kind] = self.not_accepted.get(finding.kind, 0) + 1
                elif finding.fix is None:
                    self.no_fix[finding.kind] = self.no_fix.get(finding.kind, 0) + 1
                    self.unfixable += finding.severity != INFO
                elif finding.severity == WARNING:
                    self.warned += 1
            yield result

    def left(self, count: int) -> str:
        """What the output still holds: `count` findings, with the kinds not accepted among them and
        those of the kinds accepted that have no automatic fix."""
        if not count:
            return "no finding left"
        parts = [
            f"{what}: {', '.join(f'{kind} {number}' for kind, number in sorted(kinds.items()))}"
            for what, kinds in (("not accepted", self.not_accepted), ("no automatic fix", self.no_fix))
            if kinds
        ]
        return f"{count} finding{'s' if count != 1 else ''} left" + (f" ({'; '.join(parts)})" if parts else "")


def _execute(
    args: argparse.Namespace,
    source: Source,
    extra: tuple[ToolSpec, ...],
    accepted: set[str],
    timeout: float,
    checked: list[ScanResult],
) -> list[ExecutionResult]:
    """Read every session keeping only the accepted recovered calls, then run them (so a source
    that cannot be read runs nothing), printing one line per call as it finishes. A file's
    results join `checked`, for the write not to scan its sessions again (a history's are read
    again under the writer's lock: only the calls are kept, never every session's results)."""
    pending: list[tuple[str | None, int, ToolCall]] = []
    for result in _scanned_once(source, extra, args.session, checked):
        pending.extend(
            (result.session.session_id, finding.turn, call)
            for finding, call in recovered_calls(accepted_findings(result.findings, accepted))
        )
    ran = []
    for session_id, turn, call in pending:
        execution = execute_call(args.execute, call, session_id, turn, timeout)
        _say(execution.describe())
        ran.append(execution)
    return ran


def _scanned_once(
    source: Source, extra: tuple[ToolSpec, ...], only: str | None, checked: list[ScanResult]
) -> Iterator[ScanResult]:
    """Every session's results (those in `checked` not scanned again); a session file's new ones
    join `checked`, its sessions being held (a history's are read again under the writer's lock:
    they are not kept)."""
    held = isinstance(source, SessionFile)
    already = {id(result) for result in checked}
    for result in iter_scan(source, extra, only, scanned=checked):
        if held and id(result) not in already:
            checked.append(result)
        yield result


def _copy_target(output: Path, path: Location) -> Path:
    """The new file `-o OUT` names, refused in one line when it is the input itself."""
    if isinstance(path, Path) and output.resolve() == path.resolve():
        raise InspectorError(f"{shown_name(output)}: is the input; use --in-place to replace it (a backup is kept)")
    return output


def _execute_timeout(args: argparse.Namespace) -> float:
    """The executor's time-out, after checking the options before anything runs."""
    if args.execute is None:
        if args.execute_timeout is not None:
            raise InspectorError("--execute-timeout: only applies with --execute CMD")
        return DEFAULT_TIMEOUT
    timeout = DEFAULT_TIMEOUT if args.execute_timeout is None else args.execute_timeout
    if not 0 < timeout <= MAX_TIMEOUT:  # also refuses nan; inf and 1e12 would overflow the subprocess's clock
        raise InspectorError(
            f"--execute-timeout: {args.execute_timeout:g} is not a positive number of seconds "
            f"up to {MAX_TIMEOUT:g} (a day)"
        )
    check_command(args.execute)
    out = args.path if args.in_place else args.output
    if isinstance(out, Path) and not out.resolve().parent.is_dir():
        raise InspectorError(f"{shown_name(out)}: its directory does not exist; nothing was run")
    return timeout


def _check_required(args: argparse.Namespace) -> None:
    """Fail in one line, saying what to add, without `--accept` (then naming the kinds found in the
    input, read for them) or without `-o OUT` or `--in-place`."""
    where = "" if args.output is not None or args.in_place else "-o OUT or --in-place"
    if args.accept is not None:
        if where:
            raise InspectorError(f"fix: add {where}: where to write the repaired sessions")
        return
    source = open_source(args.path, args.format, args.table, parse_map(args.map) if args.map is not None else None)
    extra = tuple(load_tools_file(args.tools)) if args.tools else ()
    found: dict[str, int] = {}
    with closing(iter_scan(source, extra, args.session)) as results:
        for result in results:
            for finding in result.findings:
                found[finding.kind] = found.get(finding.kind, 0) + 1
    also = f" and {where}" if where else ""
    if not found:
        raise InspectorError(
            f"fix: {shown_name(args.path)} has no findings: nothing to fix (it takes --accept KINDS{also})"
        )
    named = ", ".join(f"{kind} {count}" for kind, count in sorted(found.items()))
    raise InspectorError(f"fix: add --accept KINDS ('all', or some of the kinds found: {named}){also}")


def _accepted_kinds(value: str) -> set[str]:
    """The kinds `--accept` names (a comma-separated list, checked), where 'all' stands for every
    kind but `secret`: masking a secret changes what the agent reads back when it resumes, so it
    is done only when named (`--accept all,secret`)."""
    known = kinds()
    chosen = {kind.strip() for kind in value.split(",") if kind.strip()}
    if "all" in chosen:
        chosen = (chosen - {"all"}) | (set(known) - {SECRET})
    unknown = sorted(chosen - set(known))
    if unknown or not chosen:
        named = ", ".join(unknown) or repr(value)
        close = did_you_mean(unknown[0], known) if len(unknown) == 1 else ""
        raise InspectorError(f"--accept: unknown kind {named}{close} (choose 'all' or from: {', '.join(known)})")
    return chosen
