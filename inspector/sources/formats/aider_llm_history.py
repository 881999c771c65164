"""Aider's LLM history log (`aider --llm-history-file FILE`): each request to the model and its
answer, appended as plain text (`aider/io.py`, `log_llm_history`).

Shape read, line by line:
- `TO LLM <time>` starts a request: its messages, each after a `-------` line, every line of a
  message prefixed by its role in capitals (`SYSTEM `, `USER `, `ASSISTANT `, ...);
- `LLM RESPONSE <time>` starts the model's answer, its lines prefixed `ASSISTANT `.
Every request repeats the whole prompt: the system prompt, Aider's example exchanges, the chat so
far and the files' contents, then the message it asks. So the log is read as one conversation of
what is new in each exchange: the request's last message (a user turn, or the role it has) and
the answer (an assistant turn), each once. Each turn keeps as its record the block it was read
from (`kind`, `time`, `line`, `role`, `content`). A line outside a block, or of a message with
no role, is counted in the session's problems.

Positive marker: the file's first line is a `TO LLM <time>` header. The format is read-only:
Aider never reads this log.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from inspector.errors import InspectorError
from inspector.model import ASSISTANT, SYSTEM, TOOL, USER, Session, Turn
from inspector.sources.files.document import Document
from inspector.sources.formats._aider_llm_history_blocks import plain_blocks
from inspector.sources.formats.contract import FileFormat
from inspector.sources.unread_records import Unread, UnreadTally
from inspector.support.counted_words import counted
from inspector.support.lazy_pattern import lazy_pattern
from inspector.support.safe_text import shown_name
from inspector.support.text_lines import has_plain_lines, text_lines

NAME = "aider-llm-history"
HEADER = lazy_pattern(r"(TO LLM|LLM RESPONSE) (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)\Z")
SEPARATOR = "-------"
ROLES = {"SYSTEM": SYSTEM, "USER": USER, "ASSISTANT": ASSISTANT, "TOOL": TOOL}
ROLE_NAMES = frozenset(ROLES)
REQUEST = "TO LLM"
OUTSIDE = "line outside a message"  # the record type of a stray line that names no role


@dataclass
class _Message:
    """One message of a block: its role, its first line's number, its lines without the role."""

    role: str
    line: int
    lines: list[str] = field(default_factory=list)


@dataclass
class _Block:
    """A request or an answer: its kind, time and messages."""

    kind: str
    time: str
    messages: list[_Message] = field(default_factory=list)


def claims(document: Document) -> bool:
    """A text document whose first line is a `TO LLM <time>` header."""
    if not document.is_text:
        return False
    text: str = document.value
    first = text.lstrip("\ufeff")[:64].split("\n", 1)[0].rstrip("\r")
    match = HEADER.match(first)
    return match is not None and match.group(1) == REQUEST


def read(document: Document) -> list[Session]:
    """The log as one conversation: each request's last message and its answer."""
    blocks, stray = _blocks(document.value)
    turns: list[Turn] = []
    for block in blocks:
        message = block.messages[-1] if block.messages else None
        if message is None:
            continue
        content = "\n".join(message.lines)
        record: dict[str, Any] = {
            "kind": block.kind,
            "time": block.time,
            "line": message.line,
            "role": message.role,
            "content": content,
        }
        role = ROLES.get(message.role, USER) if block.kind == REQUEST else ASSISTANT
        turns.append(Turn(len(turns), role, content.strip(), f"line {message.line}", (), (), record))
    if not turns:
        raise InspectorError(f"{shown_name(document.path)}: an Aider LLM history with no message in it")
    problems = (counted(stray, "line outside a message not read", "lines outside a message not read"),) if stray else ()
    return [Session(NAME, document.path, tuple(turns), (), document, 0, None, problems)]


def survey(document: Document) -> tuple[Unread, ...]:
    """The lines the reader skips, not knowing them: a line that starts with a word in capitals
    that is not a role it knows (`<WORD> line`: a role of a newer Aider), and any other line
    outside a message (the log names no version, and has no keys)."""
    tally = UnreadTally({})
    request: bool | None = None  # whether the current block is a request; None before the first
    for line in text_lines(document.value):
        header = HEADER.match(line)
        if header is not None:
            request = header.group(1) == REQUEST
            continue
        word = line.partition(" ")[0]
        if not line.strip() or (request is not None and (word in ROLES or (request and line == SEPARATOR))):
            continue
        tally.unknown_type(f"{word} line" if word.isalpha() and word.isupper() else OUTSIDE, None)
    return tally.unread()


def _blocks(text: str) -> tuple[list[_Block], int]:
    """The blocks of the log with the last message of each, and the count of lines outside any
    message: found a block at a time when every line ends in a plain line feed."""
    if not has_plain_lines(text):
        return _blocks_by_line(text)
    found, stray = plain_blocks(text, ROLE_NAMES, REQUEST)
    blocks = [_Block(kind, time, [] if m is None else [_Message(m[0], m[1], m[2])]) for kind, time, m in found]
    return blocks, stray


def _blocks_by_line(text: str) -> tuple[list[_Block], int]:
    """The blocks of the log, in one pass over its lines, and the count of lines outside any
    message (before the first header, or not starting with a role). A block keeps only its last
    message (the one read), so the prompt each request repeats is not held in memory."""
    blocks: list[_Block] = []
    stray = 0
    for number, line in enumerate(text_lines(text), start=1):
        header = HEADER.match(line)
        if header is not None:
            blocks.append(_Block(header.group(1), header.group(2)))
            continue
        if not blocks:
            stray += 1 if line.strip() else 0
            continue
        block = blocks[-1]
        if line == SEPARATOR and block.kind == REQUEST:
            block.messages.append(_Message("", number + 1))
            continue
        role, _, rest = line.partition(" ")
        if role not in ROLES:
            stray += 1 if line.strip() else 0
            continue
        if not block.messages or (block.messages[-1].role not in ("", role)):
            block.messages.append(_Message(role, number))
        message = block.messages[-1]
        if not message.lines:  # a message begins: only a block's last one is read, the others go
            block.messages = [message]
        message.role = role
        message.lines.append(rest)
    for block in blocks:
        block.messages = [message for message in block.messages if message.role]
    return blocks, stray


FORMAT = FileFormat(NAME, claims, read, survey=survey)
