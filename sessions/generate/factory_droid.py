#!/usr/bin/env python3
"""Generate a real Factory Droid session (<uuid>.jsonl) against a scripted Chat Completions mock.

Usage:
    python3 sessions/generate/factory_droid.py [OUT_DIR] [--droid PATH] [--keep]
    python3 sessions/generate/factory_droid.py [OUT_DIR] --resume-repaired FILE [--droid PATH] [--keep]

OUT_DIR defaults to sessions/.  PATH defaults to $DROID_BIN, else the platform package's
binary under $NPM_TOOLS/droid (see harness.NPM_TOOLS), else `droid` on $PATH.

What it does: writes a bring-your-own-key custom model into the temporary HOME's
`~/.factory/settings.json` (`customModels`, provider `generic-chat-completion-api`, its
`baseUrl` the mock, which streams OpenAI Chat Completions), then runs
`droid exec -m custom:Mock-0 --auto low TURN` for the first user turn and
`droid exec --session-id <id> ...` for the next ones (one session), and copies
`~/.factory/sessions/<cwd slug>/<id>.jsonl` to OUT_DIR/factory-droid.jsonl with the temp
paths replaced by fixed placeholders.  No Factory login is needed and nothing leaves the
machine but requests to the mock.

With ``--resume-repaired FILE`` (what `inspector fix sessions/factory-droid.jsonl --accept
all -o FILE` wrote) it puts FILE back in a fresh temporary HOME as a session of its own,
resumes it with `droid exec --session-id <id>` and one more user turn, checks that the
history Droid sent the model is the repaired one (no fake result, the recovered call
answered "not executed"), and copies the session as Droid then wrote it to
OUT_DIR/clean.factory-droid.resumed.jsonl.
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

MODEL = "mock-model"
DISPLAY_NAME = "Mock"
MODEL_ID = f"custom:{DISPLAY_NAME}-0"  # how Droid names the first custom model
BINARY = NPM_TOOLS / "droid/node_modules/@factory/cli-linux-x64/bin/droid"

USER_TURNS = user_turns("Use the real Read tool on notes.txt, then run echo hi with Execute.")
RESUMED_TURN = "Thanks. Is the meeting still on Thursday?"
FINAL_TEXT = "notes.txt says the meeting moved to Thursday, and `echo hi` printed hi."
ECHO_ARGUMENTS = {"command": "echo hi", "summary": "Print hi", "riskLevel": "low", "riskLevelReason": "prints text"}


def make_responder(workdir: str, state: dict):
    """The mock's responder; records the tools offered in ``state``."""
    notes = str(Path(workdir, "notes.txt"))

    def step(n: int) -> Reply:
        """The scripted answer after ``n`` assistant messages in the history."""
        rid = f"chatcmpl-mock-{n:02d}"
        if n == 0:  # (a) fake tool result object as text, nothing ran
            return chat_completion_sse(MODEL, rid, FAKE_RESULT_REPLY)
        if n == 1:  # (b) Hermes markup as text, nothing ran
            return chat_completion_sse(MODEL, rid, hermes_reply("Read", {"file_path": notes}))
        if n == 2:  # (c) a real call whose arguments are cut off
            args = '{"file_path": ' + json.dumps(notes)
            return chat_completion_sse(MODEL, rid, READING_TEXT, (("call_mock_broken_cut", "Read", args),))
        if n == 3:  # (d) a good call, really run
            args = json.dumps({"file_path": notes})
            return chat_completion_sse(MODEL, rid, RETRY_TEXT, (("call_mock_good_read", "Read", args),))
        if n == 4:  # (d2) a second good call
            args = json.dumps(ECHO_ARGUMENTS)
            return chat_completion_sse(MODEL, rid, "", (("call_mock_good_execute", "Execute", args),))
        if n == 5:
            return chat_completion_sse(MODEL, rid, FINAL_TEXT)
        return chat_completion_sse(MODEL, rid, "Yes: the notes say the meeting moved to Thursday.")

    return chat_completions_responder(MODEL, "Read", state, step)


def write_settings(run: TempRun, url: str) -> None:
    """~/.factory/settings.json: the mock as the one custom model (bring your own key)."""
    model = {
        "model": MODEL,
        "displayName": DISPLAY_NAME,
        "baseUrl": f"{url}/v1",
        "apiKey": "dummy",
        "provider": "generic-chat-completion-api",
        "maxOutputTokens": 4096,
    }
    folder = Path(run.home, ".factory")
    folder.mkdir(exist_ok=True)
    Path(folder, "settings.json").write_text(json.dumps({"customModels": [model]}, indent=2))


def droid_env(run: TempRun, url: str) -> dict[str, str]:
    """Droid's environment: the temp HOME, no keyring, no colour, and the mock as Factory's API.

    `droid exec --session-id` first asks Factory's API for the session; the mock answers 404
    (no such session there) and Droid goes on with the session file on disk.
    """
    return run.base_env(FACTORY_DISABLE_KEYRING="true", FACTORY_API_BASE_URL=url, NO_COLOR="1")


def exec_command(droid: str, turn: str, session_id: str | None) -> list[str]:
    """`droid exec` for one user turn, continuing ``session_id`` when given."""
    resume = ["--session-id", session_id] if session_id else []
    return [droid, "exec", "-m", MODEL_ID, "--auto", "low", *resume, turn]


def session_files(run: TempRun) -> list[Path]:
    """The session files Droid wrote under the temp HOME."""
    return sorted(Path(run.home, ".factory/sessions").glob("*/*.jsonl"))


def generate(droid: str, out: Path, keep: bool) -> None:
    """The three scenario turns in one session, copied to OUT/factory-droid.jsonl."""
    run = TempRun("dr")
    state: dict = {}
    with run.mock(make_responder(run.work, state), max_requests=40) as srv:
        write_settings(run, srv.url)
        env = droid_env(run, srv.url)
        run.run_each("droid", [exec_command(droid, USER_TURNS[0], None)], env, "droid-output-1.txt")
        files = session_files(run)
        if len(files) != 1:
            sys.exit(f"expected one session file after the first turn, found {files}")
        cmds = [exec_command(droid, turn, files[0].stem) for turn in USER_TURNS[1:]]
        run.run_each("droid", cmds, env, "droid-output-2.txt")
    print(f"tools offered: {state.get('tools')}; mock log: {run.log}")
    run.copy_scrubbed(str(files[0]), out / "factory-droid.jsonl")
    run.finish(keep)


def resume_repaired(droid: str, repaired: Path, out: Path, keep: bool) -> None:
    """Resume a repaired session with the real CLI; copy what it wrote to OUT."""
    run = TempRun("dr")
    text = run.unscrub(repaired.read_text())
    start = json.loads(text.splitlines()[0])
    folder = Path(run.home, ".factory/sessions", "-" + start["cwd"].strip("/").replace("/", "-"))
    folder.mkdir(parents=True)
    session = Path(folder, f"{start['id']}.jsonl")
    session.write_text(text)
    state: dict = {}
    with run.mock(make_responder(run.work, state), max_requests=10) as srv:
        write_settings(run, srv.url)
        cmd = exec_command(droid, RESUMED_TURN, start["id"])
        run.run_each("droid", [cmd], droid_env(run, srv.url), "droid-output.txt")
    bodies = [json.loads(line)["body"] for line in Path(run.home, "bodies.jsonl").read_text().splitlines()]
    sent = [b for b in bodies if isinstance(b, dict) and b.get("messages")]
    if not sent:
        sys.exit("Droid sent no request: it did not resume the repaired session")
    history = json.dumps(sent[-1]["messages"])
    if "{success: true" in history or "not executed" not in history:
        sys.exit("Droid resumed, but the history it sent is not the repaired one")
    print(f"resumed request: {len(sent[-1]['messages'])} messages sent to the model, the repaired history")
    run.copy_scrubbed(str(session), out / "clean.factory-droid.resumed.jsonl")
    run.finish(keep)


def main() -> None:
    """Generate the session, or with --resume-repaired resume a repaired one."""
    ap = arg_parser("droid")
    ap.add_argument("--resume-repaired", help="a session the inspector repaired, to resume")
    args = ap.parse_args()
    droid = find_binary("droid", args.droid, "@factory/cli", [str(BINARY)])
    out = out_dir(args.out)
    if args.resume_repaired:
        resume_repaired(droid, Path(args.resume_repaired), out, args.keep)
    else:
        generate(droid, out, args.keep)


if __name__ == "__main__":
    main()
