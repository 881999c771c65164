#!/usr/bin/env python3
"""Generate a real OpenCode session database that delegates to a subagent, against the scripted mock.

Usage:
    python3 sessions/generate/opencode_subagent.py [OUT_DIR] [--opencode PATH] [--kilo] [--keep]

OUT_DIR and PATH as for opencode.py (OpenCode 1.18.33; with --kilo, Kilo CLI 7.7.7, its fork).

What it does: in a temporary HOME, runs `opencode run` once; the main agent calls the `task` tool
(the `general` subagent), and OpenCode runs the subagent as a child session of its own in the
same database, handing its answer back as the call's result.  The scripted replies:
- main: a sentence and the `task` call; after its result, a closing answer that passes on what
  the subagent said;
- subagent: (a) a fake `read` result written as text, no tool ran (its only reply).
The subagent's requests are told from the main agent's by the task it was given.  Copies the
database to OUT_DIR/opencode.subagent.db (kilo.subagent.db), the temp paths replaced by fixed
placeholders in its rows.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from harness import NPM_TOOLS, TempRun, find_binary, out_dir
from mock_server import Reply, js
from opencode import MODEL, Tool, checkpointed_copy, completion, completion_or_json, env_for, write_config
from scenario import DELEGATING_TURN, FAKE_READ_REPLY, NOTES_TEXT, PASSED_ON_TEXT, SUBAGENT_PROMPT



def responder(method, path, body):
    """The subagent's requests by its task, the main agent's by the tool results it holds."""
    if path.rstrip("/").endswith("/models"):
        return js({"object": "list", "data": [{"id": MODEL, "object": "model"}]})
    if path.endswith("/chat/completions") and isinstance(body, dict):
        if not body.get("tools"):  # a side request (the session's title)
            return completion_or_json(completion("Notes read by a subagent"), body)
        messages = body.get("messages") or []
        said = json.dumps(messages)
        if DELEGATING_TURN not in said:
            reply = completion(FAKE_READ_REPLY)
        elif any(isinstance(m, dict) and m.get("role") == "tool" for m in messages):
            reply = completion(PASSED_ON_TEXT)
        else:
            arguments = {"description": "Read notes.txt", "prompt": SUBAGENT_PROMPT, "subagent_type": "general"}
            reply = completion("Asking a subagent to read it.", [("call_mock_delegate", "task", json.dumps(arguments))])
        return completion_or_json(reply, body)
    return Reply(status=404, json_body={"error": {"message": "mock: no such path"}})


def main() -> None:
    """Run the delegating turn through `opencode run` and copy the database to OUT_DIR."""
    parser = argparse.ArgumentParser()
    parser.add_argument("out", nargs="?", default=str(HERE.parent))
    parser.add_argument("--opencode", help="the opencode (or kilo) binary")
    parser.add_argument("--kilo", action="store_true", help="run Kilo CLI (@kilocode/cli) instead")
    parser.add_argument("--keep", action="store_true", help="keep the temp folders")
    args = parser.parse_args()
    tool = Tool(kilo=args.kilo)
    binary = find_binary(
        tool.name, args.opencode, tool.package, [str(NPM_TOOLS / tool.name / "node_modules" / ".bin" / tool.name)]
    )
    out = out_dir(args.out)
    run = TempRun("os" if tool.name == "opencode" else "ks")
    written = out / f"{tool.name}.subagent.db"
    Path(run.work, "notes.txt").write_text(NOTES_TEXT)
    with run.mock(responder, max_requests=40) as srv:
        write_config(run, tool, srv.url)
        run.run_each(tool.name, [[binary, "run", DELEGATING_TURN]], env_for(run), f"{tool.name}-output.txt")
    src = Path(run.home, tool.data, tool.database)
    checkpointed_copy(src, written, run)
    print(f"wrote {written} from {src}")
    run.finish(args.keep)


if __name__ == "__main__":
    main()
