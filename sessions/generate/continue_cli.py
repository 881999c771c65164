#!/usr/bin/env python3
"""Generate a real Continue CLI session (`~/.continue/sessions/<id>.json`) against a scripted Chat Completions mock.

Usage:
    python3 sessions/generate/continue_cli.py [OUT_DIR] [--cn PATH] [--keep]
    python3 sessions/generate/continue_cli.py [OUT_DIR] --resume-repaired FILE [--cn PATH] [--keep]

OUT_DIR defaults to sessions/.  PATH defaults to $CN_BIN, else
$NPM_TOOLS/continue/node_modules/.bin/cn (see harness.NPM_TOOLS), else `cn` on $PATH.

What it does: writes a `config.yaml` whose one model is `provider: openai` with `apiBase`
pointing at mock_server.py (which streams OpenAI Chat Completions), makes a temporary HOME
and working folder holding notes.txt, runs `cn --config config.yaml --auto -p TURN` for the
first user turn and with `--resume` for the next ones (one session), then copies the
session file to OUT_DIR/continue.session.json with the temp paths replaced by fixed
placeholders (see README.md).

With ``--resume-repaired FILE`` it proves the CLI loads a repaired session: FILE (what
`inspector fix sessions/continue.session.json --accept all -o FILE` wrote, placeholders in
it) is put back in a fresh temporary HOME as its only session (with its `sessions.json`
entry), `cn --resume` asks one more user turn, the script checks that the history the CLI
sent the model is the repaired one (no fake result, the recovered call answered "not
executed"), and the session as the CLI then wrote it is copied to
OUT_DIR/continue.resumed.session.json.
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

MODEL = "gpt-4.1"

USER_TURNS = user_turns("Use the real Read tool on notes.txt, then run echo hi with Bash.")
RESUMED_TURN = "Thanks. Is the meeting still on Thursday?"
FINAL_TEXT = "notes.txt says the meeting moved to Thursday, and `echo hi` printed hi."


def make_responder(state: dict):
    """The mock's responder; records the tools offered in ``state``."""

    def step(n: int) -> Reply:
        """The scripted answer after ``n`` assistant messages in the history."""
        rid = f"chatcmpl-mock-{n:02d}"
        if n == 0:  # (a) fake tool result object as text, nothing ran
            return chat_completion_sse(MODEL, rid, FAKE_RESULT_REPLY)
        if n == 1:  # (b) Hermes markup as text, nothing ran
            return chat_completion_sse(MODEL, rid, hermes_reply("Read", {"filepath": "notes.txt"}))
        if n == 2:  # (c) a real call whose arguments are cut off
            return chat_completion_sse(
                MODEL, rid, READING_TEXT, (("call_mock_broken_cut", "Read", '{"filepath": "notes.txt"'),)
            )
        if n == 3:  # (c2) extra closing braces
            return chat_completion_sse(
                MODEL, rid, "", (("call_mock_broken_braces", "Bash", '{"command": "echo hi"}}}}'),)
            )
        if n == 4:  # (d) a good call, really run
            args = json.dumps({"filepath": "notes.txt"})
            return chat_completion_sse(MODEL, rid, RETRY_TEXT, (("call_mock_good_read", "Read", args),))
        if n == 5:  # (d2) a second good call
            args = json.dumps({"command": "echo hi"})
            return chat_completion_sse(MODEL, rid, "", (("call_mock_good_bash", "Bash", args),))
        if n == 6:
            return chat_completion_sse(MODEL, rid, FINAL_TEXT)
        return chat_completion_sse(MODEL, rid, "Yes: the notes say the meeting moved to Thursday.")

    return chat_completions_responder(MODEL, "Read", state, step)


def write_config(run: TempRun, url: str) -> str:
    """The config.yaml of one OpenAI-compatible model at the mock; its path."""
    path = Path(run.home, "config.yaml")
    path.write_text(f"""name: Mock
version: 1.0.0
schema: v1
models:
  - name: mock
    provider: openai
    model: {MODEL}
    apiBase: {url}/v1
    apiKey: dummy
    roles: [chat, edit, apply]
    capabilities: [tool_use]
""")
    return str(path)


def generate(cn: str, out: Path, keep: bool) -> None:
    """The three scenario turns in one session, copied to OUT/continue.session.json."""
    run = TempRun("cn")
    state: dict = {}
    with run.mock(make_responder(state), max_requests=40) as srv:
        config = write_config(run, srv.url)
        cmds = [
            [cn, "--config", config, "--auto"] + (["--resume"] if i else []) + ["-p", turn]
            for i, turn in enumerate(USER_TURNS)
        ]
        run.run_each("cn", cmds, run.base_env(), "cn-output.txt")
    print(f"tools offered: {state.get('tools')}; mock log: {run.log}")
    sessions = Path(run.home, ".continue/sessions")
    src = run.find_written(str(sessions / "*-*.json"), "session file")
    run.copy_scrubbed(src, out / "continue.session.json")
    run.finish(keep)


def resume_repaired(cn: str, repaired: Path, out: Path, keep: bool) -> None:
    """Resume a repaired session with the real CLI; copy what it wrote to OUT."""
    run = TempRun("cn")
    text = run.unscrub(repaired.read_text())
    session = json.loads(text)
    folder = Path(run.home, ".continue/sessions")
    folder.mkdir(parents=True)
    Path(folder, f"{session['sessionId']}.json").write_text(text)
    entry = {
        "sessionId": session["sessionId"],
        "title": session.get("title"),
        "dateCreated": "1795834379268",
        "workspaceDirectory": session.get("workspaceDirectory"),
        "messageCount": len(session["history"]),
    }
    Path(folder, "sessions.json").write_text(json.dumps([entry], indent=2))
    state: dict = {}
    with run.mock(make_responder(state), max_requests=10) as srv:
        cmd = [cn, "--config", write_config(run, srv.url), "--auto", "--resume", "-p", RESUMED_TURN]
        run.run_each("cn", [cmd], run.base_env(), "cn-output.txt")
    bodies = [json.loads(line)["body"] for line in Path(run.home, "bodies.jsonl").read_text().splitlines()]
    sent = [b for b in bodies if isinstance(b, dict) and b.get("messages")]
    if not sent:
        sys.exit("the CLI sent no request: it did not resume the repaired session")
    history = json.dumps(sent[-1]["messages"])
    if "{success: true" in history or "not executed" not in history:
        sys.exit("the CLI resumed, but the history it sent is not the repaired one")
    print(f"resumed request: {len(sent[-1]['messages'])} messages sent to the model, the repaired history")
    run.copy_scrubbed(str(folder / f"{session['sessionId']}.json"), out / "continue.resumed.session.json")
    run.finish(keep)


def main() -> None:
    """Generate the session, or with --resume-repaired resume a repaired one."""
    ap = arg_parser("cn")
    ap.add_argument("--resume-repaired", help="a session file the inspector repaired, to resume")
    args = ap.parse_args()
    cn = find_binary("cn", args.cn, "@continuedev/cli", [str(NPM_TOOLS / "continue/node_modules/.bin/cn")])
    out = out_dir(args.out)
    if args.resume_repaired:
        resume_repaired(cn, Path(args.resume_repaired), out, args.keep)
    else:
        generate(cn, out, args.keep)


if __name__ == "__main__":
    main()
