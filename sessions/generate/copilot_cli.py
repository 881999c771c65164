#!/usr/bin/env python3
"""Generate a real GitHub Copilot CLI session (events.jsonl) against a scripted Chat Completions mock.

Usage:
    python3 sessions/generate/copilot_cli.py [OUT_DIR] [--copilot PATH] [--keep]
    python3 sessions/generate/copilot_cli.py [OUT_DIR] --resume-repaired FILE [--copilot PATH] [--keep]

OUT_DIR defaults to sessions/.  PATH defaults to $COPILOT_BIN, else the platform package's
binary under $NPM_TOOLS/copilot (see harness.NPM_TOOLS), else `copilot` on $PATH.

What it does: runs the Copilot CLI in bring-your-own-key mode, offline
(`COPILOT_OFFLINE=true`, `COPILOT_PROVIDER_BASE_URL` pointing at mock_server.py, which
streams OpenAI Chat Completions), with a temporary HOME and working folder holding
notes.txt: `copilot -p TURN --allow-all-tools` for the first user turn and
`--continue` for the next ones (one session), then copies
`~/.copilot/session-state/<id>/events.jsonl` to OUT_DIR/copilot-cli.events.jsonl with the
temp paths replaced by fixed placeholders (see README.md).

With ``--resume-repaired FILE`` it proves the CLI loads a repaired session: FILE (what
`inspector fix sessions/copilot-cli.events.jsonl --accept all -o FILE` wrote, placeholders
in it) is put back in a fresh temporary HOME as a session of its own, the CLI resumes it
(`--resume <id>`) for one more user turn, the script checks that the history the CLI sent
the model is the repaired one (no fake result, the recovered call answered "not
executed"), and the session as the CLI then wrote it is copied to
OUT_DIR/copilot-cli.resumed.events.jsonl.
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
BINARY = NPM_TOOLS / "copilot/node_modules/@github/copilot-linux-x64/copilot"

USER_TURNS = user_turns("Use the real view tool on notes.txt, then run echo hi with bash.")
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
            return chat_completion_sse(MODEL, rid, hermes_reply("view", {"path": notes}))
        if n == 2:  # (c) a real call whose arguments are cut off
            return chat_completion_sse(
                MODEL, rid, READING_TEXT, (("call_mock_broken_cut", "view", '{"path": ' + json.dumps(notes)),)
            )
        if n == 3:  # (c2) extra closing braces
            args = '{"command": "echo hi", "description": "Print hi"}}}}'
            return chat_completion_sse(MODEL, rid, "", (("call_mock_broken_braces", "bash", args),))
        if n == 4:  # (d) a good call, really run
            args = json.dumps({"path": notes})
            return chat_completion_sse(MODEL, rid, RETRY_TEXT, (("call_mock_good_view", "view", args),))
        if n == 5:  # (d2) a second good call
            args = json.dumps({"command": "echo hi", "description": "Print hi"})
            return chat_completion_sse(MODEL, rid, "", (("call_mock_good_bash", "bash", args),))
        if n == 6:
            return chat_completion_sse(MODEL, rid, FINAL_TEXT)
        return chat_completion_sse(MODEL, rid, "Yes: the notes say the meeting moved to Thursday.")

    return chat_completions_responder(MODEL, "view", state, step)


def copilot_env(run: TempRun, url: str) -> dict[str, str]:
    """The CLI's environment: bring-your-own-key against the mock, offline, no update, no telemetry."""
    return run.base_env(
        COPILOT_PROVIDER_BASE_URL=f"{url}/v1",
        COPILOT_PROVIDER_TYPE="openai",
        COPILOT_PROVIDER_API_KEY="dummy",
        COPILOT_PROVIDER_MODEL_ID=MODEL,
        COPILOT_MODEL=MODEL,
        COPILOT_OFFLINE="true",
        COPILOT_AUTO_UPDATE="false",
        NO_COLOR="1",
    )


def generate(copilot: str, out: Path, keep: bool) -> None:
    """The three scenario turns in one session, copied to OUT/copilot-cli.events.jsonl."""
    run = TempRun("cp")
    state: dict = {}
    with run.mock(make_responder(run.work, state), max_requests=40) as srv:
        flags = ["--allow-all-tools", "--disable-client-telemetry", "--stream", "on"]
        cmds = [[copilot] + (["--continue"] if i else []) + flags + ["-p", turn] for i, turn in enumerate(USER_TURNS)]
        run.run_each("copilot", cmds, copilot_env(run, srv.url), "copilot-output.txt")
    print(f"tools offered: {state.get('tools')}; mock log: {run.log}")
    src = run.find_written(str(Path(run.home, ".copilot/session-state/*/events.jsonl")), "events file")
    run.copy_scrubbed(src, out / "copilot-cli.events.jsonl")
    run.finish(keep)


def resume_repaired(copilot: str, repaired: Path, out: Path, keep: bool) -> None:
    """Resume a repaired events.jsonl with the real CLI; copy what it wrote to OUT."""
    run = TempRun("cp")
    text = run.unscrub(repaired.read_text())
    session_id = json.loads(text.splitlines()[0])["data"]["sessionId"]
    folder = Path(run.home, ".copilot/session-state", session_id)
    folder.mkdir(parents=True)
    Path(folder, "events.jsonl").write_text(text)
    state: dict = {}
    with run.mock(make_responder(run.work, state), max_requests=10) as srv:
        cmd = [copilot, "--resume", session_id, "--allow-all-tools", "--disable-client-telemetry", "-p", RESUMED_TURN]
        run.run_each("copilot", [cmd], copilot_env(run, srv.url), "copilot-output.txt")
    bodies = [json.loads(line)["body"] for line in Path(run.home, "bodies.jsonl").read_text().splitlines()]
    sent = [b for b in bodies if isinstance(b, dict) and b.get("messages")]
    if not sent:
        sys.exit("the CLI sent no request: it did not resume the repaired session")
    history = json.dumps(sent[-1]["messages"])
    if "{success: true" in history or "not executed" not in history:
        sys.exit("the CLI resumed, but the history it sent is not the repaired one")
    print(f"resumed request: {len(sent[-1]['messages'])} messages sent to the model, the repaired history")
    run.copy_scrubbed(str(folder / "events.jsonl"), out / "copilot-cli.resumed.events.jsonl")
    run.finish(keep)


def main() -> None:
    """Generate the session, or with --resume-repaired resume a repaired one."""
    ap = arg_parser("copilot")
    ap.add_argument("--resume-repaired", help="an events.jsonl the inspector repaired, to resume")
    args = ap.parse_args()
    copilot = find_binary("copilot", args.copilot, "@github/copilot", [str(BINARY)])
    out = out_dir(args.out)
    if args.resume_repaired:
        resume_repaired(copilot, Path(args.resume_repaired), out, args.keep)
    else:
        generate(copilot, out, args.keep)


if __name__ == "__main__":
    main()
