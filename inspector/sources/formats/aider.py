"""Aider chat histories: `<repo>/.aider.chat.history.md`, the Markdown Aider appends each chat to.

Shape read, line by line, as Aider itself splits the file when `--restore-chat-history` loads it
back (`aider/utils.py`, `split_chat_history_markdown`):
- `# aider chat started at <time>`: a run's start, not a turn (every line starting `# ` is
  skipped, a heading inside a reply too, as Aider skips it);
- `> ` lines: Aider's notices and the commands it ran (its "tool" output, which it leaves out of
  the conversation too);
- `#### ` lines: a user message (its lines joined, the marker taken off);
- every other line: the assistant's reply, up to the next `> ` or `#### ` line.
The whole file is one conversation, as Aider restores it. Each turn keeps as its record the
message Aider would restore (`role`, `content`) and the number of its first line (`line`, also
its id). When every line ends in a line feed alone, the messages are found a message at a time
(one search each) instead of a line at a time: the same turns, in the time the searches take. Aider
has no tool calling: its replies edit files through the blocks they hold, so the turns make no
calls, and a reply's printed call markup or invented result is found in its text.

Positive marker: the file starts with Aider's `# aider chat started at` line (after blank lines).
The format is read-only: Aider reads the file back only as text to restore.
"""

from __future__ import annotations

import re
from typing import Any

from inspector.errors import InspectorError
from inspector.model import ASSISTANT, USER, Session, Turn
from inspector.sources.files.document import Document
from inspector.sources.formats.contract import FileFormat
from inspector.sources.unread_records import Unread, UnreadTally
from inspector.support.lazy_pattern import lazy_pattern
from inspector.support.safe_text import shown_name
from inspector.support.text_lines import has_plain_lines, text_lines

NAME = "aider"
HEADER = "# aider chat started at "
USER_MARK = "#### "
NOTICE_MARK = "> "
SKIPPED_MARK = "# "
VERSION_NOTICE = "> Aider v"  # the notice a run opens with, naming Aider's version
HEADING = "# heading"  # the record type of a `# ` line that is not a run's start: skipped
# A message's lines when each ends in a line feed alone: a run of lines of one kind, with the `# `
# lines Aider skips among them (read as the kind's). Before it, in the same search, what makes no
# message: notices, skipped lines before any other, and blank and skipped lines before a notice,
# a user line or the end.
_LINE = r"[^\n]*(?:\n|\Z)"
_NO_MESSAGE = rf"> {_LINE}(?:(?:> |# ){_LINE})*|(?:# {_LINE})+|(?:[^\S\n]*\n|# {_LINE})+(?=#### |> |\Z)"
_MESSAGES = lazy_pattern(
    rf"(?:{_NO_MESSAGE})*"
    rf"(?:(?P<user>#### {_LINE}(?:(?:#### |# ){_LINE})*)"
    rf"|(?P<reply>(?!#### |> |# ){_LINE}(?:(?!#### |> ){_LINE})*))"
)
_OPENING = lazy_pattern(f"[\ufeff \t\r\n]*{re.escape(HEADER)}")  # matched, not a copy of the text stripped
_SKIPPED_LINE = lazy_pattern(rf"(?<=\n)# {_LINE}")  # within a run, after its first line


def claims(document: Document) -> bool:
    """A text document whose first line that is not blank is Aider's chat header."""
    if not document.is_text:
        return False
    return _OPENING.match(document.value) is not None


def read(document: Document) -> list[Session]:
    """The chat as one conversation, each message a turn (one pass over the lines)."""
    text: str = document.value
    turns = _plain_turns(text) if has_plain_lines(text) else _turns_by_line(text)
    if not turns:
        raise InspectorError(f"{shown_name(document.path)}: an Aider chat history with no message in it")
    return [Session(NAME, document.path, tuple(turns), (), document, 0, None, ())]


def _plain_turns(text: str) -> list[Turn]:
    """The turns of a chat whose lines all end in a line feed alone, a message at a time (one
    search: only the messages are Python steps, not the lines, notices or blank runs between)."""
    turns: list[Turn] = []
    line, counted = 1, 0  # the number of the line at offset `counted`
    for message in _MESSAGES.finditer(text):
        kind = "user" if message.group("user") is not None else "reply"
        start = message.start(kind)
        if start == len(text):  # (an empty reply matched at the end)
            continue
        line += text.count("\n", counted, start)
        counted = start
        content = message.group(kind)
        if "\n# " in content:
            content = _SKIPPED_LINE.sub("", content)
        if kind == "user":
            content = content[len(USER_MARK) :].replace("\n" + USER_MARK, "\n")
        _add_turn(turns, USER if kind == "user" else ASSISTANT, content, line)
    return turns


def _turns_by_line(text: str) -> list[Turn]:
    """The turns of a chat, in one pass over its lines (split as `str.splitlines` splits them)."""
    turns: list[Turn] = []
    role: str | None = None
    lines: list[str] = []
    first = 0
    for number, line in enumerate(text_lines(text, keepends=True), start=1):
        kind = _role_of(line)
        if kind == _SKIPPED:
            continue
        if kind != role:
            _add_turn(turns, role, "".join(lines), first)
            role, lines, first = kind, [], number
        if kind is not None:  # a notice's lines are not kept
            lines.append(line[len(USER_MARK) :] if kind == USER else line)
    _add_turn(turns, role, "".join(lines), first)
    return turns


def survey(document: Document) -> tuple[Unread, ...]:
    """The lines the reader skips without knowing them: a `# ` line that is not a run's start
    (`# heading`), under the Aider version the run's first notice names. The Markdown has no
    keys: a run's start, notices, user messages and replies are every other line."""
    tally = UnreadTally({})
    version = None
    for line in text_lines(document.value):
        if line.startswith(VERSION_NOTICE):
            words = line[len(VERSION_NOTICE) :].split()
            version = words[0] if words else None
        elif line.startswith(HEADER):
            version = None
        elif line.startswith(SKIPPED_MARK):
            tally.unknown_type(HEADING, version)
    return tally.unread()


_SKIPPED = "skipped"


def _role_of(line: str) -> str | None:
    """The role of a line's message: `USER`, `ASSISTANT`, None for a notice, `_SKIPPED` for a line
    Aider leaves out. Only a line starting `#` or `>` needs a closer look."""
    start = line[:1]
    if start == "#":
        if line.startswith(SKIPPED_MARK):
            return _SKIPPED
        if line.startswith(USER_MARK):
            return USER
    elif start == ">" and line.startswith(NOTICE_MARK):
        return None
    return ASSISTANT


def _add_turn(turns: list[Turn], role: str | None, content: str, first: int) -> None:
    """The message `content` as a turn, unless it is a notice or blank (Aider keeps neither)."""
    if role is None:
        return
    text = content.strip()
    if not text:
        return
    record: dict[str, Any] = {"role": role, "content": content, "line": first}
    turns.append(Turn(len(turns), role, text, f"line {first}", (), (), record))


FORMAT = FileFormat(NAME, claims, read, survey=survey)
