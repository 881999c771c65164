"""What the scan reports need of each session, kept instead of the session itself.

A history read conversation by conversation would otherwise keep every turn of every
conversation until the report is written. A summary keeps the session's identity, its turn count
and problems, its findings with only the turns they point at, and its call counts for the rates:
small, and picklable, so worker processes can send summaries back (`inspector.scan.parallel`).
"""

from __future__ import annotations

from dataclasses import dataclass

from inspector.model import Finding, Location, Turn
from inspector.scan.rates import Rates, session_rates
from inspector.scan.scanner import ScanResult


@dataclass(slots=True)
class SessionSummary:
    """One scanned session as the text and `--json` reports see it. Treated as an immutable value,
    as `Turn` is (and not frozen for the same reason: a file of many small sessions makes one per
    session, and frozen construction is several times slower)."""

    path: Location | str | None  # a file or a server's database (a URI on Spark's executors)
    session_id: str | None
    format: str
    turn_count: int
    problems: tuple[str, ...]
    findings: list[Finding]
    flagged_turns: dict[int, Turn]
    rates: Rates

    def turn_at(self, position: int) -> Turn | None:
        """The session's turn at `position` when a finding points at it (None otherwise)."""
        return self.flagged_turns.get(position)


def summarise(result: ScanResult) -> SessionSummary:
    """The summary of one scan result."""
    session, findings = result.session, result.findings
    flagged = {finding.turn: session.turn_at(finding.turn) for finding in findings}
    return SessionSummary(
        session.path,
        session.session_id,
        session.format,
        len(session.turns),
        session.problems,
        findings,
        {position: turn for position, turn in flagged.items() if turn is not None},
        session_rates(session, findings),
    )
