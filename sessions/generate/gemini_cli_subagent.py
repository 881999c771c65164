#!/usr/bin/env python3
"""Generate a real Gemini CLI session that delegates to a subagent, against the scripted mock.

Usage:
    python3 sessions/generate/gemini_cli_subagent.py [OUT_DIR] [--gemini PATH] [--keep]

OUT_DIR and PATH as for gemini_cli.py (Gemini CLI 0.61.0).

What it does: in a temporary HOME, runs `gemini -p` once; the main agent calls `invoke_agent`
(the `generalist` subagent), and Gemini CLI records the subagent's chat in a file of its own,
`chats/<main session id>/<subagent session id>.jsonl`, beside the main chat
`chats/session-<time>-<id prefix>.jsonl`.  The scripted replies:
- main: a sentence and the `invoke_agent` call; after its result, the closing answer;
- subagent: (a) a fake `read_file` result written as text, no tool ran, in the reply that calls
  `complete_task` (the only way a Gemini CLI subagent ends) with its summary.
Copies both chats to OUT_DIR/gemini-cli-subagent/ (replacing what an earlier run left there) as
Gemini CLI lays them out, with the temp paths replaced by fixed placeholders.
"""

from __future__ import annotations

import glob
import os
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from gemini_cli import MODEL, answered, gemini_binary, gemini_env, gemini_home, side_answer, text_chunks
from harness import TempRun, arg_parser, out_dir
from mock_server import Reply, js
from scenario import DELEGATING_TURN, FAKE_READ_REPLY, SUBAGENT_PROMPT

SUMMARY = "notes.txt says the meeting moved to Thursday and to bring the draft."


def responder(method, path, body):
    """Route one request: the subagent's (it is offered `complete_task`), the main agent's (offered
    `invoke_agent`), a side request, a token count, or 404."""
    if ":countTokens" in path:
        return js({"totalTokens": 500})
    if (":generateContent" in path or ":streamGenerateContent" in path) and isinstance(body, dict):
        tools = {d.get("name") for t in body.get("tools") or [] for d in (t or {}).get("functionDeclarations") or []}
        replies = sum(1 for content in body.get("contents") or [] if content.get("role") == "model")
        if "complete_task" in tools:
            done = {"functionCall": {"name": "complete_task", "args": {"result": {"response": SUMMARY}}}}
            chunks = text_chunks(FAKE_READ_REPLY, [done])
        elif "invoke_agent" in tools and replies == 0:
            arguments = {"agent_name": "generalist", "prompt": SUBAGENT_PROMPT}
            chunks = text_chunks(
                "Asking a subagent to read it.", [{"functionCall": {"name": "invoke_agent", "args": arguments}}]
            )
        elif "invoke_agent" in tools:
            chunks = text_chunks("The subagent says the meeting moved to Thursday; bring the draft.")
        else:
            chunks = side_answer(body)
        return answered(path, chunks)
    return Reply(status=404, json_body={"error": {"code": 404, "message": "mock: no such path", "status": "NOT_FOUND"}})


def main() -> None:
    """Run the delegating turn through `gemini -p` and copy both chats to OUT_DIR."""
    args = arg_parser("gemini").parse_args()
    gemini = gemini_binary(args.gemini)
    run = TempRun("gm")
    chats = gemini_home(run) / "tmp" / "*" / "chats"
    with run.mock(responder, max_requests=40) as server:
        command = [gemini, "-m", MODEL, "-o", "stream-json", "--skip-trust", "--approval-mode", "yolo"]
        run.run_each("gemini", [[*command, "-p", DELEGATING_TURN]], gemini_env(run, server.url), "gemini-output.txt")
    print(f"mock log: {run.log}")
    main_chat = run.find_written(str(chats / "session-*.jsonl"), "main chat")
    out = out_dir(args.out) / "gemini-cli-subagent"
    shutil.rmtree(out, ignore_errors=True)  # (an earlier run's session, of another id)
    out.mkdir()
    run.copy_scrubbed(main_chat, out / Path(main_chat).name)
    for written in sorted(glob.glob(os.path.join(os.path.dirname(main_chat), "*", "*.jsonl"))):
        (out / Path(written).parent.name).mkdir(exist_ok=True)
        run.copy_scrubbed(written, out / Path(written).parent.name / Path(written).name)
    run.finish(args.keep)


if __name__ == "__main__":
    main()
