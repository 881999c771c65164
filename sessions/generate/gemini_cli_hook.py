#!/usr/bin/env python3
"""Run the inspector's AfterAgent hook inside the real Gemini CLI, against the scripted mock model.

Usage:
    python3 sessions/generate/gemini_cli_hook.py [OUT_DIR] [--gemini PATH] [--python PATH] [--keep]

OUT_DIR defaults to sessions/hooks/.  PATH defaults to $GEMINI_BIN, else Gemini CLI where
run_all.sh installs it ($NPM_TOOLS/gemini), else `gemini` on $PATH; --python is the interpreter
the inspector is installed in (default: this one), whose `inspector hook install gemini-cli`
writes the hook into the temporary HOME's Gemini CLI settings (~/.gemini/settings.json).

Two runs of `gemini -p`, each in its own temporary HOME:

- "block": the mock's first answer plants a fake tool result (scenario.FAKE_RESULT_REPLY) and
  ends the turn; the hook blocks, and Gemini CLI sends its reason to the model as a new user
  message. The mock answers that request with a real write_file call (journal.txt), which runs,
  and then with a short closing answer, after which the hook stays silent (stop_hook_active).
- "clean": the mock answers with plain text; the hook stays silent, and no further request is made.
- "relayed": the main agent starts a subagent (`invoke_agent`, the `generalist`); the subagent
  writes a fake `read_file` result as text (scenario.FAKE_READ_REPLY) and ends with `complete_task`,
  its summary that same made-up answer, which Gemini CLI hands back as the call's result (no hook
  runs on a subagent's reply). The main agent passes it on; the hook blocks (`relayed-fake-result`),
  its reason goes to the main agent, which then reads notes.txt with a real `read_file` call and
  answers from what it read.

Each run's evidence is written to OUT_DIR: the chat file Gemini CLI wrote
(`gemini-cli-hook-<run>.jsonl`, temp paths scrubbed) and the model's requests as the mock
received them (`gemini-cli-hook-<run>.requests.json`: each request's contents, the system
instruction and tool declarations left out; in the relayed run each tagged `main` or `subagent`). The test tests/hooks/test_real_gemini_cli.py checks
the committed evidence, and runs this script itself when Gemini CLI is found where it looks.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from gemini_cli import MODEL, chunk, side_json, text_chunks
from hook_steps import install_hook, interpreter_hidden, save_evidence
from harness import NPM_TOOLS, TempRun, find_binary, out_dir
from mock_server import Reply, js, sse
from scenario import DELEGATING_TURN, FAKE_READ_REPLY, FAKE_RESULT_REPLY, NOTES_TEXT, PASSED_ON_TEXT, READ_MYSELF_TEXT, SUBAGENT_PROMPT, TURN_MEMORY

GEMINI_VERSION = "0.61.0"  # the release the evidence was written by (run_all.sh's gemini)
JOURNAL_ENTRY = "I lost track of the refactor again."
CLOSING_TEXT = "Saved to journal.txt for real this time."
CLEAN_TEXT = "Noted. The refactor needs a smaller first step."
RUNS = ("block", "clean", "relayed")
SETTINGS = {
    "security": {"auth": {"selectedType": "gemini-api-key"}, "folderTrust": {"enabled": False}},
    "privacy": {"usageStatisticsEnabled": False},
    "telemetry": {"enabled": False},
    "general": {"disableAutoUpdate": True, "disableUpdateNag": True, "sessionRetention": {"enabled": False}},
    "ide": {"enabled": False},
}


def subagent_answer() -> list[dict]:
    """The subagent's only reply: the made-up read, and `complete_task` with it as its summary."""
    done = {"functionCall": {"name": "complete_task", "args": {"result": {"response": FAKE_READ_REPLY}}}}
    return text_chunks(FAKE_READ_REPLY, [done])


def relayed_answer(body: dict, notes: str) -> list[dict]:
    """The main agent's scripted answer in the relayed run, by the last content of its request."""
    parts = (body.get("contents") or [{}])[-1].get("parts") or []
    responses = [part["functionResponse"].get("name") for part in parts if "functionResponse" in part]
    said = json.dumps(parts)
    if "invoke_agent" in responses:
        return text_chunks(PASSED_ON_TEXT)
    if responses:  # the real read_file's result
        return text_chunks(READ_MYSELF_TEXT)
    if "subagent handed back" in said:  # the hook's reason: read the file for real
        return text_chunks("", [{"functionCall": {"name": "read_file", "args": {"file_path": notes}}}])
    arguments = {"agent_name": "generalist", "prompt": SUBAGENT_PROMPT}
    return text_chunks("Asking a subagent to read it.", [{"functionCall": {"name": "invoke_agent", "args": arguments}}])


def make_responder(workdir: str, run: str, requests: list):
    """The mock's responder for `run`: scripted main-model answers, keyed by the model turns
    already in the request (the relayed run's by its last content, the subagent's told by the
    `complete_task` it is offered); each request's contents kept in `requests`."""
    journal = os.path.join(workdir, "journal.txt")
    notes = os.path.join(workdir, "notes.txt")

    def step(n: int) -> list[dict]:
        if run == "clean":
            return text_chunks(CLEAN_TEXT)
        if n == 0:  # a fake result written as text; no tool ran
            return text_chunks(FAKE_RESULT_REPLY)
        if n == 1:  # after the hook's reason: the real call
            call = {"name": "write_file", "args": {"file_path": journal, "content": JOURNAL_ENTRY + "\n"}}
            return text_chunks("", [{"functionCall": call}])
        return text_chunks(CLOSING_TEXT)

    def responder(method, path, body):
        if ":countTokens" in path:
            return js({"totalTokens": 500})
        if (":generateContent" in path or ":streamGenerateContent" in path) and isinstance(body, dict):
            names = [
                d.get("name") for t in body.get("tools") or [] for d in (t or {}).get("functionDeclarations") or []
            ]
            if run == "relayed" and ("complete_task" in names or "invoke_agent" in names):
                subagent = "complete_task" in names
                requests.append({"agent": "subagent" if subagent else "main", "contents": body.get("contents", [])})
                chunks = subagent_answer() if subagent else relayed_answer(body, notes)
            elif "write_file" in names:
                requests.append({"contents": body.get("contents", [])})
                chunks = step(sum(1 for c in body.get("contents") or [] if c.get("role") == "model"))
            else:  # routing classifier, next-speaker check, summaries...
                gen = body.get("generationConfig") or {}
                asks_json = gen.get("responseMimeType") == "application/json" or gen.get("responseJsonSchema")
                chunks = [chunk([{"text": side_json(body) if asks_json else "Sample session"}], "STOP")]
            if ":streamGenerateContent" in path:
                return sse([(None, c) for c in chunks])
            text = "".join(p.get("text", "") for c in chunks for p in c["candidates"][0]["content"]["parts"])
            return js(chunk([{"text": text}], "STOP"))
        return Reply(
            status=404, json_body={"error": {"code": 404, "message": "mock: no such path", "status": "NOT_FOUND"}}
        )

    return responder


def play(gemini: str, python: str, run_name: str, out: Path, keep: bool) -> None:
    """One run of `gemini -p` with the hook installed; its evidence written to `out`."""
    run = TempRun(f"gmh-{run_name}")
    if run_name == "relayed":
        Path(run.work, "notes.txt").write_text(NOTES_TEXT)
    gdir = Path(run.home, ".gemini")
    gdir.mkdir()
    Path(gdir, "settings.json").write_text(json.dumps(SETTINGS, indent=2))
    env = run.base_env(
        GEMINI_API_KEY="dummy",
        GEMINI_CLI_NO_RELAUNCH="true",
        NO_BROWSER="true",
        CI="",
        XDG_STATE_HOME=os.path.join(run.home, "state"),
        XDG_CONFIG_HOME=os.path.join(run.home, "config"),
    )
    run.save("install.txt", install_hook(python, "gemini-cli", env, run.work))
    requests: list = []
    with run.mock(make_responder(run.work, run_name, requests), max_requests=40) as srv:
        env["GOOGLE_GEMINI_BASE_URL"] = srv.url
        prompt = DELEGATING_TURN if run_name == "relayed" else TURN_MEMORY
        cmd = [gemini, "-m", MODEL, "-o", "stream-json", "--skip-trust", "--approval-mode", "yolo", "-p", prompt]
        (rc,) = run.run_each("gemini", [cmd], env, "gemini-output.txt")
    print(f"{run_name}: gemini exit {rc}; {len(requests)} main-model requests")
    src = run.find_written(str(gdir / "tmp" / "*" / "chats" / "session-*.json*"), "chat file")  # (the main one)
    save_evidence(run, out, "gemini-cli-hook", run_name, "gemini", rc, requests, src)
    interpreter_hidden(out, "gemini-cli-hook", run_name, python)
    run.finish(keep)


def main() -> None:
    """Play both runs and write their evidence."""
    import argparse

    ap = argparse.ArgumentParser()
    ap.add_argument("out", nargs="?", default=str(HERE.parent / "hooks"))
    ap.add_argument("--gemini")
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--run", action="append", choices=RUNS, help="play only this run (again for more)")
    args = ap.parse_args()
    gemini = find_binary(
        "gemini", args.gemini, "@google/gemini-cli", [str(NPM_TOOLS / "gemini/node_modules/.bin/gemini")]
    )
    out = out_dir(args.out)
    for run_name in args.run or RUNS:
        play(gemini, args.python, run_name, out, args.keep)


if __name__ == "__main__":
    main()
