#!/usr/bin/env python3
"""Generate a real Qwen Code chat that delegates to a subagent, against the scripted mock.

Usage:
    python3 sessions/generate/qwen_code_subagent.py [OUT_DIR] [--qwen PATH] [--keep]

OUT_DIR and PATH as for qwen_code.py (Qwen Code 0.24.4).

What it does: in a temporary HOME, runs `qwen -p` once; the main agent calls the tool that starts
a subagent (`agent`, the `general-purpose` subagent, found among the tools the request offers),
and Qwen Code runs the subagent in the same process, writing its records into the same chat
file, marked `isSidechain`.  The scripted replies:
- main: a sentence and the call that starts the subagent; after its result, a closing answer
  that passes on what the subagent said;
- subagent: (a) a fake `read_file` result written as text, no tool ran (its only reply).
Qwen Code 0.24.4 runs the subagent in the background: the call's result says so, the main agent
answers, and the subagent's answer comes back as a user message `<task-notification>` (its
`<result>` escaped as XML text, `<tool_uses>0</tool_uses>`), which the main agent passes on.
The subagent's own records go to `subagents/<session id>/agent-<id>.jsonl` beside `chats/`.
Copies both, as Qwen Code lays them out under its project's folder, to
OUT_DIR/qwen-code-subagent/ (replacing what an earlier run left there), with the temp paths
replaced by fixed placeholders.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from harness import NPM_TOOLS, TempRun, arg_parser, find_binary, out_dir
from mock_server import Reply, js
from qwen_code import MODEL, answered, completion_events, qwen_command, qwen_env, qwen_home, tool_names
from scenario import DELEGATING_TURN, FAKE_READ_REPLY, PASSED_ON_TEXT, SUBAGENT_PROMPT

DELEGATING_TOOLS = ("agent", "task")  # the tool that starts a subagent, by the names Qwen Code has given it
SUBAGENT_SYSTEM = "You are a general-purpose subagent"  # how the subagent's system prompt opens


def make_responder(state: dict):
    """The mock's responder: the subagent's requests are told by their system prompt, the main
    agent's offer the tool that starts a subagent; records the tools each offered in `state`."""

    def responder(method, path, body):
        if path.rstrip("/").endswith("/models"):
            return js({"object": "list", "data": [{"id": MODEL, "object": "model", "owned_by": "mock"}]})
        if path.endswith("/chat/completions") and isinstance(body, dict):
            tools = tool_names(body)
            messages = body.get("messages") or []
            system = str(messages[0].get("content")) if messages and messages[0].get("role") == "system" else ""
            delegating = next((name for name in DELEGATING_TOOLS if name in tools), None)
            replies = sum(1 for m in messages if m.get("role") == "assistant")
            if SUBAGENT_SYSTEM in system:
                state.setdefault("subagent tools", tools)
                events = completion_events(FAKE_READ_REPLY)
            elif delegating is not None:
                state.setdefault("main tools", tools)
                if replies == 0:
                    arguments = {"description": "Read notes.txt", "prompt": SUBAGENT_PROMPT}
                    if "subagent_type" in tools[delegating]:
                        arguments["subagent_type"] = "general-purpose"
                    call = ("call_mock_delegate", delegating, json.dumps(arguments))
                    events = completion_events("Asking a subagent to read it.", [call])
                else:
                    events = completion_events(PASSED_ON_TEXT)
            else:  # title, next speaker, summaries...
                events = completion_events('{"next_speaker": "user", "reasoning": "done", "title": "Notes"}')
            return answered(body, events)
        return Reply(status=404, json_body={"error": {"message": "mock: no such path", "type": "not_found"}})

    return responder


def main() -> None:
    """Run the delegating turn through `qwen -p` and copy the chat to OUT_DIR."""
    args = arg_parser("qwen").parse_args()
    qwen = find_binary("qwen", args.qwen, "@qwen-code/qwen-code", [str(NPM_TOOLS / "qwen/node_modules/.bin/qwen")])
    out = out_dir(args.out)
    run = TempRun("qs")
    qdir = qwen_home(run)
    state: dict = {}
    with run.mock(make_responder(state), max_requests=40) as srv:
        run.run_each("qwen", [qwen_command(qwen) + ["-p", DELEGATING_TURN]], qwen_env(run, srv.url), "qwen-output.txt")
        chat = Path(run.find_written(str(qdir / "projects" / "*" / "chats" / "*.jsonl"), "chat file"))
    print(f"mock log: {run.log}")
    print("tools offered:", json.dumps({who: sorted(tools) for who, tools in state.items()}))
    project, target = chat.parent.parent, out / "qwen-code-subagent"
    shutil.rmtree(target, ignore_errors=True)
    for written in sorted([chat, *project.glob(f"subagents/{chat.stem}/*")]):
        copy = target / written.relative_to(project)
        copy.parent.mkdir(parents=True, exist_ok=True)
        run.copy_scrubbed(str(written), copy)
    run.finish(args.keep)


if __name__ == "__main__":
    main()
