"""Which tool an object written in a reply belongs to, and whether that call really ran.

First the object is compared with the results of real calls (a reply that echoes a result the
tool really returned, as a whiteboard agent did); then its keys are matched against every tool's
parameters: all required parameters present, then the most parameters shared, then the largest
share of the tool's parameters covered. A tie is not guessed.

Nor is a fit another tool's result explains as well: `{"file_path": ..., "content": ...}` holds
every parameter of a `Write`, and is just as much what a `Read` of that file returns, its content
made up. Recovered as a `Write`, the call would write the made-up text over the person's file. So
when another tool whose required parameters are all there leaves out only keys a tool returns
(`OUTPUT_KEYS`, apart from the status ones in `STATUS_KEYS`), the object could be either tool's
and neither is inferred. An `Edit`'s `old_string` and `new_string` are no tool's output, so the
same object with them is an `Edit`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from inspector.catalogue import Catalogue
from inspector.detect.context import ScanContext
from inspector.model import ToolSpec

# The tools that may have been called, each with its fit (parameters shared, and their share), best first.
Ranking = list[tuple[tuple[int, float], ToolSpec]]

# Keys a tool returns as what it read or found, and keys that only say how a call went.
OUTPUT_KEYS = frozenset(
    {
        "content", "contents", "text", "data", "body", "lines", "output", "stdout", "result",
        "results", "value", "values", "items", "entries", "matches", "files", "response", "memories",
    }
)  # fmt: skip
STATUS_KEYS = frozenset({"success", "ok", "status", "error", "message"})


@dataclass(slots=True)
class Inference:
    """The tool inferred for an object (None when none fits), the object's keys that are its
    arguments, whether a real call of it ran (and at which turn), and a note on ambiguity. A
    value, not frozen: quicker to build, and a scan infers one for every fake result."""

    tool: str | None
    arguments: dict[str, Any] = field(default_factory=dict)
    executed: bool | None = None
    ran_at: int | None = None
    note: str = ""


def infer_tool(context: ScanContext, obj: dict[str, Any], position: int) -> Inference:
    """Infer the tool behind `obj`, written in the turn at `position`."""
    echoed = context.matching_result(obj, position)
    if echoed is not None:
        spec = context.catalogue.get(echoed.call.name)
        return Inference(echoed.call.name, _arguments(obj, spec), True, echoed.position)
    keys = frozenset(obj)
    rankings: dict[frozenset[str], Ranking] = context.memo("tool rankings by keys", dict)
    candidates = rankings.get(keys)
    if candidates is None:
        candidates = rankings[keys] = _rank(keys, context.catalogue)
    if not candidates:
        return Inference(None)
    if len(candidates) > 1 and candidates[0][0] == candidates[1][0]:
        tied = [spec.name for score, spec in candidates if score == candidates[0][0]]
        return Inference(None, note=f" (it fits {', '.join(tied)} equally)")
    spec = candidates[0][1]
    arguments = _arguments(obj, spec)
    ran = context.matching_call(spec.name, arguments, position)
    if ran is not None:
        return Inference(spec.name, arguments, True, ran.position)
    for _, reader in candidates[1:]:
        returned = _returned_by(keys, reader)
        if returned:
            return Inference(
                None,
                note=f" (it fits {spec.name}, and just as well what {reader.name} returns, with its "
                f"{', '.join(sorted(returned))})",
            )
    return Inference(spec.name, arguments, False)


def _rank(keys: frozenset[str], catalogue: Catalogue) -> Ranking:
    """The tools whose required parameters are all among `keys`, best fit first; the ranking
    depends only on the keys, so a scan computes it once per key set."""
    ranked: Ranking = []
    for spec in catalogue:
        parameters = spec.properties.keys()
        shared = len(keys & parameters)
        if shared and spec.required <= keys:
            ranked.append(((shared, shared / len(parameters)), spec))
    ranked.sort(key=lambda item: item[0], reverse=True)
    return ranked


def _returned_by(keys: frozenset[str], spec: ToolSpec) -> frozenset[str]:
    """The keys of an object with `keys` that `spec` would have returned, when the object could be
    its result: those that are not its parameters, apart from status ones, all keys a tool returns.
    Empty when it could not."""
    returned = keys - spec.properties.keys() - STATUS_KEYS
    return returned if returned <= OUTPUT_KEYS else frozenset()


def _arguments(obj: dict[str, Any], spec: ToolSpec | None) -> dict[str, Any]:
    if spec is None:
        return {}
    parameters = spec.properties
    return {key: value for key, value in obj.items() if key in parameters}
