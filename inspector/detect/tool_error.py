"""Detector `tool-error`: a tool result that reports an error.

Not a fault of the session, but what a person reviewing it wants to see first (and counted in the
summary): the result is marked `is_error`, or its content is an object (or a JSON string of one,
or one object wrapped in a single key such as Gemini's `{"result": {...}}`) with a truthy
`error`, `exception` or `traceback` key (or `Error`, ...). No fix.

Not flagged (unless marked `is_error`): results that merely mention an error in prose, and
objects whose error key is empty (`{"error": null}`, `{"error": ""}`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from inspector.detect.context import ScanContext
from inspector.detect.contract import Detector
from inspector.model import INFO, NO_RESULT, Finding, ToolResult, Turn
from inspector.support.safe_text import preview_value

KIND = "tool-error"

_KEYS = frozenset({"error", "exception", "traceback", "Error", "Exception", "Traceback"})
_KEY_ENDINGS = ('rror"', 'xception"', 'raceback"')  # the keys as a JSON text holds them
_PREVIEW = 100


def detect(context: ScanContext) -> Iterator[Finding]:
    """Findings for every result that reports an error, naming the tool and previewing the error."""
    for turn, result in results_that_may_report_error(context):
        if result.content == NO_RESULT:
            continue  # inspector's own answer to a call that was never answered (orphan-call's fix)
        error = reported_error(result)
        if error is None:
            continue
        tool = result.name
        if tool is None and result.call_id:
            tool = context.call_names_by_id.get(result.call_id)
        message = f"{tool or 'A tool'} returned an error: {preview_value(error, _PREVIEW + 1)}"
        yield Finding.at(turn, KIND, INFO, message, tool=tool, payload=error)


def results_that_may_report_error(context: ScanContext) -> list[tuple[Turn, ToolResult]]:
    """The session's results that may report an error (`may_report_error`), with their turns, in
    order: few of them, so `tool-error` and `claimed-success` read only these (listed once per scan)."""

    def listed() -> list[tuple[Turn, ToolResult]]:
        return [
            (turn, result)
            for turn in context.turns_with_results
            for result in turn.tool_results
            if may_report_error(result)
        ]

    return context.memo("results that may report an error", listed)


def may_report_error(result: ToolResult) -> bool:
    """False for a result that cannot report an error (most of them): text, not marked `is_error`,
    with no error key in it; decided by three substring searches."""
    content = result.content
    return (
        result.is_error
        or type(content) is not str
        or 'rror"' in content
        or 'xception"' in content
        or 'raceback"' in content
    )


def reported_error(result: ToolResult) -> Any:
    """The error a result reports (the value under its error key, else its content when it is
    marked `is_error`), or None when it reports none."""
    content = result.content
    if isinstance(content, list):
        content = "".join(
            part["text"] for part in content if isinstance(part, dict) and isinstance(part.get("text"), str)
        )
    found = _error_value(content)
    if found is None and result.is_error:
        return content if content not in (None, "") else "(no content)"
    return found


def _error_value(content: Any) -> Any:
    if isinstance(content, str):
        if not content.lstrip().startswith("{") or not any(end in content for end in _KEY_ENDINGS):
            return None
        try:
            content = json.loads(content)
        except (ValueError, RecursionError):
            return None
    if not isinstance(content, dict):
        return None
    candidates = [content]
    if len(content) == 1 and isinstance(inner := next(iter(content.values())), dict):
        candidates.append(inner)
    for candidate in candidates:
        for key, value in candidate.items():
            if value and key in _KEYS:
                return value
    return None


DETECTOR = Detector(KIND, INFO, detect)
