"""Which findings the hook blocks on, which it only tells the person about, and which it leaves.

The person's settings are `$XDG_CONFIG_HOME/inspector/hooks.toml` (by default
`~/.config/inspector/hooks.toml`), or `hooks.json` beside it holding the same keys:

    block_severity = "warning"      # the lowest severity that blocks: "error" or "warning"

    [kinds]                         # each kind the hook checks: "block", "warn" or "off"
    narrated-action = "off"
    claimed-success = "block"

A kind set to "block" blocks on its findings of `block_severity` or above and warns on the others;
"warn" only warns (a note to the person, the agent goes on); "off" is never looked for. Notes
(info) never block nor warn, and neither blocks a finding about a call that did run (a copy of
its real result). By default the kinds whose detector's severity is error block: a fake result
(`result-prefix`), a fake result block and leaked call markup; so does a subagent's answer that
opens with a fake result, handed back to the agent (`relayed-fake-result`), which would pass it
on; a claimed success after a failed call and an action announced and never called (warnings) warn.

A settings file that cannot be read or holds an unknown key, kind or value is said in one line,
and the defaults are used: a typo never turns the hook off.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

# The kinds a reply that fabricates its work shows, in the order the reason names them.
HOOK_KINDS = (
    "result-prefix",
    "fake-result-block",
    "tool-markup",
    "relayed-fake-result",
    "claimed-success",
    "narrated-action",
)
BLOCK, WARN, OFF = "block", "warn", "off"
MODES = (BLOCK, WARN, OFF)
SEVERITIES = ("error", "warning")
DEFAULT_MODES = {kind: WARN if kind in ("claimed-success", "narrated-action") else BLOCK for kind in HOOK_KINDS}


class HookSettings:
    """The mode of each kind the hook checks, and the lowest severity that blocks (a plain class:
    the hook's import path stays short)."""

    __slots__ = ("block_severity", "modes")

    def __init__(self, modes: dict[str, str] | None = None, block_severity: str = "warning") -> None:
        self.modes = dict(DEFAULT_MODES) if modes is None else modes
        self.block_severity = block_severity

    def checked(self) -> tuple[str, ...]:
        """The kinds looked for (not "off")."""
        return tuple(kind for kind in HOOK_KINDS if self.modes.get(kind, OFF) != OFF)

    def action(self, kind: str, severity: str, executed: bool | None = None) -> str:
        """What a finding of `kind` and `severity` gets: `BLOCK`, `WARN` or `OFF` (a finding about
        a call that ran, `executed`, never blocks)."""
        mode = self.modes.get(kind, OFF)
        if mode == OFF or severity not in SEVERITIES:
            return OFF
        blocks = SEVERITIES.index(severity) <= SEVERITIES.index(self.block_severity)
        if mode == BLOCK and blocks and executed is not True:
            return BLOCK
        return WARN


def settings_paths() -> tuple[Path, Path]:
    """Where the settings are looked for, in order: `hooks.toml`, then `hooks.json`."""
    base = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config") / "inspector"
    return base / "hooks.toml", base / "hooks.json"


def load_settings() -> tuple[HookSettings, str]:
    """The person's settings, and a line saying why a settings file was ignored ("" when none was)."""
    for path in settings_paths():
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            continue
        except OSError as exc:
            return HookSettings(), f"{path}: cannot be read ({exc.strerror}): the defaults are used"
        try:
            return _settings(_parsed(path, data)), ""
        except ValueError as error:
            return HookSettings(), f"{path}: {error}: the defaults are used"
    return HookSettings(), ""


def _parsed(path: Path, data: bytes) -> Any:
    if path.suffix == ".toml":
        import tomllib

        try:
            return tomllib.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
            raise ValueError(f"not TOML ({error})") from None
    try:
        return json.loads(data)
    except ValueError as error:
        raise ValueError(f"not JSON ({error})") from None


def _settings(value: Any) -> HookSettings:
    """The settings a parsed file holds; `ValueError` naming the first thing wrong in it."""
    if not isinstance(value, dict):
        raise ValueError("not a table of settings")
    unknown = sorted(set(value) - {"block_severity", "kinds"})
    if unknown:
        raise ValueError(f"no setting {unknown[0]!r} (block_severity, kinds)")
    severity = value.get("block_severity", "warning")
    if severity not in SEVERITIES:
        raise ValueError(f"block_severity {severity!r} is not one of {', '.join(SEVERITIES)}")
    kinds = value.get("kinds", {})
    if not isinstance(kinds, dict):
        raise ValueError("kinds is not a table of kind = mode")
    modes = dict(DEFAULT_MODES)
    for kind, mode in kinds.items():
        if kind not in HOOK_KINDS:
            raise ValueError(f"the hook checks no kind {kind!r} ({', '.join(HOOK_KINDS)})")
        if mode not in MODES:
            raise ValueError(f"{kind} = {mode!r} is not one of {', '.join(MODES)}")
        modes[kind] = mode
    return HookSettings(modes, severity)
