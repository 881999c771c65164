#!/usr/bin/env python3
"""Generate a real GitHub Copilot CLI session in its older store (`history-session-state/*.json`).

Usage:
    python3 sessions/generate/copilot_cli_history.py [OUT_DIR] [--copilot PATH] [--keep]
    python3 sessions/generate/copilot_cli_history.py [OUT_DIR] --resume-repaired FILE [--copilot PATH] [--keep]

OUT_DIR defaults to sessions/.  PATH is the package's `index.js`, default
$NPM_TOOLS/copilot-0.0.340/package/index.js (see harness.NPM_TOOLS), run with `node`.

Copilot CLI before 0.0.342 kept each session as one JSON object in
`~/.copilot/history-session-state/session_<id>_<ms>.json` (`sessionId`, `startTime`,
`chatMessages` in the Chat Completions shape, `timeline`); later versions write
`session-state/<id>/events.jsonl` instead (`copilot_cli.py`). This script runs 0.0.340, the
last such release on npm, offline with a temporary HOME and working folder holding notes.txt:
`copilot -p TURN --allow-all-tools --model gpt-5` for the first user turn and `--continue`
for the next ones (one session).

0.0.340 has no setting for the model's address: it asks `https://api.githubcopilot.com`
(`/models`, then `/chat/completions`, not streamed), with a Copilot HMAC key
(`CAPI_HMAC_KEY`) standing in for a signed-in account. A preload script given through
`NODE_OPTIONS` hands the CLI's TLS connections to that host a plain connection to
mock_server.py instead; nothing else of the CLI is touched. The session file is copied to
OUT_DIR/copilot-cli.history.json with the temp paths replaced by fixed placeholders.

With ``--resume-repaired FILE`` it proves the CLI loads a repaired session: FILE (what
`inspector fix sessions/copilot-cli.history.json --accept all -o FILE` wrote, placeholders in
it) is put back in a fresh temporary HOME under the name the CLI gives it
(`session_<sessionId>_<startTime in ms>.json`), the CLI resumes it (`--resume <id>`) for one
more user turn, the script checks that the history the CLI sent the model is the repaired one
(no fake result, the recovered call answered "not executed"), and the session as the CLI then
wrote it is copied to OUT_DIR/clean.copilot-cli.history.resumed.json.
"""

from __future__ import annotations

import json
import sys
from datetime import datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from chat_completions import completion, replies_so_far, tool_call  # noqa: E402
from harness import NPM_TOOLS, TempRun, arg_parser, out_dir  # noqa: E402
from mock_server import Reply, js  # noqa: E402
from scenario import FAKE_RESULT_REPLY, READING_TEXT, hermes_reply, user_turns  # noqa: E402

MODEL = "gpt-5"
PACKAGE = NPM_TOOLS / "copilot-0.0.340/package/index.js"
USER_TURNS = user_turns("Use the real str_replace_editor tool on notes.txt, then run echo hi with bash.")
RESUMED_TURN = "Thanks. Is the meeting still on Thursday?"
FINAL_TEXT = "notes.txt says the meeting moved to Thursday, and `echo hi` printed hi."

# Given to node with --require: a TLS connection to the Copilot API becomes a plain one to the mock.
PRELOAD = """const tls = require("tls");
const net = require("net");
const mock = new URL(process.env.COPILOT_MOCK_URL);
const connect = tls.connect;
tls.connect = function (...args) {
  const options = typeof args[0] === "object" ? args[0] : {};
  if ((options.servername || options.host) !== "api.githubcopilot.com") return connect.apply(this, args);
  const socket = net.connect({ host: mock.hostname, port: Number(mock.port) });
  const callback = args.find((arg) => typeof arg === "function");
  if (callback) socket.once("connect", callback);
  socket.once("connect", () => socket.emit("secureConnect"));
  return socket;
};
"""

MODELS = {
    "data": [
        {
            "id": MODEL,
            "object": "model",
            "name": "GPT-5",
            "vendor": "openai",
            "version": MODEL,
            "model_picker_enabled": True,
            "policy": {"state": "enabled"},
            "capabilities": {
                "type": "chat",
                "family": MODEL,
                "supports": {"tool_calls": True, "streaming": True},
                "limits": {"max_prompt_tokens": 100000, "max_context_window_tokens": 128000},
            },
        }
    ]
}


def make_responder(workdir: str, state: dict):
    """The mock's responder; records the tools offered in ``state``."""
    notes = str(Path(workdir, "notes.txt"))

    def step(n: int) -> Reply:
        """The scripted answer after ``n`` assistant messages in the history."""
        if n == 0:  # (a) fake tool result object as text, nothing ran
            return completion(FAKE_RESULT_REPLY, model=MODEL)
        if n == 1:  # (b) Hermes markup as text, nothing ran
            return completion(hermes_reply("str_replace_editor", {"command": "view", "path": notes}), model=MODEL)
        if n == 2:  # (d) a good call, really run
            args = json.dumps({"command": "view", "path": notes})
            return completion(READING_TEXT, [tool_call("call_mock_good_view", "str_replace_editor", args)], MODEL)
        if n == 3:  # (d2) a second good call
            args = json.dumps({"command": "echo hi", "description": "Print hi", "sessionId": "main", "async": False})
            return completion("", [tool_call("call_mock_good_bash", "bash", args)], MODEL)
        if n == 4:
            return completion(FINAL_TEXT, model=MODEL)
        return completion("Yes: the notes say the meeting moved to Thursday.", model=MODEL)

    def responder(method, path, body):
        """Route one request: /models, /chat/completions, or 404."""
        if path.rstrip("/").endswith("/models"):
            return js(MODELS)
        if path.endswith("/chat/completions") and isinstance(body, dict):
            tools = [(t.get("function") or {}).get("name") for t in body.get("tools") or [] if isinstance(t, dict)]
            if "bash" not in tools:  # a side request (a title, a summary): a short text
                return completion("Sample session", model=MODEL)
            state.setdefault("tools", tools)
            return step(replies_so_far(body))
        return Reply(status=404, json_body={"error": {"message": "mock: no such path"}})

    return responder


def copilot_env(run: TempRun, url: str) -> dict[str, str]:
    """The CLI's environment: its Copilot API connections handed to the mock, an HMAC key for the login."""
    preload = Path(run.home, "copilot-api-to-mock.cjs")
    preload.write_text(PRELOAD)
    return run.base_env(COPILOT_MOCK_URL=url, NODE_OPTIONS=f"--require {preload}", CAPI_HMAC_KEY="dummy", NO_COLOR="1")


FLAGS = ["--allow-all-tools", "--model", MODEL, "--no-color"]


def generate(package: str, out: Path, keep: bool) -> None:
    """The three scenario turns in one session, copied to OUT/copilot-cli.history.json."""
    run = TempRun("ch")
    state: dict = {}
    with run.mock(make_responder(run.work, state), max_requests=40) as srv:
        cmds = [
            ["node", package] + (["--continue"] if i else []) + FLAGS + ["-p", turn]
            for i, turn in enumerate(USER_TURNS)
        ]
        run.run_each("copilot", cmds, copilot_env(run, srv.url), "copilot-output.txt")
    print(f"tools offered: {state.get('tools')}; mock log: {run.log}")
    src = run.find_written(str(Path(run.home, ".copilot/history-session-state/*.json")), "session file")
    run.copy_scrubbed(src, out / "copilot-cli.history.json")
    run.finish(keep)


def resume_repaired(package: str, repaired: Path, out: Path, keep: bool) -> None:
    """Resume a repaired session file with the real CLI; copy what it wrote to OUT."""
    run = TempRun("ch")
    text = run.unscrub(repaired.read_text())
    session = json.loads(text)
    started = datetime.fromisoformat(session["startTime"].replace("Z", "+00:00"))
    folder = Path(run.home, ".copilot/history-session-state")
    folder.mkdir(parents=True)
    path = folder / f"session_{session['sessionId']}_{int(started.timestamp() * 1000)}.json"
    path.write_text(text)
    state: dict = {}
    with run.mock(make_responder(run.work, state), max_requests=10) as srv:
        cmd = ["node", package, "--resume", session["sessionId"], *FLAGS, "-p", RESUMED_TURN]
        run.run_each("copilot", [cmd], copilot_env(run, srv.url), "copilot-output.txt")
    bodies = [json.loads(line)["body"] for line in Path(run.home, "bodies.jsonl").read_text().splitlines()]
    sent = [b for b in bodies if isinstance(b, dict) and b.get("messages")]
    if not sent:
        sys.exit("the CLI sent no request: it did not resume the repaired session")
    history = json.dumps(sent[-1]["messages"])
    if "{success: true" in history or "not executed" not in history:
        sys.exit("the CLI resumed, but the history it sent is not the repaired one")
    print(f"resumed request: {len(sent[-1]['messages'])} messages sent to the model, the repaired history")
    src = run.find_written(str(folder / "*.json"), "session file")
    run.copy_scrubbed(src, out / "clean.copilot-cli.history.resumed.json")
    run.finish(keep)


def main() -> None:
    """Generate the session, or with --resume-repaired resume a repaired one."""
    ap = arg_parser("copilot")
    ap.add_argument("--resume-repaired", help="a session file the inspector repaired, to resume")
    args = ap.parse_args()
    package = args.copilot or str(PACKAGE)
    if not Path(package).is_file():
        sys.exit(f"no Copilot CLI 0.0.340 at {package}: see README.md to install it")
    if args.resume_repaired:
        resume_repaired(package, Path(args.resume_repaired), out_dir(args.out), args.keep)
    else:
        generate(package, out_dir(args.out), args.keep)


if __name__ == "__main__":
    main()
