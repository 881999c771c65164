"""The registry of session formats kept as plain files, and recognising a file's format.

Adding a format means adding a module and listing it in `FORMATS`. A format module has:

- `NAME`: the format's name (`--format NAME`);
- `matches(document) -> bool`: whether a parsed `Document` has this format's shape, by its own
  positive markers;
- `read(document) -> list[Session]`;
- `write(document, sessions) -> str`: the file's new text, given every session read from it
  (repaired or not); records it was not asked to change are kept as they were (`records`).

Recognising never guesses: every specific format is asked, a file two of them claim is an error
naming both, and the general format (`GENERAL`: OpenAI Chat Completions, whose bare message list
the specific formats refine) reads a file only when no specific one claims it.
"""

from __future__ import annotations

from types import ModuleType

from inspector.errors import InspectorError
from inspector.model import Session
from inspector.sources.files.document import Document
from inspector.sources.formats import (
    ag2,
    ai_sdk_model,
    ai_sdk_ui,
    anthropic,
    autogen,
    claude_code,
    codex,
    dspy,
    gemini,
    gemini_cli,
    haystack,
    inspect_ai,
    langchain,
    langchain_dumpd,
    langfuse,
    langsmith,
    litellm,
    openai,
    openai_responses,
    otel,
    pydantic_ai,
    session_dump,
    sharegpt,
    smolagents,
)

SPECIFIC = (
    session_dump,
    gemini,
    anthropic,
    gemini_cli,
    claude_code,
    codex,
    openai_responses,
    langchain,
    langchain_dumpd,
    pydantic_ai,
    ai_sdk_model,
    ai_sdk_ui,
    ag2,
    haystack,
    autogen,
    smolagents,
    dspy,
    litellm,
    langfuse,
    langsmith,
    otel,
    inspect_ai,
    sharegpt,
)
GENERAL = (openai,)  # a plain `{"messages": [...]}` is OpenAI unless a specific format claims it
FORMATS: dict[str, ModuleType] = {module.NAME: module for module in SPECIFIC + GENERAL}


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
    claims = [module for module in SPECIFIC if module.matches(document)]
    if len(claims) > 1:
        named = " and ".join(module.NAME for module in claims)
        raise InspectorError(f"{document.path}: has the shape of {named} at once; name one with --format")
    claims = claims or [module for module in GENERAL if module.matches(document)]
    if not claims:
        raise InspectorError(f"{document.path}: not a recognised session format ({_describe(document)}); try --format")
    return claims[0]


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
