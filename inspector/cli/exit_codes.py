"""The command line's exit codes, declared once: the three numbers, and what each means for each
command. Each command's `--help` ends with its line (`epilog`), and `docs/cli.md` lists the same
table (a test checks it against this one).

Only `scan` is a check (1: findings), and `hook status` (1: installed nowhere); `hook claude-code`
runs inside the agent and never fails it (always 0); `report` and `fix` succeed with 0 once they have written
what they were asked to, and `fix` says with 1 that findings are left in what it wrote. Every
error is one line on stderr, never a traceback; a bad option too (`inspector.cli.suggest`: the
closest word it knows, never the usage block), with 2.
"""

from __future__ import annotations

import textwrap

FOUND_NOTHING, FOUND, FAILED = 0, 1, 2
HITS, NO_HITS = 0, 1  # `search` answers as grep does: 0 when it found something

APP = "inspector [PATH]"  # the app, which has no command word of its own

EXIT_CODES: dict[str, dict[int, str]] = {
    APP: {
        FOUND_NOTHING: "the app was closed",
        FAILED: "the input could not be opened (one line, before any screen), or a bad option",
    },
    "scan": {
        FOUND_NOTHING: "nothing found (or no sessions of your own to scan)",
        FOUND: "findings reported (with --unknowns: records the readers do not know)",
        FAILED: "a file could not be read (one line each; the others are still reported), or a bad option",
    },
    "report": {
        FOUND_NOTHING: "the report written, findings or not (one line says where, and how many findings)",
        FAILED: "a file could not be read (no report when none could), or a bad option",
    },
    "fix": {
        FOUND_NOTHING: "written, and no finding left in it: every one found is fixed and audited (or none was found)",
        FOUND: "written, with the accepted fixes applied and audited, but findings left in it "
        "(of kinds not accepted, or with no automatic fix; one line counts them by kind)",
        FAILED: "nothing written: the input, the output or an option was refused (one line)",
    },
    "undo": {
        FOUND_NOTHING: "the fixes are undone, and the undo recorded",
        FAILED: "nothing undone: no fix left, a row or file changed since, or a bad option (one line)",
    },
    "hook": {
        FOUND_NOTHING: "claude-code, gemini-cli, qwen-code, codex, copilot-cli: always (a block or a note is its output, an error of its own one line on "
        "stderr); install, uninstall: done, or nothing to do (one line says which); status: installed somewhere",
        FOUND: "status: installed nowhere",
        FAILED: "install, uninstall, status: a settings file could not be read or written (one line), or a bad option",
    },
    "watch": {
        FOUND_NOTHING: "the app was closed",
        FAILED: "no session file of your own to follow (one line says where it looked), or it could not be opened",
    },
    "search": {
        HITS: "turns found (with --facets: findings counted)",
        NO_HITS: "nothing found",
        FAILED: "a bad option, a date or a path (one line), or the index could not be made",
    },
    "mcp": {
        FOUND_NOTHING: "the client closed the connection (a tool's bad input is that tool's error, not the server's)",
        FAILED: "the MCP SDK is not installed (one line says how), or a bad option",
    },
}


def epilog(command: str) -> str:
    """The paragraph ending `command`'s `--help`: its exit codes and what each means (wrapped, for a
    command whose help is printed as written)."""
    meanings = "; ".join(f"{code} {meaning}" for code, meaning in EXIT_CODES[command].items())
    return textwrap.fill(f"exit codes: {meanings}", 78)


COMMANDS = tuple(
    name for name in EXIT_CODES if name != APP
)  # the command words: scan, report, fix, undo, hook, watch, search, mcp
