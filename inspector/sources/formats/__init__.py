"""The registry of file formats (`FORMATS`, by the name `--format` takes), and recognising a
file's format (`format_of`). Each format is a module here ending with one `FileFormat` (the
contract, `contract.py`); a format's own helpers are private modules beside it (`_*.py`), and
message shapes several formats share are in `inspector.sources.messages`.

The probe order, most specific first: the `SPECIFIC` formats, then the `GENERAL` one (OpenAI Chat
Completions, whose bare message list the specific formats refine). The rule that settles a file:

1. A format named with `--format` reads the file if it claims it; else the file is refused.
2. Otherwise every specific format is asked, all of them (not the first to answer): one claim
   reads the file; two or more at once are an error naming them all (in probe order), and the
   user names one with `--format`. So two specific formats must never claim the same file, and the
   order among them only orders the names in that error.
3. The general format reads the file only when no specific one claims it.
4. A file nothing claims is an error saying what it holds (an object's first keys, a JSON Lines
   file's record count).

A new format is one module and one line in `SPECIFIC_MODULES` (`docs/adding-a-format.md`).
"""

from __future__ import annotations

from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING, NamedTuple

from inspector.errors import InspectorError
from inspector.sources.formats.contract import FileFormat
from inspector.support.counted_words import counted
from inspector.support.lazy_registry import registry_attribute
from inspector.support.safe_text import shown_name
from inspector.support.secret_patterns import masked_everywhere

if TYPE_CHECKING:
    from inspector.model import Session
    from inspector.sources.files.document import Document

# The specific formats in probe order, by module; a format's name is its module's, with `-` for
# `_` (`claude_code`: `claude-code`).
SPECIFIC_MODULES = (
    "session_dump",
    "gemini",
    "anthropic",
    "gemini_cli",
    "claude_code",
    "qwen_code",
    "cline",
    "cline_task",
    "codex",
    "copilot_cli",
    "pi",
    "factory_droid",
    "copilot_cli_history",
    "amp",
    "kimi_cli",
    "kimi_code",
    "openhands",
    "opencode_storage",
    "continue_cli",
    "openai_responses",
    "langchain",
    "langchain_dumpd",
    "pydantic_ai",
    "ai_sdk_model",
    "ai_sdk_ui",
    "ag2",
    "haystack",
    "autogen",
    "smolagents",
    "mini_swe_agent",
    "aider",
    "aider_llm_history",
    "swe_agent",
    "dspy",
    "litellm",
    "langfuse",
    "langsmith",
    "otel",
    "inspect_ai",
    "sharegpt",
)
GENERAL_MODULE = "openai"  # a plain `{"messages": [...]}` is OpenAI unless a specific format claims it


def format_names() -> list[str]:
    """Every format's name, in probe order, without importing one."""
    return [module.replace("_", "-") for module in (*SPECIFIC_MODULES, GENERAL_MODULE)]


# The registry, built when one of its names is first used (`__getattr__`): importing one format's
# module (`inspector.sources.formats.claude_code`) imports no other format.
SPECIFIC: tuple[FileFormat, ...]
GENERAL: FileFormat
FORMATS: dict[str, FileFormat]


class _Registry(NamedTuple):
    """The formats in probe order: the specific ones, the general one, and all of them by name."""

    specific: tuple[FileFormat, ...]
    general: FileFormat
    by_name: dict[str, FileFormat]


_NAMES = {"SPECIFIC": "specific", "GENERAL": "general", "FORMATS": "by_name"}
# What a file holding one JSON value that is not an object is, in JSON's own words.
_JSON_TYPE_WORDS = {list: "list", str: "string", int: "number", float: "number", bool: "boolean", type(None): "null"}


def __dir__() -> list[str]:
    return sorted({*globals(), *_NAMES})


def format_of(document: Document, format_name: str | None = None) -> FileFormat:
    """The format that reads `document`: the one named, checked, or the one that claims it (the
    module's docstring has the rule); an `InspectorError` naming what the file holds when none does."""
    registry = _registry()
    if format_name is not None:
        named = registry.by_name.get(format_name)
        if named is None:
            raise InspectorError(f"unknown format {format_name!r} (choose from {', '.join(registry.by_name)})")
        if not named.claims(document):
            raise InspectorError(f"{shown_name(document.path)}: does not have the shape of the {format_name} format")
        return named
    claimed = [file_format for file_format in registry.specific if file_format.claims(document)]
    if len(claimed) > 1:
        names = " and ".join(file_format.name for file_format in claimed)
        raise InspectorError(f"{shown_name(document.path)}: has the shape of {names} at once; name one with --format")
    if claimed:
        return claimed[0]
    if registry.general.claims(document):
        return registry.general
    raise InspectorError(
        f"{shown_name(document.path)}: not a recognised session format ({_describe(document)}); try --format"
    )


def render_sessions(sessions: list[Session]) -> str:
    """The text of the file the sessions came from, with their (possibly repaired) turns, in the
    file's own format (`rendered_file`, decoded)."""
    rendered = rendered_file(sessions)
    return rendered if isinstance(rendered, str) else rendered.decode("utf-8")


def rendered_file(sessions: list[Session]) -> str | bytes:
    """The text (or, from a writer that copies the bytes read, the UTF-8 bytes) of the file the
    sessions came from, with their (possibly repaired) turns, in the file's own format. A
    read-only format (no writer) gives the file as it was read while nothing in it is repaired,
    and refuses a repair with one `InspectorError` line. A secret a repair masked
    (`Session.masked`) is masked wherever the file holds it."""
    first = sessions[0]
    document: Document = first.document
    file_format = _registry().by_name[first.format]
    if file_format.write is not None:
        text = file_format.write(document, sessions)
    elif any(turn.edited or turn.raw is None for session in sessions for turn in session.turns):
        raise InspectorError(
            f"{shown_name(document.path)}: the {first.format} format is read-only; nothing was written"
        )
    else:
        text = document.render(document.value)
    masks = [pair for session in sessions for pair in session.masked]
    if not masks:
        return text
    return masked_everywhere(text if isinstance(text, str) else text.decode("utf-8"), masks)


def _describe(document: Document) -> str:
    value = document.value
    if document.is_text:
        lines = value.count("\n") + (not value.endswith("\n"))
        return f"text of {counted(lines, 'line', 'lines')}"
    if document.is_jsonl:
        return f"JSON Lines of {counted(len(value), 'record', 'records')}"
    if isinstance(value, dict):
        keys = ", ".join(list(value)[:6]) or "none"
        return f"an object with keys: {keys}"
    return f"a JSON {_JSON_TYPE_WORDS.get(type(value), 'value')}"


@cache
def _registry() -> _Registry:
    """Every format, imported on the first call."""
    specific = tuple(_format_of_module(module) for module in SPECIFIC_MODULES)
    general = _format_of_module(GENERAL_MODULE)
    return _Registry(specific, general, {file_format.name: file_format for file_format in (*specific, general)})


def _format_of_module(module: str) -> FileFormat:
    format_: FileFormat = import_module(f"{__name__}.{module}").FORMAT
    return format_


# `SPECIFIC`, `GENERAL` or `FORMATS`, every format imported on first use of one of them.
__getattr__ = registry_attribute(globals(), __name__, _NAMES, _registry)
