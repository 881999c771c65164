#!/usr/bin/env python3
"""Run the inspector's Stop hook inside the real GitHub Copilot CLI, against the scripted mock model.

Usage:
    python3 sessions/generate/copilot_cli_hook.py [OUT_DIR] [--copilot PATH] [--python PATH] [--keep]

OUT_DIR defaults to sessions/hooks/.  PATH defaults to $COPILOT_BIN, else the platform package's
binary where run_all.sh installs it ($NPM_TOOLS/copilot), else `copilot` on $PATH; --python is the
interpreter the inspector is installed in (default: this one), whose `inspector hook install
copilot-cli` writes the hook's file into the temporary HOME's `~/.copilot/hooks/`.

Three runs of `copilot -p` (bring-your-own-key, offline, as copilot_cli.py runs it), each in its own
temporary HOME, as codex_hook.py does for Codex: "block" (the mock's first answer plants a fake
result, the hook blocks, Copilot queues its reason as the next prompt, the mock's next answer is a
real `bash` call writing journal.txt, then a closing answer the hook leaves), "clean" (plain
text, no request more) and "relayed": the main agent starts a subagent with the `task` tool, which
Copilot CLI runs in the foreground (its events in the same file, with its `agentId`); the
subagent's answer, a fake `view` result written as text (scenario.FAKE_READ_REPLY), is the call's
result; the main agent passes it on, the hook blocks on `Stop` (`relayed-fake-result`), Copilot
queues its reason as the next prompt, and the main agent reads notes.txt with a real `view` call.
Evidence in OUT_DIR: `copilot-cli-hook-<run>.jsonl` (the session's events.jsonl, temp paths
scrubbed) and `copilot-cli-hook-<run>.requests.json` (each request's messages, the system prompt
left out; in the relayed run each tagged `main` or `subagent`). Checked by
tests/hooks/test_real_copilot_cli.py.
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
from scenario import DELEGATING_TURN, FAKE_READ_REPLY, FAKE_RESULT_REPLY, NOTES_TEXT, PASSED_ON_TEXT, READ_MYSELF_TEXT, SUBAGENT_PROMPT, TURN_MEMORY

COPILOT_VERSION = "1.0.102"  # the release the evidence was written by (run_all.sh's copilot)
JOURNAL_ENTRY = "I lost track of the refactor again."
CLOSING_TEXT = "Saved to journal.txt for real this time."
CLEAN_TEXT = "Noted. The refactor needs a smaller first step."
RUNS = ("block", "clean", "relayed")


def relayed_answer(messages: list, n: int, notes: str):
    """The main agent's scripted answer in the relayed run, by the last message of its request."""
    rid = f"chatcmpl-main-{n:02d}"
    last = messages[-1]
    said = last.get("content") if isinstance(last.get("content"), str) else json.dumps(last.get("content"))
    if last.get("role") == "tool" and last.get("tool_call_id") == "call_hook_delegate":
        return chat_completion_sse(MODEL, rid, PASSED_ON_TEXT)
    if last.get("role") == "tool":  # the real view's result
        return chat_completion_sse(MODEL, rid, READ_MYSELF_TEXT)
    if "subagent handed back" in said:  # the hook's reason, queued as the next prompt
        return chat_completion_sse(MODEL, rid, "", (("call_hook_view", "view", json.dumps({"path": notes})),))
    arguments = {
        "description": "Read notes.txt",
        "prompt": SUBAGENT_PROMPT,
        "agent_type": "general-purpose",
        "name": "reader",
    }
    return chat_completion_sse(
        MODEL, rid, "Asking a subagent to read it.", (("call_hook_delegate", "task", json.dumps(arguments)),)
    )


def make_responder(run: str, requests: list, notes: str = ""):
    """The mock's responder for `run`: scripted answers, keyed by the assistant messages already in
    the request (the relayed run's by its last message, the subagent's told by its prompt); each
    request's messages (but the system prompt) kept in `requests`."""

    def responder(method, path, body):
        messages = [m for m in (body or {}).get("messages") or [] if isinstance(m, dict) and m.get("role") != "system"]
        n = sum(1 for m in messages if m.get("role") == "assistant")
        if run == "relayed":
            subagent = DELEGATING_TURN not in json.dumps(messages)
            requests.append({"agent": "subagent" if subagent else "main", "messages": messages})
            if subagent:
                return chat_completion_sse(MODEL, f"chatcmpl-sub-{n:02d}", FAKE_READ_REPLY)
            return relayed_answer(messages, n, notes)
        requests.append({"messages": messages})
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
    notes = os.path.join(run.work, "notes.txt")
    if run_name == "relayed":
        Path(notes).write_text(NOTES_TEXT)
    requests: list = []
    with run.mock(make_responder(run_name, requests, notes), max_requests=20) as srv:
        env = copilot_env(run, srv.url)
        env["XDG_STATE_HOME"] = os.path.join(run.home, "state")
        env["XDG_CONFIG_HOME"] = os.path.join(run.home, "config")
        run.save("install.txt", install_hook(python, "copilot-cli", env, run.work))
        flags = ["--allow-all-tools", "--disable-client-telemetry", "--stream", "on"]
        prompt = DELEGATING_TURN if run_name == "relayed" else TURN_MEMORY
        (rc,) = run.run_each("copilot", [[copilot, *flags, "-p", prompt]], env, "copilot-output.txt")
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
    ap.add_argument("--run", action="append", choices=RUNS, help="play only this run (again for more)")
    args = ap.parse_args()
    copilot = find_binary("copilot", args.copilot, "@github/copilot", [str(BINARY)])
    out = out_dir(args.out)
    for run_name in args.run or RUNS:
        play(copilot, args.python, run_name, out, args.keep)


if __name__ == "__main__":
    main()
