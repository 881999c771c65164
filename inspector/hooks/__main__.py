"""`python -m inspector.hooks AGENT` (claude-code, gemini-cli): the command `inspector hook install`
writes into the agent's settings, the hook alone, without the command line's imports."""

from __future__ import annotations

import sys

if __name__ == "__main__":
    agent = sys.argv[1:]
    if agent == ["claude-code"]:
        from inspector.hooks.stop_hook import run_stop_hook as run
    elif agent == ["gemini-cli"]:
        from inspector.hooks.after_agent_hook import run_after_agent_hook as run
    else:
        print("inspector hook: usage: python -m inspector.hooks claude-code|gemini-cli", file=sys.stderr)
        sys.exit(0)  # never fail the agent
    sys.exit(run(sys.stdin.buffer, sys.stdout, sys.stderr))
