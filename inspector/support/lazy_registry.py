"""A registry built when first used: a module whose names (`FORMATS`, `SCHEMAS`) stand for what its
plugins' modules hold, which importing the module does not import."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def registry_attribute(
    namespace: dict[str, Any], module: str, names: dict[str, str], registry: Callable[[], object]
) -> Callable[[str], object]:
    """A module's `__getattr__`: each of `names` (the module's name -> the registry's field) is
    taken from `registry()` when first asked for, then kept in the module's `namespace`."""

    def attribute(name: str) -> object:
        if name not in names:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        value = getattr(registry(), names[name])
        namespace[name] = value
        return value

    return attribute
