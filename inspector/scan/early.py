"""The findings at the start of a long session, known before the whole session is scanned.

`early_findings` runs the detectors over a prefix of the session's turns and keeps only the
findings that the full scan reports identically, so an interface can show the first flagged turn
while the full scan runs. Every detector then sees the whole session's tool catalogue (built from
the full session: its definitions and the calls seen anywhere in it, handed to the detectors as
extra tools, which rebuilds the same catalogue in the same order), and the prefix's turns.

The findings kept are those at turns before the prefix's last *closing reply*: an assistant turn
that is not a bare call (it has text, or no call), the turn at which `orphan-call` stops waiting.
Why each detector reports the same finding there on the prefix as on the whole session:

- `result-prefix`, `tool-markup`, `fake-result-block`, `claimed-execution`, `malformed-arguments`
  and the schema kinds (`unknown-tool`, `invalid-argument`, `unknown-parameter`, `wrong-type`) read
  the turn itself, the catalogue (the same), and calls and results at or before the turn (the latest
  matching call up to the turn, the calls since the last system message, results of the turn's
  exchange).
- `narrated-action` reads the turn and what follows it up to the next turn that is not a system
  message (the person's turn, the end of the session, or anything else): for a turn before the
  prefix's last closing reply, that next turn is in the prefix (at the latest, that closing reply),
  so a reply that "ends the session" in the prefix is never kept early.
- `orphan-call` waits for a call's result until the next closing reply: for a call before the
  prefix's last closing reply that wait ends inside the prefix, with the same message.
- `orphan-result`, `tool-error` and `relayed-fake-result` look a result's call up by id among all
  calls (`relayed-fake-result` reads the result's own turn besides).
- `claimed-success` reads the reply and the calls and results recorded since the previous reply or
  user message, all before it.
- `mismatched-result` looks a result's call up by id among the calls recorded before the result.
- `repeated-call` reports a run of identical calls at its last call's turn. A run whose last call
  is before the prefix's last closing reply has ended by that reply (a reply with no call ends a
  run, and a reply whose call continued it would hold its last call), and by the assumption below
  the results of its calls are recorded before that reply: the prefix holds the whole run.

The one assumption: no result is recorded after the closing reply that follows its call, and no
result before its call (a call's result is in its own exchange). A session breaking it gives an
`orphan-call` in the full scan, and there the early findings may differ; they are only shown until
the full scan's findings replace them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from inspector.catalogue import build_catalogue
from inspector.detect import detect_findings
from inspector.model import ASSISTANT, Finding, Session, ToolSpec, Turn

FIRST_PREFIX = 2_000
LAST_PREFIX = 64_000


def early_findings(
    session: Session, extra_tools: Iterable[ToolSpec] = (), first: int = FIRST_PREFIX, last: int = LAST_PREFIX
) -> list[Finding]:
    """The full scan's findings at the turns before the last closing reply of the shortest prefix
    (of `first` turns, doubled up to `last`) that has any; [] when none of those prefixes has.
    Its cost grows with the prefix, not with the session."""
    catalogue = tuple(build_catalogue(session, extra_tools))
    size = first
    while True:
        turns = session.turns[:size]
        cut = _last_closing_reply(turns)
        if cut is not None:
            findings = detect_findings(replace(session, turns=turns), catalogue)
            kept = [finding for finding in findings if finding.turn < cut]
            if kept:
                return kept
        if size >= min(last, len(session.turns)):
            return []
        size *= 2


def _last_closing_reply(turns: tuple[Turn, ...]) -> int | None:
    """The position of the last assistant turn that is not a bare call, or None."""
    for turn in reversed(turns):
        if turn.role == ASSISTANT and not (turn.tool_calls and not turn.text.strip()):
            return turn.position
    return None
