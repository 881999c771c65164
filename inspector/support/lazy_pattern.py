"""Regular expressions compiled the first time they are used, not when their module is imported.

A pattern compiled at a module's top is paid for by every process that imports the module,
whether or not a text ever reaches it: of the 170 patterns a scan's modules hold, a scan of a
Claude Code or Codex session uses about 35 (the others read markup families, formats and failures
the session does not hold), and compiling them all takes about 45 ms, a sixth of a small scan's
whole time. `lazy_pattern` keeps the pattern's source and compiles it when one of its methods is
first asked for; from then on its methods are the compiled pattern's own, kept in slots, so a
call costs what it costs on the compiled pattern.
"""

from __future__ import annotations

import re
from typing import Any, AnyStr, cast

# What a compiled pattern offers; each is set from it on first use.
_ATTRIBUTES = (
    "search",
    "match",
    "fullmatch",
    "finditer",
    "findall",
    "sub",
    "subn",
    "split",
    "scanner",
    "pattern",
    "flags",
    "groups",
    "groupindex",
)


def lazy_pattern(source: AnyStr, flags: int = 0) -> re.Pattern[AnyStr]:
    """`re.compile(source, flags)`, compiled when first used (typed as the pattern it stands for)."""
    return cast("re.Pattern[AnyStr]", _LazyPattern(source, flags))


class _LazyPattern:
    """A pattern's source until its first use, then its compiled methods."""

    __slots__ = ("_source", "_flags", *_ATTRIBUTES)

    def __init__(self, source: str | bytes, flags: int) -> None:
        self._source = source
        self._flags = flags

    def __getattr__(self, name: str) -> Any:
        """Called only for an attribute not set yet: compile the pattern and set them all."""
        if name not in _ATTRIBUTES:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        compiled = re.compile(self._source, self._flags)
        for attribute in _ATTRIBUTES:
            setattr(self, attribute, getattr(compiled, attribute))
        return getattr(compiled, name)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_LazyPattern, (self._source, self._flags))

    def __repr__(self) -> str:
        return f"lazy_pattern({self._source!r}, {self._flags!r})"
