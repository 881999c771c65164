"""What a review's decisions add up to: a session's findings by state, and what an export would do."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Counts:
    """How many findings a session has, and how many of them are in each state."""

    flagged: int
    approved: int
    edited: int
    skipped: int
    pending: int


@dataclass(frozen=True)
class ExportPlan:
    """What an export would do: the approved fixes it applies to the `sessions` read into the
    review (`edited` of them as the person edited them), the findings it leaves as they are
    (pending, skipped), and the approved fixes it applies to sessions not read (a history's other
    conversations: `elsewhere` fixes on `elsewhere_sessions` of them)."""

    sessions: int
    approved: int
    edited: int
    pending: int
    skipped: int
    elsewhere: int = 0
    elsewhere_sessions: int = 0
