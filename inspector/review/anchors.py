"""Which finding a saved decision is about, named so that it survives the session being written
again with messages inserted or deleted (a re-dumped session, a conversation that went on).

A finding is named by its message: the id the format gives the message, where it has one (Claude
Code's uuid, a database's row id, ...), and a hash of its content (role, text, calls with their
ids, results), which holds OpenAI's call ids where messages have no id of their own; by hashes
of the messages just before and after it; by its place in the message (kind, span, tool and its
number among equals); and, for identical messages in identical surroundings, by its occurrence
among them. None of that is a position, so a message inserted or deleted elsewhere moves nothing.

Reading the session again, `reattach` gives each saved key the finding it is about now: the one
whose key is equal; else (a neighbour was inserted, deleted or changed) one of the same message
(same content, same id) and place whose neighbours match best, nearest to where it was; a key
matching nothing stays unattached (kept in the review file, counted, never applied). A message
whose content changed is a different message: its findings' decisions are not carried over.
"""

from __future__ import annotations

import hashlib
import json
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from inspector.model import Finding, Session, Turn

# Of identical messages, how many nearest to where a saved key was are weighed for it.
NEAREST = 16
# What `content_digest` hashes, written as `json.dumps(content, sort_keys=True, default=repr)`
# writes it (one encoder for every message: a review of a large session hashes tens of thousands).
_CONTENT_ENCODER = json.JSONEncoder(sort_keys=True, default=repr)


@dataclass(slots=True, unsafe_hash=True)
class FindingKey:
    """A finding's name in the review file. `turn` (its position when it was saved) is not part
    of its identity: it only chooses the nearest of equally good matches and is shown in the file.
    Treated as an immutable value (a dict key), not frozen: quicker to build, one per finding."""

    message: str | None  # the message's own id, where the format has one
    content: str  # hash of the message's content
    before: str | None  # hash of the message before it (None: the first)
    after: str | None  # hash of the message after it (None: the last)
    place: str  # KIND:SPAN:TOOL:NUMBER within the message
    occurrence: int = 0  # among findings whose key is otherwise the same
    turn: int = field(default=0, compare=False)

    @property
    def positional(self) -> str:
        """The key an earlier version gave the finding: its turn's position and its place."""
        return f"{self.turn}:{self.place}"


# A key as the review file keeps it: a `FindingKey`, or the positional string an earlier version
# wrote ("TURN:KIND:SPAN:TOOL:NUMBER").
SavedKey = FindingKey | str


def anchored_keys(session: Session, findings: Sequence[Finding], positional: Sequence[str]) -> list[FindingKey]:
    """Each finding's key (`positional`: the keys an earlier version gave them,
    `review_file.finding_keys`, whose places they keep). Only the flagged turns and their
    neighbours are hashed."""
    turns = session.turns
    digests: dict[int, str | None] = {}

    def digest(index: int) -> str | None:
        if index not in digests:
            digests[index] = content_digest(turns[index]) if 0 <= index < len(turns) else None
        return digests[index]

    seen: dict[FindingKey, int] = {}
    keys = []
    for finding, old in zip(findings, positional):
        index = _index_of(turns, finding.turn)
        place = old.partition(":")[2]
        if index is None:  # no such turn: a finding no message can be matched with
            key = FindingKey(None, "", None, None, place, turn=finding.turn)
        else:
            key = FindingKey(
                turns[index].id, digest(index) or "", digest(index - 1), digest(index + 1), place, turn=finding.turn
            )
        seen[key] = seen.get(key, -1) + 1
        keys.append(replace(key, occurrence=seen[key]))
    return keys


def content_digest(turn: Turn) -> str:
    """A short hash of what the message says: role, text, calls (id, name, arguments as stored)
    and results (call id, name, content, error)."""
    content = [
        turn.role,
        turn.text,
        [[call.id, call.name, call.arguments_raw] for call in turn.tool_calls],
        [[result.call_id, result.name, result.content, result.is_error] for result in turn.tool_results],
    ]
    text = _CONTENT_ENCODER.encode(content)  # ASCII: a lone surrogate is escaped
    return hashlib.blake2b(text.encode("ascii"), digest_size=8).hexdigest()


def reattach(
    saved: Iterable[SavedKey], current: Sequence[FindingKey], positional: Sequence[str]
) -> dict[SavedKey, FindingKey]:
    """For the saved keys of one session, the current key of the finding each is about (those
    matching none are left out). Each finding takes one saved key at most: an equal key first, then
    an earlier version's positional one (the same turn, kind, span and tool), then the best match
    by message and neighbours."""
    free = set(current)
    found: dict[SavedKey, FindingKey] = {}
    pending = []
    for key in saved:
        if key in free:
            found[key] = key
            free.discard(key)
        else:
            pending.append(key)
    by_position = dict(zip(positional, current))
    for key in pending:
        if isinstance(key, str) and by_position.get(key) in free:
            found[key] = by_position[key]
            free.discard(by_position[key])
    found.update(_best_matches([key for key in pending if isinstance(key, FindingKey)], current, free).items())
    return found


def _best_matches(
    saved: list[FindingKey], current: Sequence[FindingKey], free: set[FindingKey]
) -> dict[FindingKey, FindingKey]:
    """Saved keys whose neighbours changed, matched to free findings of the same message (content
    and id) and place: the most neighbours in common first, then the nearest. A match with no
    neighbour in common is taken only from a message whose id says it is the same, or when the
    session has a single such finding. Of many identical messages (a reply repeated in a loop),
    only the `NEAREST` nearest to where each key was are weighed, so matching stays linear."""
    same_message: dict[tuple[str | None, str, str], list[FindingKey]] = {}
    for key in current:  # in turn order
        same_message.setdefault((key.message, key.content, key.place), []).append(key)
    options = []
    for order, key in enumerate(saved):
        candidates = same_message.get((key.message, key.content, key.place), [])
        for candidate in _nearest(candidates, key.turn):
            shared = (key.before == candidate.before) + (key.after == candidate.after)
            if shared or key.message is not None or len(candidates) == 1:
                options.append((-shared, abs(candidate.turn - key.turn), order, candidate.turn, key, candidate))
    found: dict[FindingKey, FindingKey] = {}
    for *_, key, candidate in sorted(options, key=lambda option: option[:4]):
        if key not in found and candidate in free:
            found[key] = candidate
            free.discard(candidate)
    return found


def _nearest(candidates: list[FindingKey], turn: int) -> list[FindingKey]:
    """The (at most `NEAREST`) candidates, in turn order, nearest to `turn`."""
    if len(candidates) <= NEAREST:
        return candidates
    middle = bisect_left(candidates, turn, key=lambda candidate: candidate.turn)
    start = min(max(0, middle - NEAREST // 2), len(candidates) - NEAREST)
    return candidates[start : start + NEAREST]


def _index_of(turns: Sequence[Turn], position: int) -> int | None:
    """The index of the session's own turn at `position` (not one a repair inserted), or None."""
    index = bisect_left(turns, position, key=lambda turn: turn.position)
    first = index if index < len(turns) and turns[index].position == position else None
    while index < len(turns) and turns[index].position == position:
        if turns[index].raw is not None:
            return index
        index += 1
    return first
