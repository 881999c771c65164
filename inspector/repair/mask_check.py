"""The check after a write that masked secrets: the written storage holds none of them any more.

A file's writer masks a secret wherever the file holds it; a database's writers rewrite a turn's
text, calls and results, so a secret kept elsewhere in a row (an id column) stays. Rather than say
a secret was masked when it was not, the write reads back what it wrote: a file's bytes (a
database file's pages included, where an old value may linger; every file of a storage folder),
or a server database's conversations, and names how many secrets are still there.
"""

from __future__ import annotations

import json
import mmap
from collections.abc import Collection, Iterable
from pathlib import Path

from inspector.model import Location, ServerUrl, Session
from inspector.sources import open_source
from inspector.support.safe_text import shown_name


def secrets_still_held(out: Location, secrets: Collection[str]) -> int:
    """How many of `secrets` the storage at `out` still holds."""
    if not secrets:
        return 0
    if isinstance(out, ServerUrl):
        return _held_by_sessions(open_source(out).sessions(), secrets)
    if out.is_dir():  # a storage of one file per record, copied as a folder
        return len({secret for file in out.rglob("*") if file.is_file() for secret in _held_in(file, secrets)})
    return len(_held_in(out, secrets))


def still_held_line(count: int, out: Location) -> str:
    """One line saying that `count` masked secrets are still in `out` ('' when none)."""
    if not count:
        return ""
    several = count != 1
    return (
        f"{count} secret{'s' if several else ''} still in {shown_name(str(out))}: "
        f"{'they are' if several else 'it is'} kept where this storage's writer cannot mask "
        f"(an id column, say): do not share it as it is"
    )


def _held_in(path: Path, secrets: Collection[str]) -> set[str]:
    """The secrets whose UTF-8 bytes (or JSON-escaped form) occur anywhere in the file."""
    if path.stat().st_size == 0:
        return set()
    forms = {secret: _forms(secret) for secret in secrets}
    with path.open("rb") as file, mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ) as data:
        return {secret for secret, found in forms.items() if any(data.find(form) != -1 for form in found)}


def _held_by_sessions(sessions: Iterable[Session], secrets: Collection[str]) -> int:
    """The secrets any turn still holds: its text, id, calls, results or record."""
    held: set[str] = set()
    for session in sessions:
        for turn in session.turns:
            shown = json.dumps(
                [turn.text, turn.id, turn.raw, [(call.id, call.arguments) for call in turn.tool_calls]],
                default=str,
                ensure_ascii=False,
            )
            shown += "".join(str(result.content) for result in turn.tool_results)
            held.update(secret for secret in secrets if secret in shown or json.dumps(secret)[1:-1] in shown)
    return len(held)


def _forms(secret: str) -> set[bytes]:
    """The ways a file may hold `secret`: as it is, and escaped as a JSON string."""
    return {secret.encode("utf-8"), json.dumps(secret)[1:-1].encode("utf-8")}
