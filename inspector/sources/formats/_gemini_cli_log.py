"""The JSON Lines log of a Gemini CLI chat (0.61: `chats/session-*.jsonl`): replaying it into the
final list of messages, and writing changed messages back into the lines that hold them.

Each line is one record, told apart in the order the CLI's own loader (`loadConversationRecord`)
uses: `{"$rewindTo": id}` drops that message and every later one (all of them when the id is not
there); a record with a string `id` is a message, an upsert: a new id joins the end, a known one
is replaced where it stands; `{"$set": {...}}` updates the metadata, and a `$set.messages` array
replaces all messages; a metadata record (`sessionId` and `projectHash`, written again on each
resume) may hold a `messages` array, upserted one by one. A line of any other kind is counted in
the problems and kept; a line that is not JSON too (the last one, cut off while the CLI wrote it,
says so). The replay is linear in the number of lines: a rewind cuts a list it only ever appends to.

Every message of the final list has two places: where it entered the list (its line, or its
index in a `messages` array of a line) and where its last copy is. A repaired message is written
over its last copy; a new message is written just before the place where the message it
precedes entered the list (so the replay puts it right there), or just after the place where the
last message entered (the end of the file only when that was its last line). A changed line is
written as the CLI writes one (`JSON.stringify`: compact, non-ASCII as it is) with its own line
ending; every other line is kept byte for byte.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from inspector.sources.files.document import BadLine, Document
from inspector.support.counted_words import counted
from inspector.support.safe_text import preview

Place = tuple[int, int | None]  # the line's index, and the index in its `messages` array (None: the line itself)


@dataclass
class Replay:
    """The final messages of a log, each with where it entered the list and where its last copy is."""

    messages: list[dict[str, Any]] = field(default_factory=list)
    entered: list[Place] = field(default_factory=list)
    last: list[Place] = field(default_factory=list)
    ids: set[str] = field(default_factory=set)  # every message id the log names, rewound ones included
    session_id: str | None = None
    problems: list[str] = field(default_factory=list)


def replay(document: Document) -> Replay:
    """The log's final messages, its session id and its problems."""
    records = document.value
    current: dict[str, list[Any]] = {}  # id -> [record, entered, last, index in `order`], in list order
    order: list[str] = []  # the ids in list order, for rewinds
    seen: set[str] = set()
    odd: Counter[tuple[str, str]] = Counter()  # (one of them, several): how many
    problems: list[str] = []
    session_id = None

    def upsert(message: dict[str, Any], place: Place) -> None:
        known = current.get(message["id"])
        if known is None:
            current[message["id"]] = [message, place, place, len(order)]
            order.append(message["id"])
            seen.add(message["id"])
        else:
            known[0], known[2] = message, place

    def upsert_all(messages: list[Any], line: int) -> None:
        for index, message in enumerate(messages):
            if isinstance(message, dict) and type(message.get("id")) is str:
                upsert(message, (line, index))
            else:
                odd[
                    "item of a `messages` array that is not a message",
                    "items of a `messages` array that are not messages",
                ] += 1

    last_line = max((i for i, r in enumerate(records) if r is not None), default=-1)
    for line, record in enumerate(records):
        if type(record) is not dict:
            if isinstance(record, BadLine):
                problems.append(_bad_line(record, line == last_line))
            elif record is not None:
                odd["line that is not a JSON object", "lines that are not JSON objects"] += 1
        elif type(record.get("$rewindTo")) is str:
            target = record["$rewindTo"]
            seen.add(target)
            cut = current[target][3] if target in current else 0  # the CLI drops everything for an unknown id
            for gone in order[cut:]:
                del current[gone]
            del order[cut:]
        elif type(record.get("id")) is str:
            upsert(record, (line, None))
        elif type(record.get("$set")) is dict:
            update = record["$set"]
            if isinstance(update.get("messages"), list):
                current.clear()
                order.clear()
                upsert_all(update["messages"], line)
            session_id = update["sessionId"] if type(update.get("sessionId")) is str else session_id
        elif type(record.get("sessionId")) is str and type(record.get("projectHash")) is str:
            session_id = record["sessionId"]
            if isinstance(record.get("messages"), list):
                upsert_all(record["messages"], line)
        else:
            keys = ", ".join(preview(key, 30) for key in list(record)[:3]) or "none"
            unknown = f"with keys {keys} (not a message, $set, $rewindTo or metadata record)"
            odd[f"line {unknown}", f"lines {unknown}"] += 1
    problems += [f"{counted(count, one, many)}, kept, not read" for (one, many), count in odd.items()]
    found = Replay(ids=seen, session_id=session_id, problems=problems)
    for message, entered, last, _ in current.values():
        found.messages.append(message)
        found.entered.append(entered)
        found.last.append(last)
    return found


def rewrite(
    document: Document,
    found: Replay,
    replaced: dict[int, dict[str, Any]],
    before: dict[int, list[dict[str, Any]]],
    after_all: list[dict[str, Any]],
) -> str:
    """The log's text with each final message whose `id()` is in `replaced` written over its last
    copy, the messages of `before[id(message)]` just before the place it entered, and `after_all`
    just after the place the last message entered (or at the end when there is none)."""
    lines = document.lines
    assert lines is not None, "a log is JSON Lines"
    changed: defaultdict[int, dict[int | None, Any]] = defaultdict(dict)  # line -> array index (None: line) -> record
    ahead: defaultdict[Place, list[dict[str, Any]]] = defaultdict(list)  # new records before a place
    behind: defaultdict[Place, list[dict[str, Any]]] = defaultdict(list)  # new records after a place
    for message, entered, last in zip(found.messages, found.entered, found.last):
        if id(message) in replaced:
            changed[last[0]][last[1]] = replaced[id(message)]
        if before.get(id(message)):
            ahead[entered].extend(before[id(message)])
    if after_all:
        behind[found.entered[-1] if found.entered else (len(lines) - 1, None)].extend(after_all)
    for line, index in list(ahead) + list(behind):
        if index is not None:
            changed[line].setdefault(index, None)  # the array of that line is written again
    newline = "\r\n" if lines[0].endswith("\r\n") else "\n"
    out: list[str] = []
    for line, text in enumerate(lines):
        out += [_compact(record) + newline for record in ahead.get((line, None), ())]
        if line in changed:
            record = _changed(document.value[line], line, changed[line], ahead, behind)
            text = _compact(record) + text[len(text.rstrip("\r\n")) :]
        following = behind.get((line, None), ())
        if following and not text.endswith("\n"):
            text += newline
        out.append(text)
        out += [_compact(record) + newline for record in following]
    return "".join(out)


def _changed(
    record: dict[str, Any],
    line: int,
    changes: dict[int | None, Any],
    ahead: dict[Place, list[Any]],
    behind: dict[Place, list[Any]],
) -> dict[str, Any]:
    """The line's new record: the message written over it, or the record with its `messages`
    array holding the changed messages and the new ones around them."""
    if None in changes:
        whole: dict[str, Any] = changes[None]
        return whole
    holder = "$set" if type(record.get("$set")) is dict else None
    body = record[holder] if holder else record
    messages: list[Any] = []
    for index, message in enumerate(body["messages"]):
        messages += ahead.get((line, index), ())
        messages.append(changes.get(index) or message)
        messages += behind.get((line, index), ())
    body = {**body, "messages": messages}
    return {**record, holder: body} if holder else body


def _compact(record: Any) -> str:
    """A record as the CLI writes one (`JSON.stringify`): no spaces, non-ASCII as it is."""
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def _bad_line(record: BadLine, is_last: bool) -> str:
    if is_last:
        return f"line {record.number}: cut off, the last line is not whole JSON ({record.error}); read up to it"
    return f"line {record.number}: invalid JSON ({record.error}), skipped"
