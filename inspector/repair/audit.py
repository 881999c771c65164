"""The audit entry of one applied fix: what a JSON Lines audit record holds per line and what an
SQLite history's `inspector_fixes` table records per row, built in one place so the two agree."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Any

from inspector.model import AppliedFix, masked_in
from inspector.repair.execute import ExecutionResult

Ran = dict[tuple[str | None, str | None], ExecutionResult]  # (session id, call id) -> what the executor did


def ran_by_call(executions: Iterable[ExecutionResult]) -> Ran:
    """What the user's executor did (`ExecutionResult`s), keyed by (session id, call id)."""
    return {(execution.session_id, execution.call.id): execution for execution in executions}


def audit_entry(fix: AppliedFix, session_id: str | None, source: str, stamp: str, ran: Ran) -> dict[str, Any]:
    """The audit entry of `fix`, applied at `stamp` to session `session_id` of the file `source`;
    `ran` (from `ran_by_call`) gives the executions of the calls the fix recovered. A secret its
    turn's fixes mask is masked in every field, and a secret this fix masks is recorded by its
    mask and the start of its SHA-256 digest only."""
    finding = fix.finding
    applied = finding.fix
    assert applied is not None  # only a finding with a fix is applied (`apply_fixes`)
    entry = {
        "applied_at": stamp,
        "source": source,
        "session_id": session_id,
        "turn": finding.turn,
        "turn_id": finding.turn_id,
        "kind": finding.kind,
        "tool": finding.tool,
        "executed": finding.executed,
        "message": finding.message,
        "fix": applied.summary,
        "edited": fix.proposed is not None,
        "proposed": None
        if fix.proposed is None
        else {
            "fix": fix.proposed.summary,
            "after": fix.proposed.apply_to_text(fix.before),
            "recovered_calls": [{"name": c.name, "arguments": c.arguments} for c in fix.proposed.add_calls],
            "replace_arguments": [{"call": i, "arguments": a} for i, a in fix.proposed.replace_arguments],
        },
        "before": fix.before,
        "after": fix.after,
        "recovered_calls": [{"id": c.id, "name": c.name, "arguments": c.arguments} for c in fix.recovered],
        "rename_calls": [{"call": index, "name": name} for index, name in applied.rename_calls],
        "payload": finding.payload,
        "executions": [ran[session_id, c.id].to_json() for c in fix.recovered if (session_id, c.id) in ran],
        "masked": [{"mask": shown, "sha256": _digest(secret)} for secret, shown in applied.masks],
    }
    return masked_in(entry, fix.masks)  # type: ignore[no-any-return]


def _digest(secret: str) -> str:
    """The first 16 hexadecimal digits of the secret's SHA-256 digest: enough to recognise it, not to recover it."""
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()[:16]
