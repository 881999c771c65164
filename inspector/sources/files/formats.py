"""The registry of session formats kept as plain files, and recognising a file's format.

Adding a format means adding a module and listing it in `FORMATS`. A format module has:

- `NAME`: the format's name (`--format NAME`);
- `matches(document) -> bool`: whether a parsed `Document` has this format's shape, by its own
  positive markers;
- `read(document) -> list[Session]`;
- `write(document, sessions) -> str`: the file's new text, given every session read from it
  (repaired or not); records it was not asked to change are kept as they were (`records`).
"""

from __future__ import annotations

from types import ModuleType

from inspector.errors import InspectorError
from inspector.model import Session
from inspector.sources.files import anthropic, gemini, openai_chat, session_dump
from inspector.sources.files.document import Document

# Most specific shapes first: a plain `{"messages": [...]}` is OpenAI unless it shows Anthropic's blocks.
FORMATS: dict[str, ModuleType] = {
    module.NAME: module for module in (session_dump, gemini, anthropic, openai_chat)
}


def format_of(document: Document, format_name: str | None = None) -> ModuleType:
    """The format module that reads `document`: the one named, checked, or the first that
    recognises it; an `InspectorError` naming what the file holds when none does."""
    if format_name is not None:
        module = FORMATS.get(format_name)
        if module is None:
            raise InspectorError(f"unknown format {format_name!r} (choose from {', '.join(FORMATS)})")
        if not module.matches(document):
            raise InspectorError(f"{document.path}: does not have the shape of the {format_name} format")
        return module
    module = next((m for m in FORMATS.values() if m.matches(document)), None)
    if module is None:
        raise InspectorError(f"{document.path}: not a recognised session format ({_describe(document)}); try --format")
    return module


def render_sessions(sessions: list[Session]) -> str:
    """The text of the file the sessions came from, with their (possibly repaired) turns."""
    first = sessions[0]
    return FORMATS[first.format].write(first.document, sessions)


def _describe(document: Document) -> str:
    value = document.value
    if document.is_jsonl:
        return f"JSON Lines of {len(value)} records"
    if isinstance(value, dict):
        keys = ", ".join(list(value)[:6]) or "none"
        return f"an object with keys: {keys}"
    return f"a JSON {type(value).__name__.replace('dict', 'object').replace('str', 'string')}"
