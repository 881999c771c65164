"""`python -m inspector.hooks claude-code`: the command `inspector hook install` writes into the
agent's settings, the hook alone, without the command line's imports."""

from __future__ import annotations

import sys

from inspector.hooks.stop_hook import run_stop_hook

if __name__ == "__main__":
    if sys.argv[1:] != ["claude-code"]:
        print("inspector hook: usage: python -m inspector.hooks claude-code", file=sys.stderr)
        sys.exit(0)  # never fail the agent
    sys.exit(run_stop_hook(sys.stdin.buffer, sys.stdout, sys.stderr))
