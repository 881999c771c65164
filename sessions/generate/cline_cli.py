#!/usr/bin/env python3
"""Generate a real Cline CLI session (<id>.messages.json) against a scripted mock Chat Completions API.

Usage:
    python3 sessions/generate/cline_cli.py [OUT_DIR] [--cline PATH] [--keep] [--resume FILE]

OUT_DIR defaults to sessions/.  PATH defaults to $CLINE_BIN, else
$NPM_TOOLS/cline/node_modules/.bin/cline (see harness.NPM_TOOLS), else `cline` on $PATH.

What it does: makes a temporary HOME and a temporary working folder with notes.txt, starts
mock_server.py speaking OpenAI Chat Completions (`/v1/chat/completions`, streamed) on
127.0.0.1, runs `cline auth -p openai -b <mock>` (an OpenAI-compatible provider), then
`cline --json "<turn>"` for the first user turn and `cline --json --id <session> "<turn>"`
for the next ones (the CLI resumes a session from its messages file), and copies
`~/.cline/data/sessions/<id>/<id>.messages.json` to OUT_DIR/cline.messages.json with the temp
paths replaced by fixed placeholders.

With `--resume FILE` it proves Cline loads a file the inspector repaired (FILE from
`inspector fix sessions/cline.messages.json --accept all -o FILE`): it runs the scenario,
puts FILE (whose paths are the placeholders, put back to this run's folders) in place of the
session's messages file, resumes it with one more turn (ACP `session/load`), and copies
what Cline wrote to OUT_DIR/clean.cline.resumed.messages.json (`clean.`: nothing is left to find in it).

The CLI starts a hub daemon in the background; each run ends the daemons whose HOME is the
temporary one, by their process id.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from harness import NPM_TOOLS, TempRun, arg_parser, find_binary, out_dir
from mock_server import Reply, js, sse
from scenario import FAKE_RESULT_REPLY, READING_TEXT, RETRY_TEXT, hermes_reply, user_turns

MODEL = "mock-model"
USER_TURNS = user_turns("Use the real read_files tool on notes.txt, then run_commands: echo hi.")
RESUME_TURN = "Thanks. Anything else in the folder?"
FINAL_TEXT = "notes.txt says the meeting moved to Thursday, and `echo hi` printed hi."


def chunk(delta: dict, finish: str | None = None) -> dict:
    """One chat.completion.chunk holding ``delta``."""
    return {
        "id": "chatcmpl-mock",
        "object": "chat.completion.chunk",
        "created": 1790000000,
        "model": MODEL,
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }


def stream(text: str, calls: list[tuple[str, str, str]] = ()) -> Reply:
    """``text`` in three pieces, then each ``(id, name, arguments)`` call in two, then the usage."""
    events: list = [(None, chunk({"role": "assistant", "content": ""}))]
    step = max(1, len(text) // 3 + 1)
    events += [(None, chunk({"content": text[i : i + step]})) for i in range(0, len(text), step)]
    for index, (call_id, name, arguments) in enumerate(calls):
        half = len(arguments) // 2
        head = {"index": index, "id": call_id, "type": "function", "function": {"name": name, "arguments": ""}}
        events.append((None, chunk({"tool_calls": [head]})))
        for piece in (arguments[:half], arguments[half:]):
            events.append((None, chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})))
    events.append((None, chunk({}, "tool_calls" if calls else "stop")))
    usage = {"prompt_tokens": 500, "completion_tokens": 40, "total_tokens": 540}
    events.append((None, {**chunk({}), "choices": [], "usage": usage}))
    events.append((None, "[DONE]"))
    return sse(events)


def make_responder(workdir: str, state: dict):
    """The mock's responder; records the tools offered in ``state``."""
    notes = os.path.join(workdir, "notes.txt")

    def step(n: int) -> Reply:
        """The scripted answer after ``n`` assistant messages."""
        if n == 0:  # (a) fake tool result object as text, nothing ran
            return stream(FAKE_RESULT_REPLY)
        if n == 1:  # (b) Hermes markup as text, nothing ran
            return stream(hermes_reply("read_files", {"files": [{"path": "notes.txt"}]}))
        if n == 2:  # (c) a real call with a wrong parameter name (`path` where `files` is required)
            return stream(READING_TEXT, [("call_mock_broken_path", "read_files", json.dumps({"path": notes}))])
        if n == 3:  # (d) a good call, really run
            args = json.dumps({"files": [{"path": notes}]})
            return stream(RETRY_TEXT, [("call_mock_good_read", "read_files", args)])
        if n == 4:  # (d2) a second good call
            return stream("", [("call_mock_good_echo", "run_commands", json.dumps({"commands": ["echo hi"]}))])
        if n == 5:
            return stream(FINAL_TEXT)
        return stream("The folder holds only notes.txt.")

    def responder(method, path, body):
        """Route one request: /models, /chat/completions, or 404."""
        if path.rstrip("/").endswith("/models"):
            return js({"object": "list", "data": [{"id": MODEL, "object": "model"}]})
        if path.endswith("/chat/completions") and isinstance(body, dict):
            state["tools"] = [t.get("function", {}).get("name") for t in body.get("tools") or []]
            n = sum(1 for m in body.get("messages") or [] if isinstance(m, dict) and m.get("role") == "assistant")
            return step(n)
        return Reply(status=404, json_body={"error": {"message": "mock: no such path"}})

    return responder


class AcpClient:
    """A minimal Agent Client Protocol client over `cline --acp`'s stdin and stdout (JSON-RPC lines).

    `cline --id` opens the interactive terminal UI, so the resumed turns go through ACP's
    `session/load` and `session/prompt`, which the CLI serves headless.  Every line both ways is
    kept in ``transcript``.
    """

    def __init__(self, cmd: list[str], cwd: str, env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(
            cmd, cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        self.next_id = 0
        self.transcript: list[str] = []

    def request(self, method: str, params: dict, timeout: float = 120) -> dict:
        """Send one request and answer the agent's own requests until its response comes."""
        self.next_id += 1
        self._send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"cline --acp ended during {method}: {self.proc.stderr.read()[-2000:]}")
            self.transcript.append("< " + line.rstrip("\n"))
            message = json.loads(line)
            if message.get("id") == self.next_id and "method" not in message:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result") or {}
            if "method" in message and "id" in message:  # the agent asks: allow whatever it asks
                self._send({"jsonrpc": "2.0", "id": message["id"], "result": _permission(message)})
        raise RuntimeError(f"no answer to {method} in {timeout} s")

    def close(self) -> None:
        """End the agent: close its stdin, then terminate it if it lingers."""
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.terminate()
            self.proc.wait(timeout=10)

    def _send(self, message: dict) -> None:
        line = json.dumps(message)
        self.transcript.append("> " + line)
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()


def _permission(message: dict) -> dict:
    """The answer to a `session/request_permission`: the first option that allows."""
    options = (message.get("params") or {}).get("options") or []
    allow = next((o for o in options if str(o.get("kind", "")).startswith("allow")), options[0] if options else None)
    return {"outcome": {"outcome": "selected", "optionId": allow["optionId"]}} if allow else {}


def resume_turns(run: TempRun, cline: str, env: dict[str, str], session_id: str, turns: list[str], log: str) -> None:
    """Resume ``session_id`` with `cline --acp` (`session/load`) and send each turn (`session/prompt`)."""
    # ACP restores only the Cline account's sign-in; these name the provider `cline auth` configured.
    acp_env = {**env, "CLINE_API_KEY": "dummy", "CLINE_PROVIDER": "openai-compatible", "CLINE_MODEL": MODEL}
    client = AcpClient([cline, "--acp", "--auto-approve", "true"], run.work, acp_env)
    try:
        client.request("initialize", {"protocolVersion": 1, "clientCapabilities": {}})
        client.request("session/load", {"sessionId": session_id, "cwd": run.work, "mcpServers": []})
        for turn in turns:
            answer = client.request(
                "session/prompt", {"sessionId": session_id, "prompt": [{"type": "text", "text": turn}]}
            )
            print(f"resumed turn: {answer.get('stopReason')}")
    finally:
        client.close()
        run.save(log, "\n".join(client.transcript) + "\n")


def end_hub_daemons(home: str) -> None:
    """End the hub daemons this run's CLI left running: those whose HOME is ``home``, by pid."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes()
            environ = (entry / "environ").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"--cline-hub-daemon" in cmdline and f"HOME={home}".encode() in environ:
            os.kill(int(entry.name), signal.SIGTERM)


def main() -> None:
    """Run the scenario through `cline` (+ `--id` to resume) and copy the messages file to OUT_DIR."""
    ap = arg_parser("cline")
    ap.add_argument("--resume", help="a repaired messages file to put in place and resume with one more turn")
    args = ap.parse_args()
    cline = find_binary("cline", args.cline, "cline", [str(NPM_TOOLS / "cline/node_modules/.bin/cline")])
    out = out_dir(args.out)

    run = TempRun("cl")
    sessions = Path(run.home, ".cline", "data", "sessions")
    state: dict = {}
    try:
        with run.mock(make_responder(run.work, state), max_requests=60) as srv:
            env = run.base_env()
            auth = [cline, "auth", "-p", "openai", "-k", "dummy", "-m", MODEL, "-b", f"{srv.url}/v1"]
            run.run_each("cline auth", [auth], env, "cline-auth.txt")
            run.run_each("cline", [[cline, "--json", USER_TURNS[0]]], env, "cline-output-1.txt")
            session = run.find_written(str(sessions / "*" / "*.messages.json"), "messages file")
            session_id = Path(session).parent.name
            resume_turns(run, cline, env, session_id, USER_TURNS[1:], "cline-acp-1.txt")
            if args.resume:
                repaired = Path(args.resume).read_text()
                repaired = repaired.replace("/tmp/cl-work", run.work).replace("/tmp/cl-home", run.home)
                Path(session).write_text(repaired)
                resume_turns(run, cline, env, session_id, [RESUME_TURN], "cline-acp-resume.txt")
        print(f"tools offered: {state.get('tools')}; mock log: {run.log}")
        name = "clean.cline.resumed.messages.json" if args.resume else "cline.messages.json"
        run.copy_scrubbed(session, out / name)
    finally:
        end_hub_daemons(run.home)
    run.finish(args.keep)


if __name__ == "__main__":
    main()
