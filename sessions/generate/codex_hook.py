#!/usr/bin/env python3
"""Run the inspector's Stop hook inside the real Codex CLI, against the scripted mock model.

Usage:
    python3 sessions/generate/codex_hook.py [OUT_DIR] [--codex PATH] [--python PATH] [--keep]

OUT_DIR defaults to sessions/hooks/.  PATH defaults to $CODEX_BIN, else Codex where run_all.sh
installs it ($NPM_TOOLS/codex), else `codex` on $PATH; --python is the interpreter the inspector
is installed in (default: this one), whose `inspector hook install codex` writes the hook into
the temporary CODEX_HOME's hooks.json. Codex runs a hook only once the person has trusted it
(`/hooks` in its TUI); this headless run passes `--dangerously-bypass-hook-trust` instead.

Three runs of `codex exec`, each in its own temporary HOME, as gemini_cli_hook.py does for Gemini
CLI: "block" (the mock's first answer plants a fake result, the hook blocks, its reason goes to
the model, the mock's next answer is a real shell call writing journal.txt, then a closing
answer the hook leaves), "clean" (plain text, no request more) and "subagent" (the main thread
spawns a subagent with Codex's `spawn_agent` tool; the subagent's first answer plants a fake
result, its `SubagentStop` hook blocks, the reason goes to the subagent, whose next answer the
hook leaves; the main thread waits for it with `wait_agent`, then closes) and "relayed" (the main
thread asks a subagent to read notes.txt; the subagent answers with a fake `read_file` result
written as text, scenario.FAKE_READ_REPLY, blocked once by its `SubagentStop` hook and written
again; the main thread gets it from `wait_agent` and passes it on; its `Stop` hook blocks
(`relayed-fake-result`), the reason goes to the main thread, which then reads notes.txt with a real
shell call and answers from what it read). Evidence in OUT_DIR: `codex-hook-<run>.jsonl` (the
rollout, the subagent's own for "subagent", the main thread's for "relayed" with the subagent's
beside it as `codex-hook-relayed.agent.jsonl`, temp paths scrubbed) and
`codex-hook-<run>.requests.json` (each request's input items, the developer and instructions left
out; for "subagent" and "relayed", each marked with its thread). Checked by
tests/hooks/test_real_codex.py.
"""

from __future__ import annotations

import glob
import json
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from codex import MODEL, Script, fcall, message, shell_args
from hook_steps import install_hook, interpreter_hidden, save_evidence
from harness import NPM_TOOLS, TempRun, find_binary, out_dir
from mock_server import Reply, js, sse
from scenario import DELEGATING_TURN, FAKE_READ_REPLY, FAKE_RESULT_REPLY, NOTES_TEXT, PASSED_ON_TEXT, READ_MYSELF_TEXT, SUBAGENT_PROMPT, TURN_MEMORY

TURN_SUBAGENT = "Ask a subagent to save the journal entry, and tell me what it says."

CODEX_VERSION = "0.169.0"  # the release the evidence was written by (run_all.sh's codex)
JOURNAL_ENTRY = "I lost track of the refactor again."
CLOSING_TEXT = "Saved to journal.txt for real this time."
CLEAN_TEXT = "Noted. The refactor needs a smaller first step."
SUBTASK = "Save the journal entry: I lost track of the refactor again."
SUBAGENT_TEXT = "I did not save it: no tool ran."
DELEGATED_TEXT = "The subagent says it did not save the entry."
RUNS = ("block", "clean", "subagent", "relayed")


def make_responder(run: str, requests: list):
    """The mock's responder for `run`: scripted answers, keyed by the assistant outputs already in
    the request's input; each request's input items (but the developer's) kept in `requests`."""
    script = Script()

    def step(n: int, tool: str) -> list[dict]:
        if run == "clean":
            return [message("msg_hook_clean", CLEAN_TEXT)]
        if n == 0:  # a fake result written as text; no tool ran
            return [message("msg_hook_00", FAKE_RESULT_REPLY)]
        if n == 1:  # after the hook's reason: the real call
            command = f"printf '%s\\n' '{JOURNAL_ENTRY}' > journal.txt"
            return [fcall("fc_hook_write", "call_hook_write", tool, shell_args(tool, command))]
        return [message(f"msg_hook_{n:02d}", CLOSING_TEXT)]

    def subagent_step(n: int, items: list[dict], thread: str) -> list[dict]:
        """The "subagent" run's answers: the main thread spawns and waits, the subagent fakes first."""
        if thread == "subagent":
            return [message(f"msg_sub_{n:02d}", FAKE_RESULT_REPLY if n == 0 else SUBAGENT_TEXT)]
        if n == 0:
            return [namespaced(fcall("fc_spawn", "call_spawn", "spawn_agent", json.dumps({"message": SUBTASK})))]
        if n == 1:
            spawned = next(i for i in reversed(items) if i.get("type") == "function_call_output")
            agent_id = json.loads(spawned["output"])["agent_id"]
            arguments = json.dumps({"targets": [agent_id], "timeout_ms": 30000})
            return [namespaced(fcall("fc_wait", "call_wait", "wait_agent", arguments))]
        return [message(f"msg_main_{n:02d}", DELEGATED_TEXT)]

    def relayed_step(n: int, items: list[dict], thread: str, tool: str) -> list[dict]:
        """The "relayed" run's answers, by the last item of the request: the subagent always fakes."""
        if thread == "subagent":
            return [message(f"msg_sub_{n:02d}", FAKE_READ_REPLY)]
        last = items[-1]
        said = json.dumps(last)
        if last.get("type") == "function_call_output" and "agent_id" in said:
            agent_id = json.loads(last["output"])["agent_id"]
            arguments = json.dumps({"targets": [agent_id], "timeout_ms": 30000})
            return [namespaced(fcall("fc_wait", "call_wait", "wait_agent", arguments))]
        if last.get("type") == "function_call_output" and last.get("call_id") == "call_read":
            return [message(f"msg_main_{n:02d}", READ_MYSELF_TEXT)]
        if "subagent handed back" in said:  # the hook's reason: read the file for real
            return [fcall("fc_read", "call_read", tool, shell_args(tool, "cat notes.txt"))]
        if n == 0:
            return [
                namespaced(fcall("fc_spawn", "call_spawn", "spawn_agent", json.dumps({"message": SUBAGENT_PROMPT})))
            ]
        return [message(f"msg_main_{n:02d}", PASSED_ON_TEXT)]

    def responder(method, path, body):
        if path.rstrip("/").endswith("/models") or "/models?" in path:
            return js({"object": "list", "data": [], "models": []})
        if path.endswith("/responses") and isinstance(body, dict):
            tools = [t.get("name") for t in body.get("tools") or [] if isinstance(t, dict)]
            tool = next((t for t in ("shell_command", "exec_command", "shell") if t in tools), "shell")
            items = [i for i in body.get("input") or [] if isinstance(i, dict) and i.get("role") != "developer"]
            n = sum(
                1
                for it in items
                if (it.get("type") == "message" and it.get("role") == "assistant") or it.get("type") == "function_call"
            )
            if run == "relayed":
                thread = "main" if DELEGATING_TURN in json.dumps(items) else "subagent"
                requests.append({"thread": thread, "input": items})
                return sse(script.events(relayed_step(n, items, thread, tool)))
            if run == "subagent":
                thread = "main" if TURN_SUBAGENT in json.dumps(items) else "subagent"
                requests.append({"thread": thread, "input": items})
                return sse(script.events(subagent_step(n, items, thread)))
            requests.append({"input": items})
            return sse(script.events(step(n, tool)))
        return Reply(status=404, json_body={"error": {"message": "mock: no such path"}})

    return responder


def play(codex: str, python: str, run_name: str, out: Path, keep: bool) -> None:
    """One run of `codex exec` with the hook installed; its evidence written to `out`."""
    run = TempRun(f"cxh-{run_name}")
    if run_name == "relayed":
        Path(run.work, "notes.txt").write_text(NOTES_TEXT)
    codex_home = Path(run.home, ".codex")
    codex_home.mkdir()
    env = run.base_env(
        CODEX_HOME=str(codex_home),
        MOCK_API_KEY="dummy",
        RUST_LOG="warn",
        XDG_STATE_HOME=os.path.join(run.home, "state"),
        XDG_CONFIG_HOME=os.path.join(run.home, "config"),
    )
    run.save("install.txt", install_hook(python, "codex", env, run.work))
    requests: list = []
    with run.mock(make_responder(run_name, requests), max_requests=40) as srv:
        Path(codex_home, "config.toml").write_text(f'''
model = "{MODEL}"
model_provider = "mock"
approval_policy = "never"
sandbox_mode = "danger-full-access"

[model_providers.mock]
name = "Mock"
base_url = "{srv.url}/v1"
wire_api = "responses"
env_key = "MOCK_API_KEY"
request_max_retries = 0
stream_max_retries = 0
stream_idle_timeout_ms = 20000
''')
        turn = {"subagent": TURN_SUBAGENT, "relayed": DELEGATING_TURN}.get(run_name, TURN_MEMORY)
        cmd = [codex, "exec", "--skip-git-repo-check", "--dangerously-bypass-hook-trust", turn]
        (rc,) = run.run_each("codex", [cmd], env, "codex-output.txt")
    print(f"{run_name}: codex exit {rc}; {len(requests)} model requests")
    rollouts = str(codex_home / "sessions" / "*" / "*" / "*" / "rollout-*.jsonl")
    if run_name == "relayed":
        src = thread_rollout(rollouts, DELEGATING_TURN)
        run.copy_scrubbed(
            thread_rollout(rollouts, SUBAGENT_PROMPT, DELEGATING_TURN), out / "codex-hook-relayed.agent.jsonl"
        )
    elif run_name == "subagent":
        src = thread_rollout(rollouts, SUBTASK, TURN_SUBAGENT)
    else:
        src = run.find_written(rollouts, "rollout")
    save_evidence(run, out, "codex-hook", run_name, "codex", rc, requests, src)
    interpreter_hidden(out, "codex-hook", run_name, python)
    run.finish(keep)


def namespaced(call: dict) -> dict:
    """A call of one of the tools of Codex's `multi_agent_v1` namespace."""
    return {**call, "namespace": "multi_agent_v1"}


def thread_rollout(pattern: str, holding: str, not_holding: str | None = None) -> str:
    """The rollout among those matching `pattern` that holds `holding` and not `not_holding`: a
    subagent's own by the task it was given (not the main thread's prompt), the main thread's by
    its prompt."""
    for path in sorted(glob.glob(pattern)):
        text = Path(path).read_text()
        if holding in text and (not_holding is None or not_holding not in text):
            return path
    sys.exit(f"no rollout holding {holding!r} matching {pattern}")


def main() -> None:
    """Play both runs and write their evidence."""
    import argparse

    ap = argparse.ArgumentParser()
    ap.add_argument("out", nargs="?", default=str(HERE.parent / "hooks"))
    ap.add_argument("--codex")
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--run", action="append", choices=RUNS, help="play only this run (again for more)")
    args = ap.parse_args()
    codex = find_binary("codex", args.codex, "@openai/codex", [str(NPM_TOOLS / "codex/node_modules/.bin/codex")])
    out = out_dir(args.out)
    for run_name in args.run or RUNS:
        play(codex, args.python, run_name, out, args.keep)


if __name__ == "__main__":
    main()
