"""What the hook remembers between two calls for one session: how far it has read the transcript,
what the transcript's head was then, and the findings it has already blocked on.

Kept as one small JSON file per session (and per subagent) in the inspector's state folder, one
folder per agent: `$XDG_STATE_HOME/inspector/hooks/<agent>/` (by default `~/.local/state/...`, the folder
`inspector.support.state_folder` names), written whole or not at all. A state file
that cannot be read is as good as none: the hook starts again from the transcript's tail.
"""

from __future__ import annotations

import json
import os
import zlib
from pathlib import Path

from inspector.support.lazy_pattern import lazy_pattern
from inspector.support.state_folder import inspector_state_folder

HEAD_BYTES = 4096  # the start of a transcript whose digest tells a rewritten file from a grown one
KEPT_BLOCKED = 200  # the findings blocked on that are remembered, newest last


_UNSAFE = lazy_pattern(r"[^A-Za-z0-9_-]")


class HookState:
    """How far `transcript` was read (`offset`), the digest of its first `HEAD_BYTES` then
    (`head`), and the keys of the findings already blocked on (`blocked`). A plain class: the
    hook's import path stays short (no `dataclasses`)."""

    __slots__ = ("blocked", "head", "offset", "transcript")

    def __init__(self, transcript: str = "", offset: int = 0, head: str = "", blocked: list[str] | None = None) -> None:
        self.transcript = transcript
        self.offset = offset
        self.head = head
        self.blocked = blocked or []


def state_folder(agent: str = "claude-code") -> Path:
    """`$XDG_STATE_HOME/inspector/hooks/<agent>` (by default under `~/.local/state`)."""
    return inspector_state_folder() / "hooks" / agent


def state_path(session_id: str, agent_id: str | None, agent: str = "claude-code") -> Path:
    """The state file of a session (or of one of its subagents): its ids with every character but
    letters, digits, `-` and `_` replaced (no id, whatever it holds, names a path outside the
    folder), cut short, and a checksum of the ids whole (two ids alike once replaced stay apart)."""
    key = session_id if agent_id is None else f"{session_id}/agent-{agent_id}"
    checksum = zlib.crc32(key.encode("utf-8", "replace"))
    return state_folder(agent) / f"{_UNSAFE.sub('_', key)[:96]}-{checksum:08x}.json"


def load_state(path: Path) -> HookState:
    """The state kept at `path`; an empty one when there is none or it cannot be read."""
    try:
        value = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return HookState()
    if not isinstance(value, dict):
        return HookState()
    transcript, offset, head, blocked = (value.get(key) for key in ("transcript", "offset", "head", "blocked"))
    if not (isinstance(transcript, str) and type(offset) is int and offset >= 0 and isinstance(head, str)):
        return HookState()
    kept = [key for key in blocked if isinstance(key, str)] if isinstance(blocked, list) else []
    return HookState(transcript, offset, head, kept)


def save_state(path: Path, state: HookState) -> None:
    """Write `state` at `path`, whole or not at all (the folder made if needed): written under a
    name of this process's beside it, then renamed. Losing it costs one more read of the tail,
    so it is not flushed to disk (`support.atomic_files` does, for what must survive a crash)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    value = {
        "transcript": state.transcript,
        "offset": state.offset,
        "head": state.head,
        "blocked": state.blocked[-KEPT_BLOCKED:],
    }
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        temporary.write_text(json.dumps(value))
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
