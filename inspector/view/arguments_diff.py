"""Which arguments of a call a fix added, changed or removed, nested objects included, and where
each argument sits in the arguments shown as indented JSON, so only those can be highlighted.

An argument is named by its path: the keys (and list indexes) from the top object down to it,
`("filter", "limit")` say. Two objects are compared key by key, and two lists of the same length
item by item; any other pair of values differs when their JSON differs (`"10"` and `10` do).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from inspector.model import Span
from inspector.support.safe_text import neutralise

Path = tuple[str | int, ...]

# Deeper than this, a value is compared and laid out whole (arguments are never this deep; hostile
# ones must not exhaust the stack).
MAX_DEPTH = 64


@dataclass(frozen=True)
class ArgumentsDiff:
    """The paths of the arguments the new object adds, the paths whose value it changes, and the
    paths of the old object it drops; none of them inside another."""

    added: frozenset[Path] = frozenset()
    changed: frozenset[Path] = frozenset()
    removed: frozenset[Path] = frozenset()

    def __bool__(self) -> bool:
        return bool(self.added or self.changed or self.removed)


def diff_arguments(old: Any, new: Any) -> ArgumentsDiff:
    """What turns the arguments `old` into `new`; `old` that is not an object (None: the recorded
    arguments could not be read) makes every argument of `new` added."""
    found: dict[str, set[Path]] = {"added": set(), "changed": set(), "removed": set()}
    if isinstance(new, dict):
        _compare(old if isinstance(old, dict) else {}, new, (), found)
    return ArgumentsDiff(frozenset(found["added"]), frozenset(found["changed"]), frozenset(found["removed"]))


def _compare(old: Any, new: Any, path: Path, found: dict[str, set[Path]]) -> None:
    if len(path) < MAX_DEPTH and isinstance(old, dict) and isinstance(new, dict):
        for key, value in new.items():
            if key in old:
                _compare(old[key], value, path + (key,), found)
            else:
                found["added"].add(path + (key,))
        found["removed"].update(path + (key,) for key in old if key not in new)
    elif len(path) < MAX_DEPTH and isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        for index, (before, after) in enumerate(zip(old, new)):
            _compare(before, after, path + (index,), found)
    elif not _same(old, new):
        found["changed"].add(path)


def _same(old: Any, new: Any) -> bool:
    """Whether two values are the same JSON (`1`, `1.0` and `true` are three values)."""
    return type(old) is type(new) and old == new


def path_name(path: Path) -> str:
    """A path as a reader writes it: `filter.limit`, `series[2]`."""
    name = ""
    for part in path:
        name += f"[{part}]" if isinstance(part, int) else (f".{part}" if name else str(part))
    return neutralise(name)


@dataclass
class _Layout:
    """Writes a value as `json.dumps(value, indent=2, ensure_ascii=False)` does, noting where each
    path's entry (its key and value) starts and ends."""

    parts: list[str] = field(default_factory=list)
    length: int = 0
    spans: dict[Path, Span] = field(default_factory=dict)

    def write(self, text: str) -> None:
        text = neutralise(text)
        self.parts.append(text)
        self.length += len(text)

    def value(self, value: Any, path: Path) -> None:
        indent = "  " * len(path)
        if len(path) < MAX_DEPTH and isinstance(value, (dict, list)) and value:
            items = value.items() if isinstance(value, dict) else enumerate(value)
            self.write("{" if isinstance(value, dict) else "[")
            for number, (key, item) in enumerate(items):
                self.write(("," if number else "") + "\n" + indent + "  ")
                start = self.length
                if isinstance(value, dict):
                    self.write(json.dumps(key, ensure_ascii=False) + ": ")
                self.value(item, path + (key,))
                self.spans[path + (key,)] = (start, self.length)
            self.write("\n" + indent + ("}" if isinstance(value, dict) else "]"))
        else:  # JSON strings hold no raw newline: every newline of the dump starts one of its lines
            self.write(json.dumps(value, indent=2, ensure_ascii=False).replace("\n", "\n" + indent))


def laid_out(value: Any) -> tuple[str, dict[Path, Span]]:
    """`value` as indented JSON (`json.dumps(value, indent=2, ensure_ascii=False)`, hidden
    characters shown as escapes, see `neutralise`), and the span of each path's entry in it."""
    layout = _Layout()
    layout.value(value, ())
    return "".join(layout.parts), layout.spans
