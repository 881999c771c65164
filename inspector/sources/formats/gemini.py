"""Gemini sessions.

Shapes read: a request `{"contents": [...], "tools": [{"functionDeclarations": [...]}],
"systemInstruction"}`, a Gemini CLI checkpoint `{"history": [...]}`, and a bare list of contents.
Each content is `{role: "user"/"model", parts: [...]}` with parts `{text}` (`thought: true` marks
reasoning, not text), `{functionCall: {id?, name, args}}` and `{functionResponse: {id?, name,
response}}`. The snake_case spellings (`function_call`, `function_declarations`, ...) are read too,
and an edited part keeps the spelling it had.
"""

from __future__ import annotations

from typing import Any

from inspector.catalogue import parse_tool_definitions
from inspector.errors import InspectorError
from inspector.model import Session, Turn
from inspector.sources.files.document import Document
from inspector.sources.formats.contract import FileFormat
from inspector.sources.messages.gemini_contents import ROLES, content_turn, new_contents, render_edited
from inspector.sources.messages.record_lists import rebuild_records
from inspector.support.safe_text import shown_name

NAME = "gemini"

LIST_KEYS = ("contents", "history")
# What only other formats with `parts` write (AI SDK UI messages, Pydantic AI), and the keys of a Gemini part.
FOREIGN_ROLES = frozenset({"assistant", "system", "tool", "developer"})
PART_KEYS = frozenset(
    {
        "text",
        "thought",
        "thoughtSignature",
        "thought_signature",
        "inlineData",
        "inline_data",
        "fileData",
        "file_data",
        "functionCall",
        "function_call",
        "functionResponse",
        "function_response",
        "executableCode",
        "executable_code",
        "codeExecutionResult",
        "code_execution_result",
        "videoMetadata",
        "video_metadata",
        "partMetadata",
        "part_metadata",
    }
)


def claims(document: Document) -> bool:
    """A contents list (alone, or under `contents` or `history`) whose records carry Gemini `parts`."""
    if document.is_jsonl:
        return False
    records = _contents(document.value)
    return records is not None and _looks_like_contents(records)


def read(document: Document) -> list[Session]:
    """The one session of the file."""
    value = document.value
    turns: list[Turn] = []
    problems: list[str] = []
    for position, content in enumerate(_claimed_contents(document)):
        if (
            not isinstance(content, dict)
            or not isinstance(content.get("parts"), list)
            or not _known_role(content.get("role", "user"))
        ):
            problems.append(f"message {position}: not a content with parts and a user or model role, skipped")
            continue
        turns.append(content_turn(position, content))
    tools = parse_tool_definitions(value.get("tools")) if isinstance(value, dict) else []
    return [Session(NAME, document.path, tuple(turns), tuple(tools), document, 0, None, tuple(problems))]


def write(document: Document, sessions: list[Session]) -> bytes:
    """The file's bytes with the session's repaired turns; untouched contents are copied as they
    were (`Document.render_bytes`)."""
    value = document.value
    records = rebuild_records(_claimed_contents(document), sessions[0].turns, render_edited, new_contents)
    if isinstance(value, list):
        return document.render_bytes(records)
    key = next(k for k in LIST_KEYS if isinstance(value.get(k), list))
    return document.render_bytes({**value, key: records})


def _claimed_contents(document: Document) -> list[Any]:
    """The contents of a file this format claimed (`_contents`); one `InspectorError` line for a
    file that holds none."""
    contents = _contents(document.value)
    if contents is None:
        raise InspectorError(f"{shown_name(document.path)}: holds no list of contents")
    return contents


def _contents(value: Any) -> list[Any] | None:
    if isinstance(value, list):
        return value
    if isinstance(value, dict):
        return next((value[k] for k in LIST_KEYS if isinstance(value.get(k), list)), None)
    return None


def _looks_like_contents(records: list[Any]) -> bool:
    """Most records carry `parts`, and nothing shows another format that also has `parts`:
    a role Gemini never writes (`assistant`, ...), a message `kind` (Pydantic AI), or a part
    typed by `type` / `part_kind` or holding none of Gemini's part keys (AI SDK UI messages)."""
    dicts = [r for r in records[:50] if isinstance(r, dict)]
    if not dicts or sum(isinstance(r.get("parts"), list) for r in dicts) * 2 <= len(dicts):
        return False
    return not any(
        (type(r.get("role")) is str and r["role"] in FOREIGN_ROLES) or "kind" in r or any(map(_foreign_part, _parts(r)))
        for r in dicts
    )


def _parts(record: dict[str, Any]) -> list[Any]:
    parts = record.get("parts")
    return parts[:50] if isinstance(parts, list) else []


def _foreign_part(part: Any) -> bool:
    """A part no Gemini content holds: one typed the way other formats type theirs, or an object
    with none of Gemini's part keys."""
    return isinstance(part, dict) and ("type" in part or "part_kind" in part or PART_KEYS.isdisjoint(part))


def _known_role(role: Any) -> bool:
    return isinstance(role, str) and role in ROLES


FORMAT = FileFormat(NAME, claims, read, write, copies_bytes=True)
