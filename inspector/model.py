"""The data model every stage shares: where sessions live, sessions, turns, tool calls, findings
and fixes.

All of these are immutable values. A format adapter turns a file into `Session`s, detectors turn a
session into `Finding`s, and a `Fix` says what would change, so it can be previewed, edited,
recorded and applied the same way by the command line and the TUI.

Sessions live at a `Location`: a file on disk (a `Path`), or a database on a PostgreSQL server
(a `ServerUrl`: `postgresql://user@host:port/db` or `postgres://...`, handed to libpq as it is, so
libpq's `PG*` environment variables and `.pgpass` fill in what it leaves out, and shown everywhere
without its password; a URL Python's parser refuses, an unclosed `[`, is split by hand, so that
even then its password is never shown).
"""

from __future__ import annotations

import json
from bisect import bisect_left
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal
from urllib.parse import SplitResult, parse_qsl, unquote, urlencode, urlsplit, urlunsplit

SYSTEM = "system"
USER = "user"
ASSISTANT = "assistant"
TOOL = "tool"

Severity = Literal["error", "warning", "info"]
ERROR: Final = "error"
WARNING: Final = "warning"
INFO: Final = "info"
SEVERITIES: tuple[Severity, ...] = (ERROR, WARNING, INFO)  # the most severe first

STRUCTURED = "structured"
RECOVERED = "recovered"
# A call whose arguments did not parse and whose agent kept its parser's error in their place (in
# `arguments_raw`), not the text the model wrote: there is nothing to repair them from.
ARGUMENTS_LOST = "arguments-lost"

Span = tuple[int, int]

# The result a repair records for a call it recovered from text: the call was never executed.
NOT_EXECUTED = "Recovered from the assistant's text by inspector; this call was not executed."
# The result a repair records for a call that was never answered (`orphan-call`'s fix).
NO_RESULT = "No result was recorded for this call (added by inspector)."


@dataclass(frozen=True)
class ServerUrl:
    """A database on a PostgreSQL server. `conninfo` is the URL as given, password included: it
    goes to libpq only; `str()` and `repr()` show it without the password."""

    conninfo: str

    def __str__(self) -> str:
        return _shown_url(self.conninfo)

    def __repr__(self) -> str:
        return f"ServerUrl({str(self)!r})"

    @property
    def name(self) -> str:
        """The database's name as the URL gives it ('' when libpq's default applies)."""
        return unquote(_url_parts(self.conninfo).path.lstrip("/"))

    @property
    def identity(self) -> str:
        """What tells this database from any other, without the password: the user, host(s) and
        port(s), database and connection options (a schema's search path among them) as the URL
        gives them (the key of its review file)."""
        parts = _url_parts(self.conninfo)
        userinfo, _, hosts = parts.netloc.rpartition("@")
        options = sorted(
            (key, value) for key, value in parse_qsl(parts.query, keep_blank_values=True) if key != "password"
        )
        return json.dumps([unquote(userinfo.partition(":")[0]), hosts.lower(), self.name, options])

    @property
    def password(self) -> str | None:
        """The password the URL holds, if any (to be scrubbed from any message)."""
        parts = _url_parts(self.conninfo)
        userinfo = parts.netloc.rpartition("@")[0]
        in_query = [value for key, value in parse_qsl(parts.query) if key == "password"]
        if ":" in userinfo:
            return unquote(userinfo.partition(":")[2])
        return in_query[0] if in_query else None


Location = Path | ServerUrl  # a file or folder on disk, or a database on a server


@dataclass(slots=True, unsafe_hash=True)
class ToolCall:
    """One call of a tool, as the session records it or as recovered from text. Treated as an
    immutable value, as `Turn` is (and not frozen for the same reason: a large session has tens
    of thousands of calls, and frozen construction is 3 times slower); hashed by its fields.

    `arguments_raw` is what the format stores (a JSON string for OpenAI, an object for Anthropic
    and Gemini); `arguments` is the parsed object, or None when the raw value does not parse.
    """

    id: str | None
    name: str
    arguments_raw: Any
    arguments: dict[str, Any] | None
    origin: str = STRUCTURED


@dataclass(slots=True, unsafe_hash=True)
class ToolResult:
    """The answer to a tool call: linked by `call_id` where the format has ids, else by name.
    Treated as an immutable value, as `ToolCall` is (not frozen only for speed)."""

    call_id: str | None
    name: str | None
    content: Any
    is_error: bool = False


@dataclass(slots=True)
class Turn:
    """One message of a session. Treated as an immutable value: change one with
    `dataclasses.replace` (it is not frozen only because frozen construction is 4 times slower,
    which a 200,000-message session would feel).

    `position` is the 0-based index in the session's own message list (so a skipped odd record
    leaves a gap), `id` the native id when the format has one, `role` one of system, user,
    assistant or tool, and `raw` the record exactly as loaded (None for a turn a repair added).
    `edited` is set on a turn whose text or calls a repair changed, so the writer re-renders it.
    `model` names the model that wrote an assistant turn, where the format records one.
    """

    position: int
    role: str
    text: str
    id: str | None = None
    tool_calls: tuple[ToolCall, ...] = ()
    tool_results: tuple[ToolResult, ...] = ()
    raw: Any = None
    edited: bool = False
    model: str | None = None


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """A tool the session could call: its name and JSON-schema parameters.

    `source` says where it came from: "session" (the file's own definitions), "tools-file"
    (`--tools`), or "observed" (only seen in calls, so its parameters are the keys seen).
    """

    name: str
    parameters: dict[str, Any] = field(default_factory=dict)
    description: str = ""
    source: str = "session"

    @property
    def properties(self) -> dict[str, Any]:
        """The parameter names mapped to their schemas."""
        props = self.parameters.get("properties")
        return props if isinstance(props, dict) else {}

    @property
    def required(self) -> frozenset[str]:
        """The names of the parameters the schema marks as required."""
        req = self.parameters.get("required")
        return frozenset(r for r in req if isinstance(r, str)) if isinstance(req, list) else frozenset()


@dataclass(frozen=True)
class Session:
    """One conversation, as read from a file or a database.

    `document` is what the storage keeps to write the session back, opaque to every other stage:
    the whole parsed file (a `Document`, shared by every session of a multi-session file), or
    the database, schema and table it was read from (a `HistoryLocation`); `index` says which
    session of a file this is. Both are kept so a writer can reproduce the storage faithfully. `problems` lists odd records that were skipped while loading (they stay in the
    document and are written back untouched).
    """

    format: str
    # Where it was read from: a file or a server's database, or the URI of a file read elsewhere
    # (by Spark's executors); None for a session made in memory.
    path: Location | str | None
    turns: tuple[Turn, ...]
    tools: tuple[ToolSpec, ...] = ()
    document: Any = None
    index: int = 0
    session_id: str | None = None
    problems: tuple[str, ...] = ()
    masked: tuple[tuple[str, str], ...] = ()  # (secret, mask): replaced in the file it is written to

    def turn_at(self, position: int) -> Turn | None:
        """The session's own turn at `position` (not one a repair inserted there), found by
        bisection: turns are kept in position order. Most sessions skip no record and insert no
        turn, so the turn at index `position` is first tried: it is the answer when it has that
        position and a record, and the turn before it has not (then bisection would stop there too)."""
        turns = self.turns
        if 0 <= position < len(turns):
            turn = turns[position]
            if (
                turn.position == position
                and turn.raw is not None
                and (not position or turns[position - 1].position < position)
            ):
                return turn
        index = bisect_left(turns, position, key=_position)
        first = turns[index] if index < len(turns) and turns[index].position == position else None
        while index < len(turns) and turns[index].position == position:
            if turns[index].raw is not None:
                return turns[index]
            index += 1
        return first


@dataclass(slots=True, unsafe_hash=True)
class Fix:
    """What a repair changes in one turn. Treated as an immutable value, as `Finding` is.

    `remove` lists spans of the turn's text to cut; `text`, when set, replaces the whole text
    instead (a person's edit); `add_calls` are calls to record as structured calls just before
    the turn (recovered from text, not executed); `replace_arguments` maps the index of one of the
    turn's own calls to its corrected arguments; `add_results` are results to record just after
    the turn (for calls that were never answered); `rename_calls` maps the index of one of the
    turn's own calls to the tool name it should call. `masks` pairs a secret with the mask that
    replaces it wherever it appears in the turn (its text, its calls' arguments, its results) and,
    written back, anywhere in the session's file (`Session.masked`). `summary` says in one line
    what the fix does.
    """

    remove: tuple[Span, ...] = ()
    text: str | None = None
    add_calls: tuple[ToolCall, ...] = ()
    replace_arguments: tuple[tuple[int, dict[str, Any]], ...] = ()
    add_results: tuple[ToolResult, ...] = ()
    rename_calls: tuple[tuple[int, str], ...] = ()
    masks: tuple[tuple[str, str], ...] = ()
    summary: str = ""

    def apply_to_text(self, text: str) -> str:
        """The turn's text after this fix alone."""
        if self.text is not None:
            return self.text
        return masked_text(remove_spans(text, self.remove), self.masks)


@dataclass(slots=True, unsafe_hash=True)
class Finding:
    """One suspect thing in one turn, with the fix a detector proposes (or None). Treated as an
    immutable value (change one with `dataclasses.replace`), not frozen for speed, as `ToolCall`
    is: a scan may make tens of thousands, and frozen construction is 5 times slower."""

    turn: int
    turn_id: str | None
    role: str
    kind: str
    severity: Severity
    message: str
    span: Span | None = None
    tool: str | None = None
    arguments: dict[str, Any] | None = None
    payload: Any = None
    executed: bool | None = None
    fix: Fix | None = None

    @classmethod
    def at(
        cls,
        turn: Turn,
        kind: str,
        severity: Severity,
        message: str,
        span: Span | None = None,
        tool: str | None = None,
        arguments: dict[str, Any] | None = None,
        payload: Any = None,
        executed: bool | None = None,
        fix: Fix | None = None,
    ) -> Finding:
        """A finding about `turn`: its position, id and role, then the fields as the class takes them."""
        return cls(
            turn.position, turn.id, turn.role, kind, severity, message, span, tool, arguments, payload, executed, fix
        )


@dataclass(slots=True, unsafe_hash=True)
class AppliedFix:
    """One fix as applied: the finding, the turn's text before and after all of that turn's fixes,
    the calls this fix recovered, and, when a person edited the fix, the fix that was proposed.
    `masks` are the secrets the fixes of its turn mask, with their masks: what is recorded of it
    (its audit) never holds them. Treated as an immutable value, as `Finding` is (not frozen: one
    is built for each fix applied)."""

    finding: Finding
    before: str
    after: str
    recovered: tuple[ToolCall, ...]
    proposed: Fix | None = None
    masks: tuple[tuple[str, str], ...] = ()


def _position(turn: Turn) -> int:
    return turn.position


def masked_text(text: str, masks: tuple[tuple[str, str], ...]) -> str:
    """`text` with each secret of `masks` replaced by its mask."""
    for secret, shown in masks:
        text = text.replace(secret, shown)
    return text


def masked_in(value: Any, masks: tuple[tuple[str, str], ...]) -> Any:
    """`value` (a text, or JSON-like data: every string in it, keys too) with each secret of
    `masks` replaced by its mask; `value` itself when there is nothing to replace."""
    if not masks:
        return value
    if isinstance(value, str):
        return masked_text(value, masks)
    if isinstance(value, dict):
        return {masked_in(key, masks): masked_in(entry, masks) for key, entry in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(masked_in(entry, masks) for entry in value)
    return value


def remove_spans(text: str, spans: tuple[Span, ...] | list[Span]) -> str:
    """Cut the given [start, end) spans out of `text`; overlapping spans are merged."""
    if not spans:
        return text
    if len(spans) == 1:  # (the usual fix)
        start, end = spans[0]
        return text[: max(start, 0)] + text[max(end, 0) :]
    pieces: list[str] = []
    cursor = 0
    for start, end in sorted(spans):
        if end <= cursor:
            continue
        pieces.append(text[cursor : max(start, cursor)])
        cursor = end
    pieces.append(text[cursor:])
    return "".join(pieces)


def _shown_url(url: str) -> str:
    """`url` without a password, in its user part or its query."""
    parts = _url_parts(url)
    userinfo, at, hosts = parts.netloc.rpartition("@")
    netloc = f"{userinfo.partition(':')[0]}{at}{hosts}"
    query = urlencode(
        [(key, value) for key, value in parse_qsl(parts.query, keep_blank_values=True) if key != "password"]
    )
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


def _url_parts(url: str) -> SplitResult:
    """`url` split into scheme, host part, path, query and fragment; by hand when Python's parser
    refuses it (the host part then runs up to the first `/`, `?` or `#`)."""
    try:
        return urlsplit(url)
    except ValueError:
        scheme, _, rest = url.partition("://")
        end = min((at for at in (rest.find(mark) for mark in "/?#") if at >= 0), default=len(rest))
        netloc, rest = rest[:end], rest[end:]
        rest, _, fragment = rest.partition("#")
        path, _, query = rest.partition("?")
        return SplitResult(scheme, netloc, path, query, fragment)
