#!/usr/bin/env python3
"""Run the inspector's Stop hook inside the real Qwen Code, against the scripted mock model.

Usage:
    python3 sessions/generate/qwen_code_hook.py [OUT_DIR] [--qwen PATH] [--python PATH] [--keep]

OUT_DIR defaults to sessions/hooks/.  PATH defaults to $QWEN_BIN, else Qwen Code where
run_all.sh installs it ($NPM_TOOLS/qwen), else `qwen` on $PATH; --python is the interpreter the
inspector is installed in (default: this one), whose `inspector hook install qwen-code` writes
the hook into the temporary HOME's Qwen Code settings (~/.qwen/settings.json).

Three runs of `qwen -p`, each in its own temporary HOME, as gemini_cli_hook.py does for Gemini CLI:
"block" (the mock's first answer plants a fake result, the hook blocks, its reason goes to the
model, the mock's next answer is a real write_file call, then a closing answer the hook leaves),
"clean" (plain text, no request more) and "relayed": the main agent starts a subagent with the
`agent` tool, which Qwen Code runs in the background; the subagent's answer is a fake `read_file`
result written as text (scenario.FAKE_READ_REPLY; the hook, on `SubagentStop`, blocks it once,
and the subagent writes it again); Qwen Code hands it to the main agent in a `<task-notification>`
message, the main agent passes it on, the hook, on `Stop`, blocks (`relayed-fake-result`), and its
reason reaches the main agent, which then reads notes.txt itself and answers from what it read.
Evidence in OUT_DIR: `qwen-code-hook-<run>.jsonl` (the chat file, temp paths scrubbed) and
`qwen-code-hook-<run>.requests.json` (each request's messages, the system prompt left out; in the
relayed run each tagged `main` or `subagent`). Checked by tests/hooks/test_real_qwen_code.py.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from hook_steps import install_hook, interpreter_hidden, save_evidence
from harness import NPM_TOOLS, TempRun, find_binary, out_dir
from mock_server import Reply, js
from qwen_code import MODEL, answered, completion_events, qwen_command, qwen_home, tool_names
from scenario import DELEGATING_TURN, FAKE_READ_REPLY, FAKE_RESULT_REPLY, NOTES_TEXT, PASSED_ON_TEXT, READ_MYSELF_TEXT, SUBAGENT_PROMPT, TURN_MEMORY

QWEN_VERSION = "0.24.4"  # the release the evidence was written by (run_all.sh's qwen)
JOURNAL_ENTRY = "I lost track of the refactor again."
CLOSING_TEXT = "Saved to journal.txt for real this time."
CLEAN_TEXT = "Noted. The refactor needs a smaller first step."
RUNS = ("block", "clean", "relayed")
SUBAGENT_SYSTEM = "You are a general-purpose subagent"  # how a subagent's system prompt opens


def relayed_answer(messages: list, tools: dict[str, list[str]], notes: str) -> list:
    """The main agent's scripted answer in the relayed run, by the last message of its request."""
    last = messages[-1]
    said = last.get("content") if isinstance(last.get("content"), str) else json.dumps(last.get("content"))
    if last.get("role") == "tool" and "Background agent launched" in said:
        return completion_events("The subagent is reading it; its answer will follow.")
    if last.get("role") == "tool":  # the real read_file's result
        return completion_events(READ_MYSELF_TEXT)
    if "<task-notification>" in said:
        return completion_events(PASSED_ON_TEXT)
    if "subagent handed back" in said:  # the hook's reason: read the file for real
        path_key = next((key for key in tools.get("read_file", []) if "path" in key), "file_path")
        return completion_events("", [("call_hook_read", "read_file", json.dumps({path_key: notes}))])
    arguments = {"description": "Read notes.txt", "prompt": SUBAGENT_PROMPT, "subagent_type": "general-purpose"}
    return completion_events("Asking a subagent to read it.", [("call_hook_delegate", "agent", json.dumps(arguments))])


def make_responder(workdir: str, run: str, requests: list):
    """The mock's responder for `run`: scripted main-model answers, keyed by the assistant
    messages already in the request (the relayed run's by its last message, the subagent's told
    by its system prompt); each request's messages (but the system's) kept."""
    journal = os.path.join(workdir, "journal.txt")
    notes = os.path.join(workdir, "notes.txt")

    def step(n: int, tools: dict[str, list[str]]) -> list:
        if run == "clean":
            return completion_events(CLEAN_TEXT)
        if n == 0:  # a fake result written as text; no tool ran
            return completion_events(FAKE_RESULT_REPLY)
        if n == 1:  # after the hook's reason: the real call
            path_key = next((key for key in tools.get("write_file", []) if "path" in key), "file_path")
            arguments = json.dumps({path_key: journal, "content": JOURNAL_ENTRY + "\n"})
            return completion_events("", [("call_hook_write", "write_file", arguments)])
        return completion_events(CLOSING_TEXT)

    def responder(method, path, body):
        if path.rstrip("/").endswith("/models"):
            return js({"object": "list", "data": [{"id": MODEL, "object": "model", "owned_by": "mock"}]})
        if path.endswith("/chat/completions") and isinstance(body, dict):
            tools = tool_names(body)
            system = next((m.get("content") for m in body.get("messages") or [] if m.get("role") == "system"), "")
            if run == "relayed" and "write_file" in tools:
                messages = [m for m in body.get("messages") or [] if m.get("role") != "system"]
                subagent = SUBAGENT_SYSTEM in str(system)
                requests.append({"agent": "subagent" if subagent else "main", "messages": messages})
                events = completion_events(FAKE_READ_REPLY) if subagent else relayed_answer(messages, tools, notes)
            elif "write_file" in tools:
                messages = [m for m in body.get("messages") or [] if m.get("role") != "system"]
                requests.append({"messages": messages})
                events = step(sum(1 for m in messages if m.get("role") == "assistant"), tools)
            else:  # title, next speaker, summaries...
                events = completion_events('{"next_speaker": "user", "reasoning": "done", "title": "Journal"}')
            return answered(body, events)
        return Reply(status=404, json_body={"error": {"message": "mock: no such path", "type": "not_found"}})

    return responder


def play(qwen: str, python: str, run_name: str, out: Path, keep: bool) -> None:
    """One run of `qwen -p` with the hook installed; its evidence written to `out`."""
    run = TempRun(f"qwh-{run_name}")
    if run_name == "relayed":
        Path(run.work, "notes.txt").write_text(NOTES_TEXT)
    qdir = qwen_home(run)
    env = run.base_env(
        OPENAI_API_KEY="dummy",
        OPENAI_MODEL=MODEL,
        QWEN_DISABLE_AUTO_TITLE="1",
        NO_BROWSER="true",
        CI="",
        XDG_STATE_HOME=os.path.join(run.home, "state"),
        XDG_CONFIG_HOME=os.path.join(run.home, "config"),
    )
    env.pop("QWEN_HOME", None)
    run.save("install.txt", install_hook(python, "qwen-code", env, run.work))
    requests: list = []
    with run.mock(make_responder(run.work, run_name, requests), max_requests=40) as srv:
        env["OPENAI_BASE_URL"] = srv.url + "/v1"
        cmd = qwen_command(qwen)
        prompt = DELEGATING_TURN if run_name == "relayed" else TURN_MEMORY
        (rc,) = run.run_each("qwen", [cmd + ["-p", prompt]], env, "qwen-output.txt")
    print(f"{run_name}: qwen exit {rc}; {len(requests)} main-model requests")
    src = run.find_written(str(qdir / "projects" / "*" / "chats" / "*.jsonl"), "chat file")
    save_evidence(run, out, "qwen-code-hook", run_name, "qwen", rc, requests, src)
    interpreter_hidden(out, "qwen-code-hook", run_name, python)
    run.finish(keep)


def main() -> None:
    """Play both runs and write their evidence."""
    import argparse

    ap = argparse.ArgumentParser()
    ap.add_argument("out", nargs="?", default=str(HERE.parent / "hooks"))
    ap.add_argument("--qwen")
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--run", action="append", choices=RUNS, help="play only this run (again for more)")
    args = ap.parse_args()
    qwen = find_binary("qwen", args.qwen, "@qwen-code/qwen-code", [str(NPM_TOOLS / "qwen/node_modules/.bin/qwen")])
    out = out_dir(args.out)
    for run_name in args.run or RUNS:
        play(qwen, args.python, run_name, out, args.keep)


if __name__ == "__main__":
    main()
