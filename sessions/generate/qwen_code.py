#!/usr/bin/env python3
"""Generate a real Qwen Code chat file (<uuid>.jsonl) against a scripted mock Chat Completions API.

Usage:
    python3 sessions/generate/qwen_code.py [OUT_DIR] [--qwen PATH] [--keep]

OUT_DIR defaults to sessions/.  PATH defaults to $QWEN_BIN, else
$NPM_TOOLS/qwen/node_modules/.bin/qwen (see harness.NPM_TOOLS), else `qwen` on $PATH.

What it does: makes a temporary HOME and a temporary working folder with notes.txt,
starts mock_server.py speaking OpenAI Chat Completions (`POST /v1/chat/completions`,
streamed as `chat.completion.chunk` events ending `[DONE]`) on 127.0.0.1, runs `qwen -p`
for the first user turn and `qwen --continue -p` for the next ones (one chat file), and
copies the chat to OUT_DIR/qwen-code.jsonl, with the temp paths replaced by fixed
placeholders.  With `--resume-repaired FILE` (a chat the inspector repaired, with the same
placeholders) it runs one turn to make the project's chat folder, puts FILE there in place of
that chat, resumes it with `qwen --resume <its sessionId>` and one more user turn, and copies
what Qwen Code wrote to OUT_DIR/clean.qwen-code.resumed.jsonl.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from harness import NPM_TOOLS, TempRun, arg_parser, find_binary, out_dir
from mock_server import Reply, js, sse
from scenario import FAKE_RESULT_REPLY, READING_TEXT, hermes_reply, user_turns

MODEL = "qwen3-coder-plus"

USER_TURNS = user_turns("Use the real read_file tool on notes.txt.")
RESUME_TURN = "Thanks. Is anything else in notes.txt?"
SHELL_ARGUMENTS = json.dumps({"command": "echo hi", "description": "Print hi"})


def chunk(delta: dict, finish: str | None = None, usage: dict | None = None) -> dict:
    """One `chat.completion.chunk` carrying ``delta``."""
    out: dict = {
        "id": "chatcmpl-mock",
        "object": "chat.completion.chunk",
        "created": int(time.time()),
        "model": MODEL,
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }
    if usage is not None:
        out["usage"] = usage
    return out


def completion_events(text: str, calls: list[tuple[str, str, str]] | None = None) -> list:
    """The SSE events of one streamed completion: ``text`` in three pieces, then each call
    ``(id, name, raw arguments)`` with its arguments in two pieces, a usage chunk and `[DONE]`."""
    events: list = [(None, chunk({"role": "assistant", "content": ""}))]
    step = max(1, len(text) // 3 + 1)
    for i in range(0, len(text), step):
        events.append((None, chunk({"content": text[i : i + step]})))
    for index, (call_id, name, arguments) in enumerate(calls or []):
        half = len(arguments) // 2
        head = {"index": index, "id": call_id, "type": "function", "function": {"name": name, "arguments": ""}}
        events.append((None, chunk({"tool_calls": [head]})))
        for piece in (arguments[:half], arguments[half:]):
            events.append((None, chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})))
    events.append((None, chunk({}, "tool_calls" if calls else "stop")))
    usage = {"prompt_tokens": 500, "completion_tokens": 40, "total_tokens": 540}
    events.append((None, {**chunk({}), "choices": [], "usage": usage}))
    events.append((None, "[DONE]"))
    return events


def full_completion(text: str) -> dict:
    """A non-streamed completion holding ``text`` (side requests)."""
    return {
        "id": "chatcmpl-mock-side",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": MODEL,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110},
    }


def answered(body: dict, events: list) -> Reply:
    """The reply to a Chat Completions request: ``events`` streamed when it asks for a stream, else
    one completion holding their text."""
    if body.get("stream"):
        return sse(events)
    text = "".join(
        e[1]["choices"][0]["delta"].get("content") or "" for e in events if isinstance(e[1], dict) and e[1]["choices"]
    )
    return js(full_completion(text))


def tool_names(body: dict) -> dict[str, list[str]]:
    """The offered tools: name -> the names of their parameters."""
    out = {}
    for tool in body.get("tools") or []:
        function = (tool or {}).get("function") or {}
        if isinstance(function.get("name"), str):
            out[function["name"]] = list((function.get("parameters") or {}).get("properties") or {})
    return out


def make_responder(workdir: str, state: dict):
    """The mock's responder; records the tools offered in ``state``."""
    notes = str(Path(workdir, "notes.txt"))

    def step(n: int, tools: dict[str, list[str]]) -> list:
        """The scripted events after ``n`` assistant messages."""
        path_key = next((key for key in tools.get("read_file", []) if "path" in key), "file_path")
        good = json.dumps({path_key: notes})
        if n == 0:  # (a) fake tool result object as text, nothing ran
            return completion_events(FAKE_RESULT_REPLY)
        if n == 1:  # (b) Hermes markup as text, nothing ran
            return completion_events(hermes_reply("read_file", {path_key: "notes.txt"}))
        if n == 2:  # (d) a good call, really run
            return completion_events(READING_TEXT, [("call_mock_good", "read_file", good)])
        if n == 3:  # (d2) a second good call, really run
            return completion_events("", [("call_mock_good_shell", "run_shell_command", SHELL_ARGUMENTS)])
        if n == 4:
            return completion_events("notes.txt says the meeting moved to Thursday; bring the draft.")
        return completion_events("Nothing else: only those two lines.")

    def responder(method, path, body):
        """Route one request: chat completions (the main loop or a side request), models, or 404."""
        if path.rstrip("/").endswith("/models"):
            return js({"object": "list", "data": [{"id": MODEL, "object": "model", "owned_by": "mock"}]})
        if path.endswith("/chat/completions") and isinstance(body, dict):
            tools = tool_names(body)
            if "read_file" in tools:
                state.setdefault("tools", tools)
                n = sum(1 for m in body.get("messages") or [] if m.get("role") == "assistant")
                events = step(n, tools)
            else:  # title, next speaker, summaries...
                events = completion_events('{"next_speaker": "user", "reasoning": "done", "title": "Notes"}')
            return answered(body, events)
        return Reply(status=404, json_body={"error": {"message": "mock: no such path", "type": "not_found"}})

    return responder


def settings() -> dict:
    """~/.qwen/settings.json: OpenAI auth; telemetry, usage statistics, updates and the memory agents off."""
    return {
        "security": {"auth": {"selectedType": "openai"}, "folderTrust": {"enabled": False}},
        "privacy": {"usageStatisticsEnabled": False},
        "telemetry": {"enabled": False},
        "general": {"disableAutoUpdate": True, "disableUpdateNag": True},
        "memory": {"enableManagedAutoMemory": False, "enableManagedAutoDream": False},
        "ide": {"enabled": False},
    }


def qwen_home(run: TempRun) -> Path:
    """The run's `~/.qwen`, made with its settings (`settings`)."""
    qdir = Path(run.home, ".qwen")
    qdir.mkdir()
    Path(qdir, "settings.json").write_text(json.dumps(settings(), indent=2))
    return qdir


def qwen_command(qwen: str) -> list[str]:
    """`qwen` run headless: OpenAI auth, the mock's model, JSON events out, every tool allowed."""
    return [qwen, "--auth-type", "openai", "-m", MODEL, "-o", "stream-json", "--approval-mode", "yolo"]


def qwen_env(run: TempRun, url: str) -> dict[str, str]:
    """The environment of a `qwen` run against the mock at `url`."""
    return run.base_env(
        OPENAI_API_KEY="dummy",
        OPENAI_BASE_URL=url + "/v1",
        OPENAI_MODEL=MODEL,
        QWEN_DISABLE_AUTO_TITLE="1",
        NO_BROWSER="true",
        CI="",
    )


def main() -> None:
    """Run the scenario through `qwen -p` (+ `--continue`) and copy the chat to OUT_DIR."""
    ap = arg_parser("qwen")
    ap.add_argument("--resume-repaired", help="a repaired chat to resume with one more turn")
    args = ap.parse_args()
    qwen = find_binary("qwen", args.qwen, "@qwen-code/qwen-code", [str(NPM_TOOLS / "qwen/node_modules/.bin/qwen")])
    out = out_dir(args.out)

    run = TempRun("qw")
    qdir = qwen_home(run)
    state: dict = {}
    base = qwen_command(qwen)
    with run.mock(make_responder(run.work, state), max_requests=80) as srv:
        env = qwen_env(run, srv.url)
        if args.resume_repaired:  # a first turn makes the project's chat folder, then the repaired chat replaces it
            run.run_each("qwen", [base + ["-p", USER_TURNS[0]]], env, "qwen-setup-output.txt")
            setup = Path(run.find_written(str(qdir / "projects" / "*" / "chats" / "*.jsonl"), "chat file"))
            repaired = run.unscrub(Path(args.resume_repaired).read_text())
            session_id = json.loads(repaired.splitlines()[-1])["sessionId"]
            chat = str(setup.with_name(f"{session_id}.jsonl"))
            setup.unlink()
            Path(chat).write_text(repaired)
            run.run_each("qwen", [base + ["--resume", session_id, "-p", RESUME_TURN]], env, "qwen-output.txt")
            name = "clean.qwen-code.resumed.jsonl"
        else:
            cmds = [base + (["--continue"] if i else []) + ["-p", turn] for i, turn in enumerate(USER_TURNS)]
            run.run_each("qwen", cmds, env, "qwen-output.txt")
            chat = run.find_written(str(qdir / "projects" / "*" / "chats" / "*.jsonl"), "chat file")
            name = "qwen-code.jsonl"
    print(f"mock log: {run.log}")
    run.copy_scrubbed(chat, out / name)
    run.finish(args.keep)


if __name__ == "__main__":
    main()
