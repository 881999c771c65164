"""`python -m inspector.hooks AGENT` (claude-code, gemini-cli, qwen-code, codex, copilot-cli): the command `inspector hook install`
writes into the agent's settings, the hook alone, without the command line's imports."""

from __future__ import annotations

import sys

if __name__ == "__main__":
    agent = sys.argv[1:]
    if agent == ["claude-code"]:
        from inspector.hooks.stop_hook import run_stop_hook

        sys.exit(run_stop_hook(sys.stdin.buffer, sys.stdout, sys.stderr))
    if agent in (["gemini-cli"], ["qwen-code"], ["codex"], ["copilot-cli"]):
        from inspector.hooks.chat_file_hook import run_chat_file_hook

        sys.exit(run_chat_file_hook(agent[0], sys.stdin.buffer, sys.stdout, sys.stderr))
    print(
        "inspector hook: usage: python -m inspector.hooks claude-code|gemini-cli|qwen-code|codex|copilot-cli",
        file=sys.stderr,
    )
    sys.exit(0)  # never fail the agent
