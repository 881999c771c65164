"""Which text files in a folder are a tool's session logs (Aider's chat history and LLM log): a
folder holds Markdown and text files of every kind (a README, notes), so such a file is a session
only when a format claims the text it starts with, and any other is left out without a word.

Only the file's first bytes are read to decide: the text formats claim a log by its first lines.
"""

from __future__ import annotations

from pathlib import Path

from inspector.errors import InspectorError
from inspector.sources.files.document import Document
from inspector.sources.formats import format_of

TEXT_LOG_SUFFIXES = (".md", ".txt")  # a tool's text logs among a folder's other text files
HEAD_BYTES = 64 * 1024


def is_text_log_name(name: str) -> bool:
    """Whether a file named `name` may be a text log, to be told by its first bytes."""
    return name.endswith(TEXT_LOG_SUFFIXES)


def is_text_log(path: Path) -> bool:
    """Whether the file at `path` starts as a text log that a format claims (unreadable: no)."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(HEAD_BYTES)
    except OSError:
        return False
    return starts_as_text_log(path, head)


def starts_as_text_log(path: Path | str, head: bytes) -> bool:
    """Whether `head`, the first bytes of the file `path`, is text that a format claims."""
    if b"\x00" in head:
        return False
    document = Document(path, head.decode("utf-8", "ignore"), is_text=True)
    try:
        format_of(document)
    except InspectorError:
        return False
    return True
