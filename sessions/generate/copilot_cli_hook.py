#!/usr/bin/env python3
"""Run the inspector's Stop hook inside the real GitHub Copilot CLI, against the scripted mock model.

Usage:
    python3 sessions/generate/copilot_cli_hook.py [OUT_DIR] [--copilot PATH] [--python PATH] [--keep]

OUT_DIR defaults to sessions/hooks/.  PATH defaults to $COPILOT_BIN, else the platform package's
binary where run_all.sh installs it ($NPM_TOOLS/copilot), else `copilot` on $PATH; --python is the
interpreter the inspector is installed in (default: this one), whose `inspector hook install
copilot-cli` writes the hook's file into the temporary HOME's `~/.copilot/hooks/`.

Two runs of `copilot -p` (bring-your-own-key, offline, as copilot_cli.py runs it), each in its own
temporary HOME, as codex_hook.py does for Codex: "block" (the mock's first answer plants a fake
result, the hook blocks, Copilot queues its reason as the next prompt, the mock's next answer is a
real `bash` call writing journal.txt, then a closing answer the hook leaves) and "clean" (plain
text, no request more). Evidence in OUT_DIR: `copilot-cli-hook-<run>.jsonl` (the session's
events.jsonl, temp paths scrubbed) and `copilot-cli-hook-<run>.requests.json` (each request's
messages, the system prompt left out). Checked by tests/hooks/test_real_copilot_cli.py.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from copilot_cli import BINARY, MODEL, copilot_env
from harness import TempRun, find_binary, out_dir
from hook_steps import install_hook, interpreter_hidden, save_evidence
from mock_server import chat_completion_sse
from scenario import FAKE_RESULT_REPLY, TURN_MEMORY

COPILOT_VERSION = "1.0.102"  # the release the evidence was written by (run_all.sh's copilot)
JOURNAL_ENTRY = "I lost track of the refactor again."
CLOSING_TEXT = "Saved to journal.txt for real this time."
CLEAN_TEXT = "Noted. The refactor needs a smaller first step."


def make_responder(run: str, requests: list):
    """The mock's responder for `run`: scripted answers, keyed by the assistant messages already in
    the request; each request's messages (but the system prompt) kept in `requests`."""

    def responder(method, path, body):
        messages = [m for m in (body or {}).get("messages") or [] if isinstance(m, dict) and m.get("role") != "system"]
        requests.append({"messages": messages})
        n = sum(1 for m in messages if m.get("role") == "assistant")
        rid = f"chatcmpl-hook-{n:02d}"
        if run == "clean":
            return chat_completion_sse(MODEL, rid, CLEAN_TEXT)
        if n == 0:  # a fake result written as text; no tool ran
            return chat_completion_sse(MODEL, rid, FAKE_RESULT_REPLY)
        if n == 1:  # after the hook's reason: the real call
            command = f"printf '%s\\n' '{JOURNAL_ENTRY}' > journal.txt"
            args = json.dumps({"command": command, "description": "Save the journal entry"})
            return chat_completion_sse(MODEL, rid, "", (("call_hook_write", "bash", args),))
        return chat_completion_sse(MODEL, rid, CLOSING_TEXT)

    return responder


def play(copilot: str, python: str, run_name: str, out: Path, keep: bool) -> None:
    """One run of `copilot -p` with the hook installed; its evidence written to `out`."""
    run = TempRun(f"cph-{run_name}")
    requests: list = []
    with run.mock(make_responder(run_name, requests), max_requests=20) as srv:
        env = copilot_env(run, srv.url)
        env["XDG_STATE_HOME"] = os.path.join(run.home, "state")
        env["XDG_CONFIG_HOME"] = os.path.join(run.home, "config")
        run.save("install.txt", install_hook(python, "copilot-cli", env, run.work))
        flags = ["--allow-all-tools", "--disable-client-telemetry", "--stream", "on"]
        (rc,) = run.run_each("copilot", [[copilot, *flags, "-p", TURN_MEMORY]], env, "copilot-output.txt")
    print(f"{run_name}: copilot exit {rc}; {len(requests)} model requests")
    src = run.find_written(str(Path(run.home, ".copilot/session-state/*/events.jsonl")), "events file")
    save_evidence(run, out, "copilot-cli-hook", run_name, "copilot", rc, requests, src)
    interpreter_hidden(out, "copilot-cli-hook", run_name, python)
    run.finish(keep)


def main() -> None:
    """Play both runs and write their evidence."""
    import argparse

    ap = argparse.ArgumentParser()
    ap.add_argument("out", nargs="?", default=str(HERE.parent / "hooks"))
    ap.add_argument("--copilot")
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--keep", action="store_true")
    args = ap.parse_args()
    copilot = find_binary("copilot", args.copilot, "@github/copilot", [str(BINARY)])
    out = out_dir(args.out)
    for run_name in ("block", "clean"):
        play(copilot, args.python, run_name, out, args.keep)


if __name__ == "__main__":
    main()
