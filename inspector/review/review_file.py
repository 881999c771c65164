"""The review file: every decision a person made on a session file's findings, saved the moment
it is made, so closing and reopening resumes and a dying terminal loses nothing.

It is kept in the person's state folder (`$XDG_STATE_HOME/inspector/reviews/`, by default
`~/.local/state/inspector/reviews/`), named after the session file and a hash of its absolute
path: reviewing never writes beside the reviewed file, which may be a tool's own session folder
(where the tool would list it) or the bundled samples. A review an earlier version kept beside the
file (`PATH.review.json`) is resumed from there and saved in the state folder from then on.

It also keeps what the person's executor answered when they ran a finding's recovered calls
from the app, so export records those results even after reopening.

Decisions are keyed by a finding's session and its identity within it (`anchors`): the message
it is in (its id where the format has one, a hash of its content), the messages around it (hashes)
and its place in the message (kind, span, tool and its number among equals), none of which is a
position: reading the session again after messages were inserted or deleted (a re-dumped session,
a conversation that went on), each decision goes back to its finding. A session file's session is
named by its place in the file; a database's conversation by its id (`"conversation"` in the
file), so a conversation added to or removed from the history leaves the others' decisions where
they were. Decisions whose finding or conversation no longer exists are kept in the file,
untouched, so nothing a person decided is lost.

Version 1 and 2 files named a finding by its turn's position (`"finding": "TURN:KIND:SPAN:TOOL:N"`,
still written, for the eye): such a decision goes to the finding at that place (as those versions
read it) and is written back with its message from then on. Version 1 files named a database's
conversations by their place too: reading one for a database needs the conversations' ids in the
database's order (`read_review`'s `conversations`), which is how version 1 matched them; they are
written back by id.

Two inspectors may save the same review (`merge` says how neither loses the other's decisions).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from inspector.errors import InspectorError
from inspector.model import Finding, Location, ServerUrl, ToolCall
from inspector.repair.execute import ExecutionResult
from inspector.review.anchors import FindingKey, SavedKey
from inspector.review.decision_states import APPROVED as APPROVED  # each state is read from here too
from inspector.review.decision_states import DECIDED
from inspector.review.decision_states import EDITED as EDITED
from inspector.review.decision_states import PENDING as PENDING
from inspector.review.decision_states import SKIPPED as SKIPPED
from inspector.review.edits import Edit, EditedCall
from inspector.review.review_layout import new_revision, review_text
from inspector.sources.files.document import write_text_atomic
from inspector.support.safe_text import shown_name
from inspector.support.state_folder import inspector_state_folder

VERSION = 3

# A session as the review file names it: its place in a session file (int), or a database
# conversation's id (str).
SessionKey = int | str


@dataclass(frozen=True)
class Decision:
    """What the person decided on one finding: approved, edited (approved with `edit`) or
    skipped, and when (ISO 8601, UTC)."""

    status: str
    edit: Edit | None = None
    decided_at: str = ""


@dataclass
class ReviewRecord:
    """The review file's content: decisions by (session key, finding key: a `FindingKey`, or an
    earlier version's positional key not matched to a finding yet), whether decisions
    changed since the last export, the exports made, the recovered calls run by finding, and
    whether a database's decisions were read by the conversations' places (a version 1 file), and
    the revision of the file it was read from or written to."""

    decisions: dict[tuple[SessionKey, SavedKey], Decision]
    unexported: bool = False
    exports: list[dict[str, Any]] | None = None
    executions: dict[tuple[SessionKey, SavedKey], tuple[ExecutionResult, ...]] | None = None
    read_by_place: bool = False
    revision: str | None = None  # the file's as read or written (`review_layout`)


def timestamp() -> str:
    """Now, as the review file records a decision or an export: ISO 8601, UTC, to the second."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def review_path_for(path: Location, table_key: str | None = None) -> Path:
    """Where the review of the session file `path` is kept: `NAME.HASH.review.json` in the state
    folder, `HASH` standing for the file's absolute path. A server's database: its name (letters,
    digits, `.`, `_` and `-` kept) and a hash of its URL without the password (`ServerUrl.identity`).
    A database read from a table named with `--table`/`--map` (`table_key`, `Source.table_key`):
    the hash stands for that too, so two tables' conversations (which may share ids) keep their
    decisions apart; without one, the name is the one earlier versions gave."""
    if isinstance(path, ServerUrl):
        name, identity = database_file_name(path), path.identity.encode()
    else:
        absolute = Path(path).resolve()
        name, identity = absolute.name, os.fsencode(absolute)
    if table_key is not None:
        identity += b"\0" + table_key.encode()
    digest = hashlib.sha256(identity).hexdigest()[:12]
    return inspector_state_folder() / "reviews" / f"{name}.{digest}.review.json"


def database_file_name(url: ServerUrl) -> str:
    """The name of the database at `url` as a file name: ASCII letters, digits, `.`, `_` and `-`
    kept, anything else `_`, at most 64 characters, never hidden ('postgresql' when nothing is left)."""
    kept = "".join(c if c.isascii() and (c.isalnum() or c in "._-") else "_" for c in url.name[:64])
    return kept.lstrip(".") or "postgresql"


def earlier_review_path(path: Path) -> Path:
    """Where an earlier version kept the review of `path`: `PATH.review.json` beside it."""
    return path.with_name(path.name + ".review.json")


def resumed_review_path(path: Location, table_key: str | None = None) -> Path:
    """The review file a review of `path` (read from the table `table_key` names, if any) resumes:
    the one in the state folder, unless only an earlier version's review beside the file
    (`PATH.review.json`) exists."""
    saved = review_path_for(path, table_key)
    if isinstance(path, ServerUrl):  # no earlier version reviewed a server's database
        return saved
    earlier = earlier_review_path(path)
    return saved if saved.exists() or not earlier.exists() else earlier


def finding_keys(findings: list[Finding]) -> list[str]:
    """The key versions 1 and 2 gave each finding: turn, kind, span and tool, numbered among equals
    (read from their files; each finding's place in its message is the part after the turn)."""
    seen: dict[str, int] = {}
    keys = []
    for finding in findings:
        span = f"{finding.span[0]}-{finding.span[1]}" if finding.span else "-"
        base = f"{finding.turn}:{finding.kind}:{span}:{finding.tool or '-'}"
        number = seen.get(base, 0)
        seen[base] = number + 1
        keys.append(f"{base}:{number}")
    return keys


def read_review(path: Path, conversations: Sequence[str] | None = None) -> ReviewRecord:
    """The review saved at `path`, or an empty one when there is none yet. `conversations`: for
    a database's review, the ids of its conversations in the database's order, by which the
    places a version 1 file keeps are read as conversations (a place past the end stays a place).
    A file of a later version is refused, not read and saved back without what it added."""
    if not path.exists():
        return ReviewRecord({}, exports=[])
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(document.get("inspector_review"), int) and document["inspector_review"] > VERSION:
            raise InspectorError(
                f"{shown_name(path)}: the saved review was written by a newer inspector (format "
                f"{document['inspector_review']}; this one reads up to {VERSION}): "
                "update the inspector to resume it"
            ) from None
        by_place = conversations if document.get("inspector_review") == 1 else None
        decisions = {_key(entry, by_place): _decision(entry) for entry in document["decisions"]}
        executions = {
            _key(entry, by_place): tuple(_execution(run) for run in entry["runs"])
            for entry in document.get("executions", [])
        }
        revision = document.get("revision") if isinstance(document.get("revision"), str) else None
        return ReviewRecord(
            decisions,
            bool(document.get("unexported")),
            list(document.get("exports", [])),
            executions,
            by_place is not None and any("session" in entry for entry in document["decisions"]),
            revision,
        )
    except (OSError, UnicodeDecodeError) as exc:
        raise InspectorError(f"{shown_name(path)}: cannot read the saved review ({exc})") from None
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise InspectorError(
            f"{shown_name(path)}: the saved review is damaged ({type(exc).__name__}: {exc}); "
            "move it away to start the review afresh"
        ) from None


def write_review(path: Path, source: Location, record: ReviewRecord) -> str:
    """Save `record` to `path` atomically (its folder made if missing); the revision written."""
    make_review_folder(path)
    revision = new_revision()
    document = {
        "inspector_review": VERSION,
        "revision": revision,
        "source": str(source if isinstance(source, ServerUrl) else source.resolve()),  # a URL without its password
        "unexported": record.unexported,
        "exports": record.exports or [],
        "decisions": [
            {**_named(session, key), **_entry(decision)} for (session, key), decision in record.decisions.items()
        ],
        "executions": [
            {**_named(session, key), "runs": [_run(execution) for execution in runs]}
            for (session, key), runs in (record.executions or {}).items()
        ],
    }
    write_text_atomic(path, review_text(document))
    return revision


def make_review_folder(path: Path) -> None:
    """Make the folder of the review file `path` if it is missing; an `InspectorError` if it cannot be."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InspectorError(
            f"{shown_name(path.parent)}: cannot make the folder for the review ({exc.strerror})"
        ) from None


def _named(session: SessionKey, finding: SavedKey) -> dict[str, Any]:
    """How an entry names its finding: its conversation's id, or its session's place, and its key
    (with its message, unless it is an earlier version's positional key, written back as it was)."""
    named: dict[str, Any] = {"conversation" if isinstance(session, str) else "session": session}
    if not isinstance(finding, FindingKey):
        return {**named, "finding": finding}
    message = {"id": finding.message, "content": finding.content, "before": finding.before, "after": finding.after}
    return {**named, "finding": finding.positional, "message": message, "occurrence": finding.occurrence}


def _key(entry: dict[str, Any], by_place: Sequence[str] | None) -> tuple[SessionKey, SavedKey]:
    """The (session key, finding key) an entry names; a version 1 entry's place is read as the
    conversation at that place when `by_place` lists a database's conversations."""
    if "conversation" in entry:
        session: SessionKey = str(entry["conversation"])
    else:
        place = int(entry["session"])
        session = by_place[place] if by_place is not None and 0 <= place < len(by_place) else place
    finding = str(entry["finding"])
    if "message" not in entry:
        return session, finding
    message, (turn, _, place_in_turn) = entry["message"], finding.partition(":")
    return session, FindingKey(
        _optional(message["id"]),
        str(message["content"]),
        _optional(message["before"]),
        _optional(message["after"]),
        place_in_turn,
        int(entry["occurrence"]),
        int(turn),
    )


def _optional(value: Any) -> str | None:
    return None if value is None else str(value)


def _entry(decision: Decision) -> dict[str, Any]:
    edit = decision.edit
    return {
        "status": decision.status,
        "decided_at": decision.decided_at,
        "edit": None
        if edit is None
        else {
            "text": edit.text,
            "calls": [{"name": call.name, "arguments": call.arguments} for call in edit.calls],
            **({"mask": edit.mask} if edit.mask is not None else {}),
        },
    }


def _run(execution: ExecutionResult) -> dict[str, Any]:
    call = execution.call
    return {
        "command": execution.command,
        "session_id": execution.session_id,
        "turn": execution.turn,
        "call": {"id": call.id, "name": call.name, "arguments": call.arguments, "origin": call.origin},
        "exit_status": execution.exit_status,
        "output": execution.output,
        "error": execution.error,
        "stderr": execution.stderr,
    }


def _execution(run: dict[str, Any]) -> ExecutionResult:
    call = run["call"]
    arguments = None if call["arguments"] is None else dict(call["arguments"])
    return ExecutionResult(
        str(run["command"]),
        run["session_id"],
        int(run["turn"]),
        ToolCall(call["id"], str(call["name"]), arguments, arguments, str(call["origin"])),
        run["exit_status"],
        run["output"],
        run["error"],
        str(run["stderr"]),
    )


def _decision(entry: dict[str, Any]) -> Decision:
    status = str(entry["status"])
    if status not in DECIDED:
        raise ValueError(f"unknown decision {status!r}")
    edit = entry.get("edit")
    if edit is not None:
        calls = tuple(EditedCall(str(call["name"]), dict(call["arguments"])) for call in edit["calls"])
        mask = edit.get("mask")
        edit = Edit(str(edit["text"]), calls, None if mask is None else str(mask))
    return Decision(status, edit, str(entry.get("decided_at", "")))
