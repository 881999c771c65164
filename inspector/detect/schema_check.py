"""Checking calls against their tools' JSON schemas, shared by the four schema detectors.

Each call of a tool with a real schema (not one only observed in calls) is validated with
`jsonschema` (`tool_schema`); errors are sorted into `unknown-tool`, `invalid-argument`,
`unknown-parameter` and `wrong-type` (`schema_kinds`), and one repair is tried per call: unwrap a
wrapper, rename an unknown parameter to the one missing required one, convert types losslessly,
normalise enum values, also inside anyOf/oneOf (`schema_repair`). A repair counts only if the
result validates. A call of an unknown tool is renamed only to a clearly best tool
(`tool_ranking`). Structured calls are checked once per scan; calls that other findings recover
from text are checked in a second pass and get no fix (`schema_findings`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from inspector.catalogue import OBSERVED, Catalogue
from inspector.detect.context import ScanContext
from inspector.detect.schema_findings import CallCheck, finding
from inspector.detect.schema_kinds import UNKNOWN_TOOL, Problem
from inspector.detect.tool_ranking import rank, rename_target
from inspector.detect.tool_schema import ToolSchema, tool_schema
from inspector.model import Finding, Severity, ToolCall, Turn


class SchemaChecker:
    """The schema checks of one session's catalogue: validators built once per tool."""

    def __init__(self, catalogue: Catalogue) -> None:
        self.catalogue = catalogue
        self.defined = [spec for spec in catalogue if spec.source != OBSERVED]
        self._tools: dict[str, ToolSchema | None] = {}

    def tool(self, name: str) -> ToolSchema | None:
        """The validator of tool `name`, or None when it has no real (or no valid) schema."""
        if name not in self._tools:
            spec = self.catalogue.get(name)
            self._tools[name] = tool_schema(spec) if spec is not None and spec.source != OBSERVED else None
        return self._tools[name]

    def _validates(self, name: str, args: dict[str, Any]) -> bool:
        tool = self.tool(name)
        return tool is not None and tool.valid(args)

    def check(self, turn: Turn, index: int, call: ToolCall) -> CallCheck | None:
        """The problems of one call, or None when it is fine or its arguments did not parse (what
        `malformed-arguments` reports)."""
        arguments = call.arguments
        if arguments is None:
            return None
        tool = self.tool(call.name)
        if tool is None:  # a tool without a real schema: unknown, when the catalogue defines any
            return self._unknown(turn, index, call) if self.defined else None
        if tool.valid(arguments):
            return None
        repaired, changes = tool.repair(arguments)
        return CallCheck(turn, index, call, tuple(tool.problems(arguments)), repaired, tuple(changes))

    def _unknown(self, turn: Turn, index: int, call: ToolCall) -> CallCheck:
        ranked = rank(call.name, call.arguments, self.defined, self._validates)
        target, reason = rename_target(ranked)
        closest = ", ".join(f"{c.name} (score {c.score:.2f})" for c in ranked[:3])
        problem = Problem(UNKNOWN_TOOL, f"{call.name!r} is not a defined tool; the closest defined tools are {closest}")
        payload = {"closest": [{"name": c.name, "score": c.score} for c in ranked[:3]]}
        return CallCheck(
            turn, index, call, (problem,), rename=target.name if target else None, reason=reason, payload=payload
        )


def checker(context: ScanContext) -> SchemaChecker:
    """The session's checker, built once per scan and kept on the context."""
    return context.memo("schema-checker", lambda: SchemaChecker(context.catalogue))


def structured_checks(context: ScanContext) -> list[CallCheck]:
    """The checks of every structured call with parsed arguments that has a problem (computed once)."""

    def compute() -> list[CallCheck]:
        check = checker(context).check
        return [
            result
            for turn in context.turns_with_calls
            for index, call in enumerate(turn.tool_calls)
            for result in (check(turn, index, call),)
            if result is not None
        ]

    return context.memo("schema-checks", compute)


def recovered_findings(
    context: ScanContext, findings: list[Finding], severities: Mapping[str, Severity]
) -> Iterator[Finding]:
    """Schema findings for the calls that other findings' fixes recover from text (never with a
    fix: the person corrects a recovered call in the review); `severities` gives each schema kind's."""
    check = checker(context).check
    for found in list(findings):
        fix = found.fix
        turn = context.session.turn_at(found.turn) if fix is not None and fix.add_calls else None
        if fix is None or turn is None:
            continue
        for call in fix.add_calls:
            result = check(turn, 0, call)
            if result is None:
                continue
            for kind, severity in severities.items():
                extra = finding(result, kind, severity, recovered=True)
                if extra is not None:
                    yield extra


def findings_of_kind(context: ScanContext, kind: str, severity: Severity) -> Iterator[Finding]:
    """The findings of one schema kind over every structured call with parsed arguments: what
    each of the four schema detectors reports."""
    for check in structured_checks(context):
        found = finding(check, kind, severity)
        if found is not None:
            yield found
