#!/usr/bin/env python3
"""Generate a real Claude Code session that delegates to a subagent, against the scripted mock.

Usage:
    python3 sessions/generate/claude_code_subagent.py [OUT_DIR] [--claude PATH] [--keep]

OUT_DIR and PATH as for claude_code.py (Claude Code 2.1.332).

What it does: in a temporary HOME, runs `claude -p` once; the main agent calls the `Agent` tool
(a `general-purpose` subagent), and Claude Code keeps the subagent's transcript in a file of its
own, `<session>/subagents/agent-<id>.jsonl` (with `agent-<id>.meta.json` beside it), next to the
main session's `<session>.jsonl`.  The scripted replies:
- main: a sentence and the `Agent` call; after its result, the closing answer;
- subagent: (a) a fake `Read` result written as text, no tool ran (its only reply, which Claude
  Code hands back to the main agent as the `Agent` call's result).
Copies the three files to OUT_DIR/claude-code-subagent/ (or `--folder`; replacing what an earlier
run left there) as Claude Code lays them out (`<session>.jsonl`, `<session>/subagents/agent-<id>.jsonl`
and its `.meta.json`), with the temp paths replaced by fixed placeholders. Releases before 2.1
(2.0.77 run so, its delegating tool named `Task`) keep each subagent's transcript, and each warm-up
agent's, beside the session instead (`agent-<id>.jsonl`): those are copied beside it.
"""

from __future__ import annotations

import glob
import json
import os
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from claude_code import (
    claude_binary,
    claude_env,
    first_text,
    message_events,
    run_turns,
    text_block_events,
    tool_block_events,
)
from harness import TempRun, arg_parser, out_dir
from mock_server import Reply, js, sse
from scenario import DELEGATING_TURN, FAKE_READ_REPLY, SUBAGENT_PROMPT

MODEL = "claude-sonnet-4-5"


def responder(method, path, body):
    """Route one request: the subagent's (its first message is the prompt the main agent gave it;
    it is offered `Agent` too, so that is not what tells them apart), the main agent's (offered
    `Agent`, or `Task` as releases before 2.1 name it), a token count, a title or side request, or 404."""
    if path.startswith("/v1/messages/count_tokens"):
        return js({"input_tokens": 1000})
    if path.startswith("/v1/messages") and isinstance(body, dict):
        tools = {tool.get("name") for tool in body.get("tools") or [] if isinstance(tool, dict)}
        replies = sum(1 for message in body.get("messages") or [] if message.get("role") == "assistant")
        model = body.get("model", MODEL)
        if SUBAGENT_PROMPT in first_text(body):
            return sse(message_events("msg_mock_sub_0", model, [text_block_events(0, FAKE_READ_REPLY)], "end_turn"))
        delegate = next((name for name in ("Agent", "Task") if name in tools), None)
        if delegate and replies == 0:
            arguments = {"description": "Read notes.txt", "prompt": SUBAGENT_PROMPT, "subagent_type": "general-purpose"}
            blocks = [
                text_block_events(0, "Asking a subagent to read it."),
                tool_block_events(1, "toolu_mock_agent", delegate, [json.dumps(arguments)]),
            ]
            return sse(message_events("msg_mock_main_0", model, blocks, "tool_use"))
        if delegate:
            closing = "The subagent says the meeting moved to Thursday; bring the draft."
            return sse(message_events("msg_mock_main_1", model, [text_block_events(0, closing)], "end_turn"))
        return js(  # a title or another side request, answered whole
            {
                "id": "msg_mock_side",
                "type": "message",
                "role": "assistant",
                "model": model,
                "content": [{"type": "text", "text": "Notes"}],
                "stop_reason": "end_turn",
                "stop_sequence": None,
                "usage": {"input_tokens": 1, "output_tokens": 1},
            }
        )
    return Reply(status=404, json_body={"type": "error", "error": {"type": "not_found_error", "message": "mock"}})


def main() -> None:
    """Run the delegating turn through `claude -p` and copy the session and its subagent's files."""
    parser = arg_parser("claude")
    parser.add_argument("--folder", default="claude-code-subagent", help="the folder of OUT_DIR the files go to")
    args = parser.parse_args()
    claude = claude_binary(args.claude)
    run = TempRun("cc")
    with run.mock(responder, max_requests=40) as server:
        env = claude_env(run, server.url)
        command = [claude, "-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose"]
        command += ["--model", MODEL, "--allowedTools", "Read", "Agent", "Task", "--max-turns", "6"]
        code, stdout, stderr = run_turns(command, run.work, env, [DELEGATING_TURN], timeout=120)
    run.save("stdout.jsonl", stdout)
    run.save("stderr.txt", stderr)
    print(f"claude exit {code}; mock log: {run.log}")
    projects = os.path.join(run.home, ".claude", "projects", "*")
    main_file = run.find_written(os.path.join(projects, "?" * 36 + ".jsonl"), "session file")  # (named by a UUID)
    session = Path(main_file).stem
    out = out_dir(args.out) / args.folder
    shutil.rmtree(out, ignore_errors=True)  # (an earlier run's session, of another id)
    out.mkdir()
    run.copy_scrubbed(main_file, out / f"{session}.jsonl")
    # 2.1 keeps the subagents' transcripts in <session>/subagents/, 2.0 beside the session (its
    # warm-up agents' too), each naming the session in its `sessionId`
    for written in sorted(glob.glob(os.path.join(projects, session, "subagents", "agent-*"))):
        (out / session / "subagents").mkdir(parents=True, exist_ok=True)
        run.copy_scrubbed(written, out / session / "subagents" / Path(written).name)
    for written in sorted(glob.glob(os.path.join(projects, "agent-*.jsonl"))):
        run.copy_scrubbed(written, out / Path(written).name)
    run.finish(args.keep)


if __name__ == "__main__":
    main()
