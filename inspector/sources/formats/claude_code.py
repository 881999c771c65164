"""Claude Code sessions: `~/.claude/projects/<encoded-path>/<session uuid>.jsonl` (the Claude Agent
SDK writes the same).

Shape read: JSON Lines, one event per line. The messages are the `user` and `assistant` events,
whose `message` is an Anthropic message read as the Anthropic format reads one (text, thinking,
`tool_use` and `tool_result` blocks); each event has a `uuid` and the `parentUuid` of the event
before it, a `sessionId`, `timestamp`, `cwd`, `version` and other keys, all kept. Claude Code
writes each content block of one API response as its own assistant event, all sharing
`message.id`: consecutive ones are read as one assistant turn (its position is the first one's),
so a reply's text is whole for the detectors. A call whose input did not parse as JSON is stored as
`input: {"__unparsedToolInput": {"raw", "len"}}`: it is read as a call whose arguments are that raw
string. Results are `tool_result` blocks in user events (with a `toolUseResult` copy).

Events in a subagent's thread (`isSidechain`) form their own session, with the id
`SESSION/agent-AGENT` (or `SESSION/sidechain-ROOT` without an `agentId`); the main thread's id is
the file's `sessionId`. A turn's position is its (first) line's index (0-based), its id that event's
uuid, its `raw` the tuple of its events. A session's tools are those its requests offered, as
Claude Code (2.1.3xx) records each new request's shape (`api-request-shape`: its `tools`, under the
subagent's `agentId`); a file without such records (or without the shape a request names) declares
none.
Other event types (`summary`, `system`, `attachment`, `file-history-snapshot`, `queue-operation`,
`last-prompt`, `progress`, ...) are kept in place and never read as turns; an unknown type is
counted in the session's problems. Writing is `claude_code_chain`'s: new events are spliced into
the `parentUuid` chain as Claude Code writes real ones.
"""

from __future__ import annotations

from pathlib import PurePath
from typing import Any, NamedTuple

from inspector.catalogue import parse_tool_definitions
from inspector.model import ASSISTANT, USER, Session, ToolCall, ToolSpec, Turn
from inspector.sources.files.document import Document
from inspector.sources.files.line_problems import NOT_AN_OBJECT, line_problems
from inspector.sources.formats import _claude_code_chain
from inspector.sources.formats.contract import FileFormat
from inspector.sources.messages import anthropic_messages
from inspector.sources.messages.arguments import parse_arguments
from inspector.sources.messages.turn_models import model_name
from inspector.sources.unread_records import Unread, UnreadTally

NAME = "claude-code"

MESSAGE_TYPES = {"user": USER, "assistant": ASSISTANT}
# Every other type Claude Code (2.1, up to 2.1.332) writes or reads back: kept in place, never a turn, no problem.
KNOWN_TYPES = frozenset(
    {
        "summary",
        "system",
        "attachment",
        "progress",
        "file-history-snapshot",
        "queue-operation",
        "last-prompt",
        "custom-title",
        "ai-title",
        "tag",
        "relocated",
        "agent-name",
        "agent-color",
        "agent-setting",
        "mode",
        "permission-mode",
        "isolation-latch",
        "worktree-state",
        "pr-link",
        "bridge-session",
        "attribution-snapshot",
        "content-replacement",
        "fork-context-ref",
        "marble-origami-commit",
        "marble-origami-snapshot",
        "marble-origami-reset",
        # 2.1.3xx: request records (their messages are copies of the transcript's), and state
        "api-request",
        "api-request-shape",
        "api-request-blob",
        "api-request-resumed",
        "atis-latch",
        "tools-used",
        "cost-state",
        "file-history-delta",
        "continued-in",
        "resume-head-vouch",
        "data-flow-records",
        "data-flow-incomplete",
        "derived-from",
        "frame-link",
        "ended-by-model",
        "artifact-comment-monitor",
        "artifact-autoreact-ledger",
        "history-suppression",
        "session-owner",
        "dev-mods",
        "memory-mode",
        "observer-ref",
        "host-row",
        "repl-mode",
        "hybrid-organization",
    }
)


# The keys of `user` and `assistant` events read or known to be kept as they are (up to 2.1.332);
# `scan --unknowns` lists any other.
MESSAGE_KEYS = frozenset(
    {
        *("type", "uuid", "parentUuid", "logicalParentUuid", "isSidechain", "agentId", "sessionId", "slug"),
        *("timestamp", "cwd", "version", "gitBranch", "userType", "entrypoint", "message", "requestId"),
        *("toolUseResult", "sourceToolAssistantUUID", "isMeta", "isCompactSummary", "compactMetadata"),
        *("isVisibleInTranscriptOnly", "isApiErrorMessage", "error", "apiError", "thinkingMetadata", "todos"),
        *("imagePasteIds", "mcpMeta", "teamName", "permissionMode", "permissionDecision", "promptId"),
        *("promptSource", "rowSource", "sandboxed", "sentAtMs", "turnOrigin", "turnPosition", "apiBlockIndex"),
        *("madeBy", "perTurnEffort", "promptCacheRequested", "requestRef", "requestedModel", "toolInputStreamMs"),
    }
)


CLAIM_LOOK = 10_000  # records looked at for a `parentUuid` before a file is taken for another agent's


class Thread(NamedTuple):
    """The events of one session of the file, in file order: `(index, event)` of every event in its
    `parentUuid` chain (messages and the others), whether it is a subagent's (sidechain), and the
    records of its requests (`api-request` and `api-request-shape`, by their `agentId`)."""

    key: str | None
    sidechain: bool
    events: list[tuple[int, dict[str, Any]]]
    requests: tuple[dict[str, Any], ...] = ()


def claims(document: Document) -> bool:
    """JSON Lines (or one line) holding at least one Claude Code message event: a `user` or
    `assistant` event with a `uuid`, a `parentUuid` key, a `sessionId` and an Anthropic message
    (`content` a string or a list of blocks, no Gemini `parts`: Qwen Code writes this envelope
    around a Gemini `Content`). A file none of whose first `CLAIM_LOOK` records has a `parentUuid`
    is none (every event of a thread has one, and Claude Code writes its first within a few lines):
    another agent's large log is not looked through to its end."""
    records = _records(document)
    if not any(isinstance(record, dict) and "parentUuid" in record for record in records[:CLAIM_LOOK]):
        return False
    return any(
        _is_message_event(record) and _is_anthropic(record["message"])
        for record in records
        if isinstance(record, dict) and "parentUuid" in record  # (a quick test rules out other files' records)
    )


def read(document: Document) -> list[Session]:
    """One session for the main thread, then one per subagent thread, in the order they start."""
    records = _records(document)
    threads = _threads(document, records)
    file_id = _file_session_id(document, threads)
    sessions: list[Session] = []
    for index, thread in enumerate(threads):
        turns = _turns(thread)
        if not turns:  # a thread of attachments or system events only
            continue
        problems = (
            () if sessions else tuple(line_problems(records, _unread_label, "event", "line"))
        )  # the file's, told once
        session_id = file_id if not thread.sidechain else f"{file_id}/{thread.key}"
        tools = _offered_tools(thread.requests)
        sessions.append(Session(NAME, document.path, tuple(turns), tools, document, index, session_id, problems))
    return sessions


_REQUEST_RECORDS = frozenset({"api-request", "api-request-shape"})


def _offered_tools(requests: tuple[dict[str, Any], ...]) -> tuple[ToolSpec, ...]:
    """The tools a thread's requests offered, by name, from its `api-request-shape` records: every
    shape its requests took (a tool loaded on the way, by `ToolSearch`, is in the shapes after it).
    None when one of its requests (`api-request`) names a shape the file does not hold: its tools
    are then only those its calls show."""
    offered: dict[str, ToolSpec] = {}
    shapes, asked = set(), set()
    for record in requests:
        if record["type"] == "api-request":
            asked.add(record.get("shapeHash"))
        elif type(record.get("shape")) is dict:
            shapes.add(record.get("shapeHash"))
            for spec in parse_tool_definitions(record["shape"].get("tools")):
                offered.setdefault(spec.name, spec)
    return tuple(offered.values()) if asked <= shapes else ()


def write(document: Document, sessions: list[Session]) -> bytes:
    """The file's bytes with every session's repaired turns; untouched lines are kept byte for byte."""
    records = _records(document)
    return _claude_code_chain.render(document, records, sessions, _threads(document, records))


def _threads(document: Document, records: list[Any]) -> list[Thread]:
    """The file's threads (`threads_of`), found once for its reader and its writer."""
    threads: list[Thread] = document.derived_once(NAME, lambda: threads_of(records))
    return threads


def threads_of(records: list[Any]) -> list[Thread]:
    """The file's threads: the main one (events not marked `isSidechain`), then each subagent's,
    keyed `agent-ID` by its events' `agentId`, else `sidechain-UUID` by the uuid of its first event
    whose parent is not one of its own. Threads with no event are left out."""
    main = Thread(None, False, [])
    main_events = main.events
    side: dict[str, Thread] = {}
    key_of: dict[str, str] = {}  # uuid of a sidechain event -> its thread's key
    requests: dict[str | None, list[dict[str, Any]]] = {}  # a thread's key -> its request records
    for index, event in enumerate(records):
        if not isinstance(event, dict):
            continue
        uuid = event.get("uuid")
        if type(uuid) is not str:
            if event.get("type") in _REQUEST_RECORDS:
                agent = event.get("agentId")
                requests.setdefault(f"agent-{agent}" if type(agent) is str else None, []).append(event)
            continue
        if event.get("isSidechain") is not True:
            main_events.append((index, event))
            continue
        agent = event.get("agentId")
        parent = event.get("parentUuid")
        key = (
            f"agent-{agent}"
            if type(agent) is str
            else key_of[parent]
            if type(parent) is str and parent in key_of
            else f"sidechain-{uuid}"
        )
        key_of[uuid] = key
        side.setdefault(key, Thread(key, True, [])).events.append((index, event))
    threads = [thread for thread in (main, *side.values()) if thread.events]
    return [
        thread._replace(requests=tuple(requests[thread.key])) if thread.key in requests else thread
        for thread in threads
    ]


def message_groups(thread: Thread) -> list[list[tuple[int, dict[str, Any]]]]:
    """The thread's message events, each API response's consecutive assistant events (same
    `message.id`) together; events of other types between them are passed over."""
    groups: list[list[tuple[int, dict[str, Any]]]] = []
    group: list[tuple[int, dict[str, Any]]] = []
    group_id = None
    for index, event in thread.events:
        kind = event.get("type")
        if kind == "assistant":
            message = event.get("message")
            if not isinstance(message, dict):
                continue
            message_id = message.get("id")
            if message_id is not None and message_id == group_id and group:
                group.append((index, event))
                continue
        elif kind != "user" or not isinstance(event.get("message"), dict):
            continue
        else:
            message_id = None
        group = [(index, event)]
        group_id = message_id
        groups.append(group)
    return groups


def _turns(thread: Thread) -> list[Turn]:
    names: dict[str, str] = {}  # call id -> tool name, for the results
    return [_turn(group, names) for group in message_groups(thread)]


def _turn(group: list[tuple[int, dict[str, Any]]], names: dict[str, str]) -> Turn:
    """One turn from a group of events, read as the Anthropic format reads one message."""
    position, first = group[0]
    message = first["message"]
    if len(group) == 1:
        content = message.get("content")
        events: tuple[dict[str, Any], ...] = (first,)
    else:
        content = [block for _, event in group for block in _blocks(event)]
        events = tuple([event for _, event in group])
    role, text, calls, results = anthropic_messages.content_parts(first["type"], content, names)
    if calls:
        calls = tuple(map(_unparsed, calls))
    model = model_name(message.get("model")) if role == ASSISTANT else None
    return Turn(position, role, text, first["uuid"], calls, results, events, model=model)


def _unparsed(call: ToolCall) -> ToolCall:
    """A call whose input Claude Code could not parse, with its raw text as its arguments (for
    `malformed-arguments`); any other call as it is."""
    stored = _claude_code_chain.unparsed_raw(call.arguments_raw)
    if stored is None:
        return call
    return ToolCall(call.id, call.name, stored, parse_arguments(stored), call.origin)


def _blocks(event: dict[str, Any]) -> list[Any]:
    content = event["message"].get("content")
    if isinstance(content, str):
        return [{"type": "text", "text": content}] if content else []
    return content if isinstance(content, list) else []


def _records(document: Document) -> list[Any]:
    """The file's records: the lines of JSON Lines, or the one value of a one-line file."""
    return document.value if document.is_jsonl else [document.value]


def _is_message_event(record: Any) -> bool:
    return (
        isinstance(record, dict)
        and _kind(record) in MESSAGE_TYPES
        and type(record.get("uuid")) is str
        and "parentUuid" in record
        and "sessionId" in record
        and isinstance(record.get("message"), dict)
    )


def _is_anthropic(message: dict[str, Any]) -> bool:
    """Whether a message is Anthropic's: its `content` a string or a list, and no `parts` list."""
    return isinstance(message.get("content"), (str, list)) and "parts" not in message


def _kind(event: dict[str, Any]) -> str | None:
    """The event's `type` when it is a string."""
    kind = event.get("type")
    return kind if type(kind) is str else None


def _file_session_id(document: Document, threads: list[Thread]) -> str:
    """The `sessionId` of the main thread's last message event (the one Claude Code resumes
    from), else of any event, else the file's name."""
    for thread in threads:
        for _, event in reversed(thread.events):
            if _kind(event) in MESSAGE_TYPES and type(session_id := event.get("sessionId")) is str:
                return session_id
    return PurePath(document.path).stem  # a URI too: a file Spark's executors read elsewhere


def _unread_label(record: Any) -> str | None:
    """What a record not read as a turn is (of a type not known, or a message without a uuid or a
    message object); None for one read or kept without a word."""
    if not isinstance(record, dict):
        return NOT_AN_OBJECT
    kind = record.get("type")
    if type(kind) is not str:
        return "without a type"
    if kind in KNOWN_TYPES:
        return None
    if kind in MESSAGE_TYPES:
        readable = type(record.get("uuid")) is str and isinstance(record.get("message"), dict)
        return None if readable else f"of type {kind!r} without a uuid or a message object"
    return f"of type {kind!r}"


def survey(document: Document) -> tuple[Unread, ...]:
    """The event types the reader does not know, and the keys of message events it does not know,
    each under the Claude Code `version` the events say wrote them (the last one stated so far:
    a resumed file holds several)."""
    tally = UnreadTally(dict.fromkeys(MESSAGE_TYPES, MESSAGE_KEYS))
    version = None
    for record in _records(document):
        if type(record) is not dict:
            continue
        stated = record.get("version")
        version = stated if type(stated) is str else version
        kind = _kind(record)
        if kind in MESSAGE_TYPES:
            tally.keys(kind, record, version)
        elif kind not in KNOWN_TYPES:
            tally.unknown_type(kind, version)
    return tally.unread()


FORMAT = FileFormat(NAME, claims, read, write, survey)
