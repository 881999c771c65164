"""LangChain message histories as `messages_to_dict` writes them: a JSON list of
`{"type": "human" | "ai" | "tool" | "system" | "function" | "chat", "data": {content, ...}}` (or
an object holding that list as `messages`, as a LangGraph state is often saved).

The records' shape is `messages.langchain_dicts`'s; the messages are read and written by
`langchain_messages` (calls from `tool_calls` and
`invalid_tool_calls`, results from `tool` messages). A record that is no `{type, data}` message,
or a message of a type LangChain does not load (`remove`, ...), is kept in place and counted in
the session's problems. `messages_from_dict` loads the written file back.

No other format has records keyed `type` and `data` with these type names: OpenAI's have roles,
Responses items other types, Gemini's `parts`.
"""

from __future__ import annotations

from inspector.model import Session
from inspector.sources.files.document import Document
from inspector.sources.formats.contract import FileFormat
from inspector.sources.messages.langchain_dicts import is_message, unwrap, wrap
from inspector.sources.messages.langchain_lists import read_list, write_list
from inspector.sources.messages.message_list import message_list

NAME = "langchain"


def claims(document: Document) -> bool:
    """A list of records most of which are `{type: <a LangChain message type>, data: {...}}`."""
    records = message_list(document)
    if not records:
        return False
    dicts = [r for r in records[:50] if type(r) is dict]
    return sum(is_message(r) for r in dicts) * 2 > len(dicts) > 0


def read(document: Document) -> list[Session]:
    """The one session of the list."""
    return read_list(NAME, document, unwrap)


def write(document: Document, sessions: list[Session]) -> str:
    """The file's text with the repaired messages; the others are kept as they were."""
    return write_list(document, sessions, unwrap, wrap)


FORMAT = FileFormat(NAME, claims, read, write)
