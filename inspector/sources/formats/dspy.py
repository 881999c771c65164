"""DSPy 3.x language-model histories: `lm.history` dumped as a JSON list.

Shape read: one entry per model call, `{"prompt", "messages": [{role, content}], "kwargs",
"response", "outputs": [str | {"text", ...}], "usage", "cost", "timestamp", "uuid", "model",
...}`. Every call sends its whole prompt again (a `ReAct` trajectory is text inside the user
message, not messages), so the calls are independent: each entry is a session (its `uuid`, else
`entry N`) holding its prompt messages and the model's reply.

DSPy's chat adapter writes a reply as fields, each after a `[[ ## name ## ]]` header line
(`[[ ## reasoning ## ]]`, `[[ ## answer ## ]]`, ReAct's `next_tool_name`, ...). Each field's value
is read as its own assistant turn (its id the field's name), so a fake tool result that opens
the answer is at the start of a turn, where the scanner looks for one; the headers stay in the
entry. ReAct's tool choices are text fields, not calls, and are not read as calls. Positive
marker: every entry has `messages`, `outputs` and `kwargs`. DSPy never loads its history back,
so the format is read-only (it has no writer).
"""

from __future__ import annotations

from typing import Any

from inspector.model import ASSISTANT, SYSTEM, TOOL, USER, Session, Turn
from inspector.sources.files.document import Document
from inspector.sources.formats.contract import FileFormat

NAME = "dspy"

ROLES = {"system": SYSTEM, "developer": SYSTEM, "user": USER, "assistant": ASSISTANT, "tool": TOOL}
ENTRY_KEYS = ("messages", "outputs", "kwargs")
HEADER = "[[ ## "


def claims(document: Document) -> bool:
    """A list of history entries, each with `messages`, `outputs` and `kwargs`."""
    value = document.value
    if document.is_jsonl or not isinstance(value, list) or not value:
        return False
    return all(isinstance(entry, dict) and all(key in entry for key in ENTRY_KEYS) for entry in value[:50])


def read(document: Document) -> list[Session]:
    """One session per model call."""
    sessions = []
    roles = ROLES
    for index, entry in enumerate(document.value):
        if type(entry) is not dict:
            continue
        turns: list[Turn] = []
        problems: list[str] = []
        messages = entry.get("messages")
        for number, message in enumerate(messages if type(messages) is list else ()):
            try:
                role = roles[message["role"]]
            except (KeyError, TypeError):  # no role, an unknown or unhashable one, or not an object at all
                problems.append(f"message {number}: not a message with a known role, skipped")
                continue
            content = message.get("content")
            turns.append(
                Turn(len(turns), role, content if type(content) is str else _text(content), None, (), (), message)
            )
        outputs = entry.get("outputs")
        for output in outputs if type(outputs) is list else ():
            text = output.get("text") if type(output) is dict else output
            for field, value in fields(text) if type(text) is str else ():
                turns.append(Turn(len(turns), ASSISTANT, value, field, (), (), output))
        uuid = entry.get("uuid")
        sessions.append(
            Session(
                NAME,
                document.path,
                tuple(turns),
                (),
                document,
                index,
                uuid if type(uuid) is str else f"entry {index + 1}",
                tuple(problems),
            )
        )
    return sessions


def fields(text: str) -> list[tuple[str | None, str]]:
    """A reply's `(field name, value)` pairs: each value is the text after a `[[ ## name ## ]]`
    header line up to the next one, without the blank lines around it; text before the first
    header (or a reply with none) has no name. Empty values (the `completed` marker) are left out.
    One pass over the text: each search starts where the last one ended."""
    out: list[tuple[str | None, str]] = []
    name: str | None = None
    start = 0
    at = text.find(HEADER)
    while at != -1:
        end = text.find("\n", at)
        end = len(text) if end == -1 else end
        line = text[at:end].rstrip()
        if (at == 0 or text[at - 1] == "\n") and line.endswith(" ## ]]") and len(line) > 12:
            _add_field(out, name, text[start:at])
            name, start = line[6:-6].strip(), end + 1
        at = text.find(HEADER, end)
    _add_field(out, name, text[start:])
    return out


def _add_field(out: list[tuple[str | None, str]], name: str | None, value: str) -> None:
    value = value.strip("\n")
    if value.strip():
        out.append((name, value))


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(p["text"] for p in content if isinstance(p, dict) and isinstance(p.get("text"), str))
    return ""


FORMAT = FileFormat(NAME, claims, read)
