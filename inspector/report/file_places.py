"""Where a finding is, for the outputs that point at a file and a line (GitHub's annotations,
SARIF): the file as the current folder names it (`shown_path`), and the first line of the file holding its turn's own id as a JSON string (a Claude Code
`uuid`, a Codex call id, a message id...). A turn without an id, or a session read from a
database, points at line 1; each output says which turn it means in its message.

One pass over the file's bytes, in linear time: every JSON string of a line that could be an id
is looked up in the set of the ids wanted, and the pass stops once each is found.
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path

from inspector.support.lazy_pattern import lazy_pattern

_ID = lazy_pattern(rb'"([^"\\\r\n]{1,200})"')  # a JSON string without escapes, as ids are written


def shown_path(path: object) -> str:
    """A session's file relative to the current folder when it is inside it (as a repository's
    checkout names it, with `/`), else as it was given; a database on a server by its URL."""
    if isinstance(path, Path):
        try:
            return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
        except (ValueError, OSError):
            return str(path)
    return str(path)


def turn_lines(path: object, turn_ids: Collection[str]) -> dict[str, int]:
    """The 1-based line of the first JSON string equal to each of `turn_ids` in the file at `path`
    (ids not found, and any path that is no readable file, are left out)."""
    wanted = {turn_id.encode() for turn_id in turn_ids if turn_id}
    if not wanted or not isinstance(path, Path) or not path.is_file():
        return {}
    found: dict[str, int] = {}
    try:
        with open(path, "rb") as file:
            for number, line in enumerate(file, 1):
                for match in _ID.finditer(line):
                    value = match.group(1)
                    if value in wanted:
                        wanted.discard(value)
                        found[value.decode()] = number
                if not wanted:
                    break
    except OSError:
        return found
    return found
