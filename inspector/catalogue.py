"""The tool catalogue: which tools a session could call and with which parameters.

Built from the session's own definitions, from a `--tools FILE`, and from the calls seen in the
session. Definitions are read in every common shape: OpenAI `tools` and legacy `functions`,
Anthropic `input_schema`, Gemini `functionDeclarations`, and MCP `inputSchema`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from operator import attrgetter
from typing import Any

from inspector.model import Session, ToolSpec

OBSERVED = "observed"
TOOLS_FILE = "tools-file"
_HAS_CALLS = attrgetter("tool_calls")


class Catalogue:
    """Tools by name. Definitions win over what was only observed in calls."""

    def __init__(self, specs: Iterable[ToolSpec] = ()) -> None:
        self._specs: dict[str, ToolSpec] = {}
        for spec in specs:
            self.add(spec)

    def add(self, spec: ToolSpec) -> None:
        """Add a tool; an observed tool never replaces a defined one."""
        current = self._specs.get(spec.name)
        if current is None or (current.source == OBSERVED and spec.source != OBSERVED):
            self._specs[spec.name] = spec

    def get(self, name: str) -> ToolSpec | None:
        """The tool called `name`, if known."""
        return self._specs.get(name)

    def __contains__(self, name: object) -> bool:
        return name in self._specs

    def __iter__(self) -> Iterator[ToolSpec]:
        return iter(self._specs.values())

    def __len__(self) -> int:
        return len(self._specs)


def build_catalogue(session: Session, extra: Iterable[ToolSpec] = ()) -> Catalogue:
    """The catalogue for one session: `extra` (from `--tools`), then its own definitions, then
    the tools seen only in its calls, with the argument keys seen as their parameters."""
    catalogue = Catalogue(extra)
    for spec in session.tools:
        catalogue.add(spec)
    seen: dict[str, set[str]] = {}
    for turn in filter(_HAS_CALLS, session.turns):  # filtered in C: most turns have no call
        for call in turn.tool_calls:
            keys = seen.setdefault(call.name, set())
            if call.arguments:
                keys.update(call.arguments)
    for name, keys in seen.items():
        if name not in catalogue:
            properties: dict[str, dict[str, Any]] = {key: {} for key in sorted(keys)}
            catalogue.add(ToolSpec(name, {"type": "object", "properties": properties}, source=OBSERVED))
    return catalogue


def parse_tool_definitions(value: Any, source: str = "session") -> list[ToolSpec]:
    """Tool specs from a definition list in any supported shape; unrecognised entries are skipped."""
    if isinstance(value, dict):
        for key in ("tools", "functions", "functionDeclarations", "function_declarations"):
            if isinstance(value.get(key), list):
                return parse_tool_definitions(value[key], source)
        value = [value]
    if not isinstance(value, list):
        return []
    specs: list[ToolSpec] = []
    for entry in value:
        if not isinstance(entry, dict):
            continue
        declarations = entry.get("functionDeclarations") or entry.get("function_declarations")
        if isinstance(declarations, list):
            specs.extend(parse_tool_definitions(declarations, source))
            continue
        spec = _one_definition(entry, source)
        if spec is not None:
            specs.append(spec)
    return specs


def _one_definition(entry: dict[str, Any], source: str) -> ToolSpec | None:
    nested = entry.get("function")
    function: dict[str, Any] = nested if isinstance(nested, dict) else entry
    name = function.get("name")
    if not isinstance(name, str) or not name:
        return None
    for key in ("parameters", "input_schema", "inputSchema", "parametersJsonSchema"):
        schema = function.get(key)
        if isinstance(schema, dict):
            break
    else:
        schema = {"type": "object", "properties": {}}
    description = function.get("description")
    return ToolSpec(name, _lower_types(schema), description if isinstance(description, str) else "", source)


def _lower_types(schema: Any) -> Any:
    """Gemini writes schema types in upper case (`OBJECT`, `STRING`); JSON Schema wants lower."""
    if isinstance(schema, dict):
        return {
            key: (value.lower() if key == "type" and isinstance(value, str) else _lower_types(value))
            for key, value in schema.items()
        }
    if isinstance(schema, list):
        return [_lower_types(item) for item in schema]
    return schema
