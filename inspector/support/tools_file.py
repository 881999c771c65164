"""Reading a `--tools FILE`: the tool definitions it holds, in any shape the catalogue reads
(`parse_tool_definitions`); a file that cannot be read, or holds none, is one line naming it."""

from __future__ import annotations

import json
from pathlib import Path

from inspector.catalogue import TOOLS_FILE, parse_tool_definitions
from inspector.errors import InspectorError
from inspector.model import ToolSpec
from inspector.support.json_error_words import what_is_wrong
from inspector.support.safe_text import one_line, shown_name


def load_tools_file(path: Path) -> list[ToolSpec]:
    """Tool specs from a `--tools` file; an unreadable file or one with no tools is an error."""
    try:
        value = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InspectorError(f"{shown_name(path)}: no such tools file") from None
    except OSError as exc:
        raise InspectorError(
            f"{shown_name(path)}: cannot read tools file ({one_line(exc.strerror or str(exc))})"
        ) from None
    except UnicodeDecodeError:
        raise InspectorError(f"{shown_name(path)}: cannot read tools file (not UTF-8 text)") from None
    except json.JSONDecodeError as exc:
        raise InspectorError(
            f"{shown_name(path)}: line {exc.lineno} column {exc.colno}: invalid JSON ({what_is_wrong(exc)})"
        ) from None
    specs = parse_tool_definitions(value, TOOLS_FILE)
    if not specs:
        raise InspectorError(
            f"{shown_name(path)}: no tool definitions found (expected a list of OpenAI, Anthropic, Gemini or MCP tools)"
        )
    return specs
