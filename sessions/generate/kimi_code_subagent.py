#!/usr/bin/env python3
"""Generate a real Kimi Code session that delegates to a subagent, against the scripted mock.

Usage:
    python3 sessions/generate/kimi_code_subagent.py [OUT_DIR] [--kimi PATH] [--keep]

OUT_DIR and PATH as for kimi_code.py (Kimi Code 2.1 on Node.js 22.19).

What it does: in a temporary HOME, runs `kimi -p` once; the main agent calls the `Agent` tool
(an `explore` subagent, in the foreground), and Kimi Code runs the subagent in the same process
with a wire file of its own, `agents/agent-0/wire.jsonl`, beside the main agent's
`agents/main/wire.jsonl`.  The scripted replies:
- main: a sentence and the `Agent` call; after its result, the closing answer;
- subagent: (a) a fake `Read` result written as text, no tool ran (its only reply, which Kimi Code
  hands back to the main agent as the subagent's summary).
Copies both wire files to OUT_DIR: kimi-code.subagent.wire.jsonl (the subagent's) and
kimi-code.delegating.wire.jsonl (the main agent's, holding Kimi Code's `subagent.*` records),
with the temp paths replaced by fixed placeholders.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from harness import out_dir
from kimi_code import MODEL, played
from mock_server import Reply, js
from qwen_code import answered, completion_events, tool_names
from scenario import DELEGATING_TURN, FAKE_READ_REPLY, SUBAGENT_PROMPT



def responder(method, path, body):
    """Route one request: the main agent's (it is offered `Agent`), the subagent's (offered `Read`,
    not `Agent`), a title or summary, the models list, or 404."""
    if path.rstrip("/").endswith("/models"):
        return js({"object": "list", "data": [{"id": MODEL, "object": "model", "owned_by": "mock"}]})
    if path.endswith("/chat/completions") and isinstance(body, dict):
        names = tool_names(body)
        replies = sum(1 for m in body.get("messages") or [] if m.get("role") == "assistant")
        if "Agent" in names and replies == 0:
            arguments = {"description": "Read notes.txt", "prompt": SUBAGENT_PROMPT, "subagent_type": "explore"}
            events = completion_events(
                "Asking a subagent to read it.", [("call_mock_agent", "Agent", json.dumps(arguments))]
            )
        elif "Agent" in names:
            events = completion_events("The subagent says the meeting moved to Thursday; bring the draft.")
        elif "Read" in names:
            events = completion_events(FAKE_READ_REPLY)
        else:  # a title or a summary
            events = completion_events("Notes")
        return answered(body, events)
    return Reply(status=404, json_body={"error": {"message": "mock: no such path", "type": "not_found"}})


def main() -> None:
    """Run the delegating turn through `kimi -p` and copy both agents' wire files to OUT_DIR."""
    run, sessions, args = played(lambda _work: responder, [DELEGATING_TURN])
    agents = sessions / "*" / "session_*" / "agents"
    out = out_dir(args.out)
    run.copy_scrubbed(
        run.find_written(str(agents / "agent-0" / "wire.jsonl"), "subagent wire file"),
        out / "kimi-code.subagent.wire.jsonl",
    )
    run.copy_scrubbed(
        run.find_written(str(agents / "main" / "wire.jsonl"), "main wire file"),
        out / "kimi-code.delegating.wire.jsonl",
    )
    run.finish(args.keep)


if __name__ == "__main__":
    main()
