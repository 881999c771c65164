"""`inspector hook`: the check that runs inside the agent (`hook claude-code`, which Claude Code
runs at the end of each reply, `hook gemini-cli`, Gemini CLI's, and `hook qwen-code`, Qwen Code's, `hook codex`, Codex's, `hook copilot-cli`, GitHub Copilot CLI's) and putting it in place (`hook install`, `hook uninstall`,
`hook status`). What each does is in `inspector.hooks`; this module is its command line."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from inspector.cli.commands import summary
from inspector.cli.exit_codes import FOUND, FOUND_NOTHING, epilog

AGENTS = (
    "claude-code",
    "gemini-cli",
    "qwen-code",
    "codex",
    "copilot-cli",
)  # the agents with a hook at the end of a reply that can block it


def add_command(commands: argparse._SubParsersAction[Any]) -> None:
    """Add `hook` and its actions to the command line's `commands`."""
    hook = commands.add_parser(
        "hook",
        help=summary("hook"),
        epilog=epilog("hook"),
    )
    actions = hook.add_subparsers(dest="action", metavar="ACTION", required=True)
    for agent, name in (
        ("claude-code", "Claude Code"),
        ("gemini-cli", "Gemini CLI"),
        ("qwen-code", "Qwen Code"),
        ("codex", "Codex"),
        ("copilot-cli", "GitHub Copilot CLI"),
    ):
        run = actions.add_parser(
            agent, help=f"the hook itself: {name} runs it with the hook's JSON on stdin (always exits 0)"
        )
        run.set_defaults(run=_run, agent=agent)
    for name, does in (("install", "add the hook to"), ("uninstall", "remove the hook from")):
        action = actions.add_parser(name, help=f"{does} the agent's settings")
        action.add_argument(
            "agent",
            nargs="?",
            choices=AGENTS,
            default=AGENTS[0],
            metavar="AGENT",
            help="the agent whose settings change: claude-code (the default), gemini-cli, qwen-code, codex or copilot-cli",
        )
        where = action.add_mutually_exclusive_group()
        where.add_argument(
            "--project",
            action="store_true",
            help="this project's .claude/settings.json (.gemini/, .qwen/settings.json, .codex/hooks.json, "
            ".github/hooks/inspector.json for the others)",
        )
        where.add_argument(
            "--user",
            action="store_true",
            help="your ~/.claude/settings.json ($CLAUDE_CONFIG_DIR honoured; the default), "
            "~/.gemini/settings.json ($GEMINI_CLI_HOME honoured), ~/.qwen/settings.json ($QWEN_HOME honoured), "
            "~/.codex/hooks.json ($CODEX_HOME honoured) or ~/.copilot/hooks/inspector.json ($COPILOT_HOME honoured)",
        )
        action.set_defaults(run=_install if name == "install" else _uninstall)
    status = actions.add_parser("status", help="say where the hook is installed (exit 1 when nowhere)")
    status.set_defaults(run=_status)


def _run(args: argparse.Namespace) -> int:
    if args.agent != "claude-code":
        from inspector.hooks.chat_file_hook import run_chat_file_hook

        return run_chat_file_hook(args.agent, sys.stdin.buffer, sys.stdout, sys.stderr)
    from inspector.hooks.stop_hook import run_stop_hook

    return run_stop_hook(sys.stdin.buffer, sys.stdout, sys.stderr)


def _install(args: argparse.Namespace) -> int:
    from inspector.hooks.install import install, settings_file

    print(install(settings_file(args.project, agent=args.agent), args.agent).said)
    return FOUND_NOTHING


def _uninstall(args: argparse.Namespace) -> int:
    from inspector.hooks.install import settings_file, uninstall

    print(uninstall(settings_file(args.project, agent=args.agent), args.agent).said)
    return FOUND_NOTHING


def _status(args: argparse.Namespace) -> int:
    """Each agent's two places and whether the hook is in each; exit 1 when it is in none."""
    from inspector.hooks.install import hook_command, installed_in, settings_file

    found = False
    for agent in AGENTS:
        places = (("user", settings_file(False, agent=agent)), ("project", settings_file(True, Path.cwd(), agent)))
        for label, path in places:
            here = installed_in(path, agent)
            found = found or here
            print(f"{agent} {label}: {path}: {'installed' if here else 'not installed'}")
        print(f"{agent}: the hook runs: {hook_command(agent)}")
    return FOUND_NOTHING if found else FOUND
