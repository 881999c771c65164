"""A baseline, as linters keep one: the findings a person acknowledged (skipped in a review), written
beside the review's export (`OUT.baseline.ndjson`) so that `inspector scan OUT` leaves them out of
its count and its exit code instead of reporting them again.

Each acknowledged finding is named as the review file names it (`anchors.FindingKey`: its
message's id and content hash, its neighbours' hashes, its place in the message; and its session,
by place in a file or by id in a database), so a scan of the exported session finds it again
although the approved fixes around it changed the turns' positions and, maybe, a neighbour
(`anchors.reattach`). An approved fix of the same message changes the message: such a finding is
found again by its fingerprint (its kind, tool and the text it flags), each fingerprint matching
one finding of the session at most.

The file is one line of JSON (an NDJSON file of one record): `{"inspector_baseline": 1, "source":
INPUT, "acknowledged": [ENTRY, ...]}`, each entry `{"session" | "conversation", "kind", "finding",
"message": {"id", "content", "before", "after"}, "occurrence", "fingerprint"}`, the shape of the review file's entries and a fingerprint.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from inspector.errors import InspectorError
from inspector.model import Finding, Location, Session
from inspector.review.anchors import FindingKey, anchored_keys, content_digest, reattach
from inspector.review.baseline_place import EARLIER_SUFFIX, baseline_path_for
from inspector.review.review_file import SessionKey, finding_keys
from inspector.scan.scanner import ScanResult
from inspector.support.atomic_files import file_mode, land, staged_bytes
from inspector.support.safe_text import shown_name

VERSION = 1


@dataclass(frozen=True)
class Acknowledged:
    """One acknowledged finding: its session's key, its own key, its kind (shown to a person) and
    its fingerprint (`fingerprint`)."""

    session: SessionKey
    key: FindingKey
    kind: str
    fingerprint: str


@dataclass(frozen=True)
class Baseline:
    """The acknowledged findings read from the baseline file at `path`."""

    path: Path
    acknowledged: tuple[Acknowledged, ...]

    def acknowledged_in(self, session: SessionKey, result: ScanResult) -> set[int]:
        """The indices of `result`'s findings (of the session named `session`) this baseline
        acknowledges: each acknowledged finding is matched to one finding at most."""
        entries = [entry for entry in self.acknowledged if entry.session == session]
        if not entries or not result.findings:
            return set()
        positional = finding_keys(result.findings)
        current = anchored_keys(result.session, result.findings, positional)
        attached = reattach([entry.key for entry in entries], current, positional)
        matched = {index for index, key in enumerate(current) if key in set(attached.values())}
        prints = [fingerprint(result.session, finding) for finding in result.findings]
        for entry in entries:  # a message an approved fix changed: found by what it flags
            if entry.key not in attached:
                index = next((i for i, p in enumerate(prints) if p == entry.fingerprint and i not in matched), None)
                if index is not None:
                    matched.add(index)
        return matched


def write_baseline(out: Path, source: Location, acknowledged: Sequence[Acknowledged]) -> Path | None:
    """Write the baseline of `out` (an export of `source`) naming the `acknowledged` findings, whole
    or not at all; with none, remove a baseline an earlier export left there. Where it was written."""
    path, earlier = baseline_path_for(out), baseline_path_for(out, EARLIER_SUFFIX)
    if not acknowledged:
        path.unlink(missing_ok=True)
        earlier.unlink(missing_ok=True)
        return None
    document = {
        "inspector_baseline": VERSION,
        "source": str(source),
        "acknowledged": [_entry(entry) for entry in acknowledged],
    }
    data = (json.dumps(document, ensure_ascii=False) + "\n").encode("utf-8", "backslashreplace")
    try:
        land(staged_bytes(path, data, file_mode(path)), path)
        earlier.unlink(missing_ok=True)  # (this one replaces it)
    except OSError as error:
        raise InspectorError(f"{shown_name(path)}: cannot write the baseline ({error.strerror or error})") from None
    return path


def read_baseline(path: Path) -> Baseline:
    """The baseline file at `path`; one line (`InspectorError`) when it cannot be read as one."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise InspectorError(f"{shown_name(path)}: cannot read the baseline ({error.strerror or error})") from None
    except ValueError as error:
        raise InspectorError(f"{shown_name(path)}: not a baseline (not JSON: {error})") from None
    if not isinstance(document, dict) or document.get("inspector_baseline") != VERSION:
        raise InspectorError(f"{shown_name(path)}: not a baseline of this version (inspector_baseline: {VERSION})")
    try:
        return Baseline(path, tuple(_acknowledged(entry) for entry in document["acknowledged"]))
    except (KeyError, TypeError, ValueError, AttributeError):
        raise InspectorError(f"{shown_name(path)}: a baseline entry is not as the inspector writes them") from None


def acknowledged_of(
    name: SessionKey, session: Session, keys: Sequence[FindingKey], findings: Sequence[Finding]
) -> list[Acknowledged]:
    """The entries naming `findings` of `session` (named `name`) by their `keys`."""
    return [
        Acknowledged(name, key, finding.kind, fingerprint(session, finding)) for key, finding in zip(keys, findings)
    ]


def fingerprint(session: Session, finding: Finding) -> str:
    """A short hash of what `finding` is: its kind, its tool, and the text it flags (its span of
    the turn's text; the whole turn's content when it has no span)."""
    turn = session.turn_at(finding.turn)
    if turn is None:
        flagged = ""
    elif finding.span is not None:
        flagged = turn.text[finding.span[0] : finding.span[1]]
    else:
        flagged = content_digest(turn)
    text = json.dumps([finding.kind, finding.tool, flagged])  # ASCII: a lone surrogate is escaped
    return hashlib.blake2b(text.encode("ascii"), digest_size=8).hexdigest()


def _entry(entry: Acknowledged) -> dict[str, Any]:
    key = entry.key
    named: dict[str, Any] = {"conversation" if isinstance(entry.session, str) else "session": entry.session}
    message = {"id": key.message, "content": key.content, "before": key.before, "after": key.after}
    return {
        **named,
        "kind": entry.kind,
        "finding": key.positional,
        "message": message,
        "occurrence": key.occurrence,
        "fingerprint": entry.fingerprint,
    }


def _acknowledged(entry: dict[str, Any]) -> Acknowledged:
    session: SessionKey = str(entry["conversation"]) if "conversation" in entry else int(entry["session"])
    turn, _, place = str(entry["finding"]).partition(":")
    message = entry["message"]
    key = FindingKey(
        _optional(message["id"]),
        str(message["content"]),
        _optional(message["before"]),
        _optional(message["after"]),
        place,
        int(entry["occurrence"]),
        int(turn),
    )
    return Acknowledged(session, key, str(entry["kind"]), str(entry["fingerprint"]))


def _optional(value: object) -> str | None:
    return None if value is None else str(value)
