"""Write `sessions/mini-swe-agent.traj.json` with mini-swe-agent 2.4.6 (`mini`) against the mock.

Run it with any Python 3.11 (standard library only); it runs `mini` from its own venv:

    python3 sessions/generate/mini_swe_agent.py [OUT_DIR] [--mini PATH] [--keep]

`mini -t TASK --yolo --exit-immediately` runs one task in the working folder, with litellm's
OpenAI provider pointed at the mock (`OPENAI_API_BASE`, a dummy key, model `openai/mock`). It
saves its trajectory where it does by default, `$HOME/.config/mini-swe-agent/last_mini_run.traj.json`,
which the script copies out. mini 2.x calls its one tool, `bash {command}`, as a native tool call;
a reply without a call, or whose call does not parse, is a format error: mini drops the reply
from the conversation and adds a user message saying what was wrong (the reply is kept in that
message's `extra.response`), and three in a row end the run, so the good call comes third.

The scripted replies, one a step (`step_of` counts them from the request's history):
0. (a) an observation written by the model itself: `{"returncode": 0, "output": …}` and prose;
1. (b) Hermes `<tool_call>` markup naming `bash`, printed as text;
2. (d) a good call, `cat notes.txt`;
3. (c) a call whose arguments are cut off; 4. (c2) one with extra closing braces;
5. (d2) a good call, `echo hi`; 6. the command that submits, which ends the run.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from chat_completions import completion, tool_call
from harness import TOOLS, TempRun, arg_parser, find_binary, out_dir
from mock_server import Reply
from scenario import NOTES_TEXT, READING_TEXT, RETRY_TEXT, TURN_READ, hermes_reply

VERSION = "2.4.6"
FAKE_OBSERVATION = (
    json.dumps({"returncode": 0, "output": NOTES_TEXT})
    + "The notes say the meeting moved to Thursday and that you should bring the draft."
)


def step_of(body: Any) -> int:
    """Which step the request is for: each step adds one assistant reply or one format error."""
    messages = body.get("messages") or [] if isinstance(body, dict) else []
    return sum(1 for m in messages[2:] if isinstance(m, dict) and m.get("role") in ("assistant", "user"))


def bash(call_id: str, arguments: str) -> list[dict[str, Any]]:
    """One call of mini's `bash` tool with `arguments` sent as written."""
    return [tool_call(call_id, "bash", arguments)]


def responder(method: str, path: str, body: Any) -> Reply:
    """The scripted model: the reply for the request's step."""
    if method != "POST" or not path.endswith("/chat/completions"):
        return completion("ok")
    script = [
        lambda: completion(FAKE_OBSERVATION),
        lambda: completion(hermes_reply("bash", {"command": "cat notes.txt"})),
        lambda: completion(READING_TEXT, bash("call_mock_good", '{"command": "cat notes.txt"}')),
        lambda: completion("Now the greeting.", bash("call_mock_broken_cut", '{"command": "echo hi"')),
        lambda: completion("Trying again.", bash("call_mock_broken_braces", '{"command": "echo hi"}}}}')),
        lambda: completion(RETRY_TEXT, bash("call_mock_good_echo", '{"command": "echo hi"}')),
        lambda: completion(
            "Done.", bash("call_mock_submit", '{"command": "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT"}')
        ),
    ]
    step = step_of(body)
    return script[step]() if step < len(script) else completion("Nothing more to do.")


def main() -> None:
    """Run the task once and copy the trajectory out, its temporary paths scrubbed."""
    args = arg_parser("mini").parse_args()
    venv = Path(os.environ.get("MINI_VENV") or TOOLS / "mini-swe-agent-venv")
    binary = find_binary("mini", args.mini, f"mini-swe-agent=={VERSION}", [str(venv / "bin" / "mini")])
    out = out_dir(args.out)
    run = TempRun("ms")
    with run.mock(responder, max_requests=20) as server:
        env = run.base_env(
            OPENAI_API_BASE=f"{server.url}/v1",
            OPENAI_API_KEY="dummy",
            MSWEA_CONFIGURED="true",
            MSWEA_COST_TRACKING="ignore_errors",
            LITELLM_LOCAL_MODEL_COST_MAP="True",
        )
        command = [binary, "-m", "openai/mock", "-t", TURN_READ, "--yolo", "--exit-immediately"]
        run.run_each("mini", [command], env, "mini-output.txt")
    written = run.find_written(f"{run.home}/.config/mini-swe-agent/*.traj.json", "trajectory")
    run.copy_scrubbed(written, out / "mini-swe-agent.traj.json")
    run.finish(args.keep)


if __name__ == "__main__":
    main()
