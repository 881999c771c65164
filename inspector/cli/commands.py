"""The command words of the command line (`scan`, `report`, `fix`, `undo`, `hook`, `watch`,
`search`, `mcp`): for each, the module whose `add_command` adds its options and how it runs, and its line in
`inspector --help`.

The parser imports a command's module only when that command runs (`build_parser` in
`inspector.cli.main`): `inspector --version`, `inspector --help` and `inspector hook ...` load
none of the readers, detectors or writers that `scan`'s and `fix`'s options name.
"""

from __future__ import annotations

from typing import NamedTuple


class CommandLine(NamedTuple):
    """A command word: the module that adds it (`add_command(commands)`), and its one-line help."""

    module: str
    summary: str


COMMAND_LINES: dict[str, CommandLine] = {
    "scan": CommandLine("inspector.cli.scan_command", "report suspect turns in session files or directories"),
    "report": CommandLine(
        "inspector.cli.report_command",
        "write a report to share: one HTML page or Markdown, with the flagged turns and their repairs",
    ),
    "fix": CommandLine("inspector.cli.fix_command", "apply fixes and write the repaired session with an audit record"),
    "undo": CommandLine(
        "inspector.cli.undo_command",
        "revert fixes recorded in a database's own audit (inspector_fixes), or a session file's last fix --in-place",
    ),
    "hook": CommandLine(
        "inspector.cli.hook_command",
        "check each reply inside the agent as it ends (Claude Code, Codex, Gemini CLI, Qwen Code, "
        "Copilot CLI), and install it",
    ),
    "watch": CommandLine(
        "inspector.cli.watch_command",
        "follow your most recent agent session as it is written (the app, as --follow opens it)",
    ),
    "search": CommandLine(
        "inspector.cli.search_command",
        "find words in every session, narrowed by findings, tool, model, agent, project and date",
    ),
    "mcp": CommandLine(
        "inspector.cli.mcp_command",
        "serve the MCP server over stdio: check_reply, list_sessions, scan_session, findings (read-only)",
    ),
}


def summary(command: str) -> str:
    """The line `command` has in `inspector --help`."""
    return COMMAND_LINES[command].summary
