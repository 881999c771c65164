#!/usr/bin/env python3
"""Generate a real Pi session (<timestamp>_<uuid>.jsonl) against a scripted Chat Completions mock.

Usage:
    python3 sessions/generate/pi.py [OUT_DIR] [--pi PATH] [--keep]
    python3 sessions/generate/pi.py [OUT_DIR] --resume-repaired FILE [--pi PATH] [--keep]

OUT_DIR defaults to sessions/.  PATH defaults to $PI_BIN, else
$NPM_TOOLS/pi/node_modules/.bin/pi (see harness.NPM_TOOLS), else `pi` on $PATH.

What it does: makes a temporary HOME and working folder holding notes.txt, declares the mock
as a custom provider in `~/.pi/agent/models.json` (`api: "openai-completions"`, its `baseUrl`
pointing at mock_server.py on 127.0.0.1), runs `pi --offline -p TURN` for the first user turn
and `pi --offline --continue -p TURN` for the next ones (one session), and copies
`~/.pi/agent/sessions/--<cwd>--/<timestamp>_<uuid>.jsonl` to OUT_DIR/pi.session.jsonl with the
temp paths replaced by fixed placeholders (see README.md).

With ``--resume-repaired FILE`` (what `inspector fix sessions/pi.session.jsonl --accept all -o
FILE` wrote, placeholders in it) it proves Pi loads a repaired session: FILE goes back into a
fresh temporary HOME's sessions folder, `pi --session FILE -p TURN` resumes it for one more user
turn, the script checks that the history Pi sent the model is the repaired one (no fake result,
the recovered call answered "not executed"), and the session as Pi then wrote it is copied to
OUT_DIR/pi.resumed.session.jsonl.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from harness import NPM_TOOLS, TempRun, arg_parser, find_binary, out_dir
from mock_server import Reply, chat_completion_sse, chat_completions_responder
from scenario import FAKE_RESULT_REPLY, READING_TEXT, RETRY_TEXT, hermes_reply, user_turns

PROVIDER = "mock"
MODEL = "mock-coder"
USER_TURNS = user_turns("Use the real read tool on notes.txt, then run echo hi with bash.")
RESUMED_TURN = "Thanks. Is the meeting still on Thursday?"
FINAL_TEXT = "notes.txt says the meeting moved to Thursday, and `echo hi` printed hi."


def make_responder(workdir: str, state: dict):
    """The mock's responder; records the tools offered in ``state``."""
    notes = str(Path(workdir, "notes.txt"))

    def step(n: int) -> Reply:
        """The scripted answer after ``n`` assistant messages in the history."""
        rid = f"chatcmpl-mock-{n:02d}"
        if n == 0:  # (a) fake tool result object as text, nothing ran
            return chat_completion_sse(MODEL, rid, FAKE_RESULT_REPLY)
        if n == 1:  # (b) Hermes markup as text, nothing ran
            return chat_completion_sse(MODEL, rid, hermes_reply("read", {"path": notes}))
        if n == 2:  # (c) a real call with a wrong argument name: Pi answers with a failed result
            args = json.dumps({"file": notes})
            return chat_completion_sse(MODEL, rid, READING_TEXT, (("call_mock_bad_read", "read", args),))
        if n == 3:  # (d) a good call, really run
            args = json.dumps({"path": notes})
            return chat_completion_sse(MODEL, rid, RETRY_TEXT, (("call_mock_good_read", "read", args),))
        if n == 4:  # (d2) a second good call
            args = json.dumps({"command": "echo hi"})
            return chat_completion_sse(MODEL, rid, "", (("call_mock_good_bash", "bash", args),))
        if n == 5:
            return chat_completion_sse(MODEL, rid, FINAL_TEXT)
        return chat_completion_sse(MODEL, rid, "Yes: the notes say the meeting moved to Thursday.")

    return chat_completions_responder(MODEL, "read", state, step)


def configure(run: TempRun, url: str) -> Path:
    """Write `~/.pi/agent/models.json` (the mock as an OpenAI-compatible provider); the agent folder."""
    agent = Path(run.home, ".pi", "agent")
    agent.mkdir(parents=True)
    provider = {
        "baseUrl": f"{url}/v1",
        "api": "openai-completions",
        "apiKey": "dummy",
        "compat": {"supportsDeveloperRole": False, "supportsReasoningEffort": False},
        "models": [{"id": MODEL, "reasoning": False, "input": ["text"], "contextWindow": 128000, "maxTokens": 4096}],
    }
    Path(agent, "models.json").write_text(json.dumps({"providers": {PROVIDER: provider}}, indent=2))
    Path(agent, "settings.json").write_text(json.dumps({"enableInstallTelemetry": False}))
    return agent


def pi_env(run: TempRun) -> dict[str, str]:
    """Pi's environment: the temp HOME, offline, no version check, no telemetry, no colour."""
    return run.base_env(PI_OFFLINE="1", PI_SKIP_VERSION_CHECK="1", PI_TELEMETRY="0", NO_COLOR="1")


def base_command(pi: str) -> list[str]:
    """`pi` against the mock provider, offline, with no extension, skill or context file found."""
    return [pi, "--offline", "--provider", PROVIDER, "--model", MODEL, "-ne", "-ns", "-nc"]


def generate(pi: str, out: Path, keep: bool) -> None:
    """The three scenario turns in one session, copied to OUT/pi.session.jsonl."""
    run = TempRun("pi")
    state: dict = {}
    with run.mock(make_responder(run.work, state), max_requests=40) as srv:
        agent = configure(run, srv.url)
        cmds = [base_command(pi) + (["--continue"] if i else []) + ["-p", turn] for i, turn in enumerate(USER_TURNS)]
        run.run_each("pi", cmds, pi_env(run), "pi-output.txt")
    print(f"tools offered: {state.get('tools')}; mock log: {run.log}")
    src = run.find_written(str(agent / "sessions" / "*" / "*.jsonl"), "session file")
    run.copy_scrubbed(src, out / "pi.session.jsonl")
    run.finish(keep)


def resume_repaired(pi: str, repaired: Path, out: Path, keep: bool) -> None:
    """Resume a repaired session with the real Pi; copy what it wrote to OUT."""
    run = TempRun("pi")
    text = run.unscrub(repaired.read_text())
    state: dict = {}
    with run.mock(make_responder(run.work, state), max_requests=10) as srv:
        agent = configure(run, srv.url)
        folder = Path(agent, "sessions", "resumed")
        folder.mkdir(parents=True)
        session = Path(folder, repaired.name)
        session.write_text(text)
        cmd = base_command(pi) + ["--session", str(session), "-p", RESUMED_TURN]
        run.run_each("pi", [cmd], pi_env(run), "pi-output.txt")
    bodies = [json.loads(line)["body"] for line in Path(run.home, "bodies.jsonl").read_text().splitlines()]
    sent = [b for b in bodies if isinstance(b, dict) and b.get("messages")]
    if not sent:
        sys.exit("pi sent no request: it did not resume the repaired session")
    history = json.dumps(sent[-1]["messages"])
    if "{success: true" in history or "not executed" not in history or RESUMED_TURN not in history:
        sys.exit("pi resumed, but the history it sent is not the repaired one")
    print(f"resumed request: {len(sent[-1]['messages'])} messages sent to the model, the repaired history")
    run.copy_scrubbed(str(session), out / "pi.resumed.session.jsonl")
    run.finish(keep)


def main() -> None:
    """Generate the session, or with --resume-repaired resume a repaired one."""
    ap = arg_parser("pi")
    ap.add_argument("--resume-repaired", help="a session the inspector repaired, to resume")
    args = ap.parse_args()
    pi = find_binary("pi", args.pi, "@mariozechner/pi-coding-agent", [str(NPM_TOOLS / "pi/node_modules/.bin/pi")])
    out = out_dir(args.out)
    if args.resume_repaired:
        resume_repaired(pi, Path(args.resume_repaired), out, args.keep)
    else:
        generate(pi, out, args.keep)


if __name__ == "__main__":
    main()
