"""Putting the hook into an agent's settings, taking it out, and saying where it is.

Claude Code's settings file is `~/.claude/settings.json` for the person
(`$CLAUDE_CONFIG_DIR/settings.json` when that is set), or `.claude/settings.json` in a project;
Gemini CLI's is `~/.gemini/settings.json` (under `$GEMINI_CLI_HOME` when that is set), or
`.gemini/settings.json` in a project; Qwen Code's `~/.qwen/settings.json` (`$QWEN_HOME/settings.json`
when that is set), or `.qwen/settings.json`; Codex's hooks file `~/.codex/hooks.json`
(`$CODEX_HOME/hooks.json`), or `.codex/hooks.json`. GitHub Copilot CLI's hook is a file of its
own (`copilot_hooks_file`). The others keep hooks the same way: installing adds one
entry under each of the agent's events (`hooks.Stop` and `hooks.SubagentStop`; `hooks.AfterAgent`),
each running `hook_command(agent)`: this interpreter's absolute path with
`-m inspector.hooks <agent>`, so it runs from any folder.
Every other setting and hook is kept; installing twice changes nothing (from another
interpreter, it points the hook at that one). Each write is atomic,
after a copy of the file as it was (`settings.json.bak`). Uninstalling removes exactly those
entries (and the lists and tables they alone filled); when what is left is what the copy holds,
the copy is put back, so install then uninstall gives the file back byte for byte. A file that
install created is removed when nothing else is left in it; otherwise uninstall says so.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from inspector.errors import InspectorError
from inspector.hooks.copilot_hooks_file import AGENT as COPILOT_CLI
from inspector.hooks.copilot_hooks_file import file_installed, hooks_file, install_file, uninstall_file
from inspector.support.atomic_files import file_mode, land, staged_bytes
from inspector.support.safe_text import shown_name

EVENTS = {  # each agent's events
    "claude-code": ("Stop", "SubagentStop"),
    "gemini-cli": ("AfterAgent",),
    "qwen-code": ("Stop", "SubagentStop"),
    "codex": ("Stop", "SubagentStop"),
    "copilot-cli": ("Stop",),
}
FOLDERS = {"claude-code": ".claude", "gemini-cli": ".gemini", "qwen-code": ".qwen", "codex": ".codex"}
HOOK_MODULE = "inspector.hooks"


@dataclass(frozen=True)
class Outcome:
    """What install or uninstall did to `path`, in one line for the person."""

    path: Path
    said: str


def hook_command(agent: str = "claude-code") -> str:
    """The command the hook runs: this interpreter, by its absolute path, running `agent`'s hook."""
    return f"{shlex.quote(os.path.abspath(sys.executable))} -m {HOOK_MODULE} {agent}"


def settings_file(project: bool, cwd: Path | None = None, agent: str = "claude-code") -> Path:
    """The agent's settings file: the project's (`.claude/`, `.gemini/` or `.qwen/settings.json`,
    `.codex/hooks.json` under `cwd`), or the person's."""
    if agent == COPILOT_CLI:
        return hooks_file(project, cwd or Path.cwd())
    folder = FOLDERS[agent]
    name = "hooks.json" if agent == "codex" else "settings.json"
    if project:
        return (cwd or Path.cwd()) / folder / name
    if agent == "codex":
        return Path(os.environ.get("CODEX_HOME") or Path.home() / folder) / name
    if agent == "gemini-cli":
        return Path(os.environ.get("GEMINI_CLI_HOME") or Path.home()) / folder / "settings.json"
    if agent == "qwen-code":
        return Path(os.environ.get("QWEN_HOME") or Path.home() / folder) / "settings.json"
    base = os.environ.get("CLAUDE_CONFIG_DIR") or str(Path.home() / folder)
    return Path(base) / "settings.json"


def install(path: Path, agent: str = "claude-code") -> Outcome:
    """Add `agent`'s hook to the settings at `path` (made when missing); nothing changes when it is
    there. A hook installed by another interpreter (a venv since removed) is pointed at this one."""
    command = hook_command(agent)
    if agent == COPILOT_CLI:
        return Outcome(path, install_file(path, command))
    settings, existed = _read(path)
    events = EVENTS[agent]
    if _installed(settings, agent) and all(_commands(settings, event, agent) == [command] for event in events):
        return Outcome(path, f"{shown_name(path)}: the hook is already installed")
    hooks = settings.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise InspectorError(f"{shown_name(path)}: its hooks are not a table; fix it by hand")
    for event in events:
        entries = hooks.setdefault(event, [])
        if not isinstance(entries, list):
            raise InspectorError(f"{shown_name(path)}: its {event} hooks are not a list; fix it by hand")
        for entry in entries:
            if _ours(entry, agent):
                entry["hooks"][0]["command"] = command
        if not any(_ours(entry, agent) for entry in entries):
            entries.append({"hooks": [{"type": "command", "command": command}]})
    _write(path, settings, existed)
    return Outcome(path, f"{shown_name(path)}: installed the hook on {' and '.join(events)} ({command})")


def uninstall(path: Path, agent: str = "claude-code") -> Outcome:
    """Take `agent`'s hook out of the settings at `path` (from every event it may be under, one an
    older install left out included); remove the file when only what install made is left."""
    if agent == COPILOT_CLI:
        return Outcome(path, uninstall_file(path))
    settings, existed = _read(path)
    if not existed or not any(_ours(entry, agent) for event in EVENTS[agent] for entry in _entries(settings, event)):
        return Outcome(path, f"{shown_name(path)}: the hook is not installed there")
    hooks = settings["hooks"]
    for event in EVENTS[agent]:
        kept = [entry for entry in _entries(settings, event) if not _ours(entry, agent)]
        if kept:
            hooks[event] = kept
        else:
            hooks.pop(event, None)
    if not hooks:
        del settings["hooks"]
    if not settings and _made_by_install(path):
        _remove_made(path)
        return Outcome(path, f"{shown_name(path)}: uninstalled the hook, and removed the file install had made")
    if _restore_backup(path, settings):
        return Outcome(path, f"{shown_name(path)}: uninstalled the hook (the file is as it was before install)")
    _write(path, settings, existed)
    left = " (the file is left, empty of settings)" if not settings else ""
    return Outcome(path, f"{shown_name(path)}: uninstalled the hook{left}")


def installed_in(path: Path, agent: str = "claude-code") -> bool:
    """Whether the settings at `path` run `agent`'s hook (a file that cannot be read: an `InspectorError`)."""
    if agent == COPILOT_CLI:
        return file_installed(path)
    settings, _ = _read(path)
    return _installed(settings, agent)


def _installed(settings: dict[str, Any], agent: str) -> bool:
    return all(any(_ours(entry, agent) for entry in _entries(settings, event)) for event in EVENTS[agent])


def _commands(settings: dict[str, Any], event: str, agent: str) -> list[str]:
    """The commands of the hook's own entries under `event`."""
    return [entry["hooks"][0]["command"] for entry in _entries(settings, event) if _ours(entry, agent)]


def _entries(settings: dict[str, Any], event: str) -> list[Any]:
    hooks = settings.get("hooks")
    entries = hooks.get(event) if isinstance(hooks, dict) else None
    return entries if isinstance(entries, list) else []


def _ours(entry: Any, agent: str) -> bool:
    """Whether a matcher entry is the one install adds: one command hook running `agent`'s hook
    (whatever interpreter's path it names)."""
    if not isinstance(entry, dict) or set(entry) != {"hooks"} or not isinstance(entry["hooks"], list):
        return False
    if len(entry["hooks"]) != 1 or not isinstance(entry["hooks"][0], dict):
        return False
    command = entry["hooks"][0].get("command")
    return isinstance(command, str) and command.endswith(f" -m {HOOK_MODULE} {agent}")


def _read(path: Path) -> tuple[dict[str, Any], bool]:
    """The settings at `path` and whether the file exists; `InspectorError` when it cannot be read."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return {}, False
    except OSError as exc:
        raise InspectorError(f"{shown_name(path)}: cannot be read ({exc.strerror})") from None
    try:
        settings = json.loads(data) if data.strip() else {}
    except ValueError as error:
        raise InspectorError(f"{shown_name(path)}: not JSON ({error}); fix it by hand") from None
    if not isinstance(settings, dict):
        raise InspectorError(f"{shown_name(path)}: not a table of settings; fix it by hand")
    return settings, True


def _write(path: Path, settings: dict[str, Any], existed: bool) -> None:
    """Write `settings` at `path` atomically, after a copy of the file as it was (`.bak`). A
    file made here gets a marker beside it (`.inspector-made`) so uninstall may remove it."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if existed:
            shutil.copy2(path, path.with_name(path.name + ".bak"))
        else:
            _made_marker(path).write_text("made by `inspector hook install`\n")
        text = json.dumps(settings, indent=2, ensure_ascii=False) + "\n"
        land(staged_bytes(path, text.encode(), file_mode(path)), path)
    except OSError as exc:
        raise InspectorError(f"{shown_name(path)}: cannot be written ({exc.strerror})") from None


def _restore_backup(path: Path, settings: dict[str, Any]) -> bool:
    """Put back the copy install kept (`.bak`) when it holds exactly `settings`: the file comes
    back byte for byte, its layout included."""
    backup = path.with_name(path.name + ".bak")
    try:
        data = backup.read_bytes()
        if json.loads(data) != settings:
            return False
        land(staged_bytes(path, data, file_mode(path)), path)
    except (OSError, ValueError):
        return False
    return True


def _made_marker(path: Path) -> Path:
    return path.with_name(f".{path.name}.inspector-made")


def _made_by_install(path: Path) -> bool:
    return _made_marker(path).exists()


def _remove_made(path: Path) -> None:
    try:
        path.unlink()
        _made_marker(path).unlink(missing_ok=True)
        path.with_name(path.name + ".bak").unlink(missing_ok=True)
    except OSError as exc:
        raise InspectorError(f"{shown_name(path)}: cannot be removed ({exc.strerror})") from None
