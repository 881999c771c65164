#!/usr/bin/env python3
"""Generate a real OpenCode (or Kilo CLI) session database against a scripted mock Chat Completions API.

Usage:
    python3 sessions/generate/opencode.py [OUT_DIR] [--opencode PATH] [--kilo] [--keep]
    python3 sessions/generate/opencode.py --resume DB SESSION_ID [--opencode PATH] [--kilo]

OUT_DIR defaults to sessions/.  PATH defaults to $OPENCODE_BIN, else
$NPM_TOOLS/opencode/node_modules/.bin/opencode (with --kilo: $NPM_TOOLS/kilo/node_modules/.bin/kilo),
else the binary on $PATH.

What it does: makes a temporary HOME and working folder with notes.txt, writes a provider
`mock` (npm `@ai-sdk/openai-compatible`, `options.baseURL` at mock_server.py) into
`$HOME/.config/opencode/opencode.json` (Kilo: `$HOME/.config/kilo/kilo.json`), runs
`opencode run` for the first user turn and `opencode run --continue` for the next ones (one
session), then checkpoints the WAL into the database and copies
`$HOME/.local/share/opencode/opencode.db` (Kilo: `.../kilo/kilo.db`) to OUT_DIR/opencode.db
(kilo.db), the temp paths replaced by fixed placeholders in its rows.

With --resume, the database DB (one the inspector repaired) is put in a temporary HOME's data
folder, and `opencode run --session SESSION_ID` continues that session for one more turn against
the mock; DB is then replaced by what the tool wrote (the proof that it loads the repaired session).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from harness import DEFAULT_OUT, NPM_TOOLS, TempRun, find_binary, out_dir
from mock_server import Reply, js, sse
from scenario import FAKE_RESULT_REPLY, READING_TEXT, RETRY_TEXT, hermes_reply, user_turns

MODEL = "mock-model"
USER_TURNS = user_turns("Use the real read tool on notes.txt, then the bash tool to echo hi.")
RESUME_TURN = "Thanks. Anything else in notes.txt?"
FINAL_TEXT = "notes.txt says the meeting moved to Thursday, and `echo hi` printed hi."


class Tool:
    """Where one CLI keeps its config and database, and its names."""

    def __init__(self, kilo: bool) -> None:
        self.name = "kilo" if kilo else "opencode"
        self.package = "@kilocode/cli" if kilo else "opencode-ai"
        self.config = Path(".config", self.name, f"{self.name}.json")
        self.data = Path(".local", "share", self.name)
        self.database = f"{self.name}.db"


def chunk(delta: dict, finish: str | None = None, usage: bool = False) -> dict:
    """One `chat.completion.chunk` carrying `delta`."""
    body: dict = {
        "id": "chatcmpl-mock",
        "object": "chat.completion.chunk",
        "created": 1_780_000_000,
        "model": MODEL,
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }
    if usage:
        body["usage"] = {"prompt_tokens": 500, "completion_tokens": 40, "total_tokens": 540}
    return body


def completion(text: str, calls: list[tuple[str, str, str]] = ()) -> Reply:
    """A streamed answer: `text` in three pieces, then each call `(id, name, arguments)` with its
    arguments in two pieces, then the finish and usage chunks."""
    events: list = [(None, chunk({"role": "assistant", "content": ""}))]
    step = max(1, len(text) // 3 + 1)
    events += [(None, chunk({"content": text[i : i + step]})) for i in range(0, len(text), step)]
    for index, (call_id, name, arguments) in enumerate(calls):
        half = len(arguments) // 2
        first = {"index": index, "id": call_id, "type": "function", "function": {"name": name, "arguments": ""}}
        events.append((None, chunk({"tool_calls": [first]})))
        for piece in (arguments[:half], arguments[half:]):
            events.append((None, chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})))
    events.append((None, chunk({}, "tool_calls" if calls else "stop")))
    events.append((None, {**chunk({}), "choices": [], "usage": chunk({}, usage=True)["usage"]}))
    events.append((None, "[DONE]"))
    return sse(events)


def step(n: int, workdir: str) -> Reply:
    """The scripted answer after `n` assistant messages in the request's history."""
    notes = os.path.join(workdir, "notes.txt")
    if n == 0:  # (a) a fake tool result as text, nothing ran
        return completion(FAKE_RESULT_REPLY)
    if n == 1:  # (b) Hermes markup as text, nothing ran
        return completion(hermes_reply("read", {"filePath": "notes.txt"}))
    if n == 2:  # (c) a real call whose arguments are cut off: OpenCode records it as tool "invalid"
        return completion(READING_TEXT, [("call_mock_broken_cut", "read", '{"filePath": "%s"' % notes)])
    if n == 3:  # (d) a good read
        return completion(RETRY_TEXT, [("call_mock_good_read", "read", json.dumps({"filePath": notes}))])
    if n == 4:  # (d2) a good bash
        arguments = {"command": "echo hi", "description": "Print hi"}
        return completion("", [("call_mock_good_bash", "bash", json.dumps(arguments))])
    return completion(FINAL_TEXT)


def seen(messages: list) -> str:
    """The resumed turn's answer: what the history sent to the model held (the tool calls named,
    and the replies starting with an object), so the database records what OpenCode loaded."""
    calls = [
        call.get("function", {}).get("name", "?")
        for message in messages
        if isinstance(message, dict) and message.get("role") == "assistant"
        for call in message.get("tool_calls") or []
    ]
    texts = [m.get("content") for m in messages if isinstance(m, dict) and m.get("role") == "assistant"]
    objects = sum(1 for text in texts if isinstance(text, str) and text.lstrip().startswith("{"))
    return f"Nothing else. The history I was sent holds the tool calls {', '.join(calls)}, and {objects} replies starting with an object."


def make_responder(workdir: str):
    """The mock's responder: /models, the scripted chat completions, and short side answers."""

    def responder(method, path, body):
        if path.rstrip("/").endswith("/models"):
            return js({"object": "list", "data": [{"id": MODEL, "object": "model"}]})
        if path.endswith("/chat/completions") and isinstance(body, dict):
            if not body.get("tools"):  # a side request (the session's title)
                return completion("Notes and a journal memory")
            messages = body.get("messages") or []
            n = sum(1 for m in messages if isinstance(m, dict) and m.get("role") == "assistant")
            reply = step(n, workdir) if n < 6 else completion(seen(messages))
            return completion_or_json(reply, body)
        return Reply(status=404, json_body={"error": {"message": "mock: no such path"}})

    return responder


def completion_or_json(reply: Reply, body: dict) -> Reply:
    """The streamed reply, or one JSON completion when the request did not ask for a stream."""
    if body.get("stream", False):
        return reply
    text = "".join(
        data["choices"][0]["delta"].get("content", "")
        for _, data in reply.events or []
        if isinstance(data, dict) and data.get("choices")
    )
    message = {"role": "assistant", "content": text}
    return js(
        {
            "id": "chatcmpl-mock",
            "object": "chat.completion",
            "model": MODEL,
            "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
        }
    )


def write_config(run: TempRun, tool: Tool, url: str) -> None:
    """The provider `mock` (OpenAI-compatible, at the mock) as the model, every tool allowed."""
    config = {
        "$schema": "https://opencode.ai/config.json",
        "model": f"mock/{MODEL}",
        "small_model": f"mock/{MODEL}",
        "autoupdate": False,
        "share": "disabled",
        "permission": {"edit": "allow", "bash": "allow", "webfetch": "allow", "external_directory": "allow"},
        "provider": {
            "mock": {
                "npm": "@ai-sdk/openai-compatible",
                "name": "Mock",
                "options": {"baseURL": f"{url}/v1", "apiKey": "dummy"},
                "models": {
                    MODEL: {"name": "Mock Model", "tool_call": True, "limit": {"context": 64000, "output": 4096}}
                },
            }
        },
    }
    path = Path(run.home, tool.config)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(config, indent=2))


def env_for(run: TempRun) -> dict[str, str]:
    """The CLI's environment: no update check, no model list fetched, no default plugins."""
    return run.base_env(
        OPENCODE_DISABLE_AUTOUPDATE="1",
        OPENCODE_DISABLE_MODELS_FETCH="1",
        OPENCODE_DISABLE_DEFAULT_PLUGINS="1",
        OPENCODE_DISABLE_LSP_DOWNLOAD="1",
        KILO_DISABLE_AUTOUPDATE="1",
        KILO_DISABLE_MODELS_FETCH="1",
        KILO_DISABLE_DEFAULT_PLUGINS="1",
        KILO_DISABLE_LSP_DOWNLOAD="1",
        KILO_TELEMETRY_DISABLED="1",
    )


def checkpointed_copy(source: Path, dest: Path, run: TempRun | None) -> None:
    """Fold the WAL into the database, copy it to `dest` (rows' temp paths scrubbed when `run`),
    and leave `dest` one file in rollback-journal mode (the tool switches it back to WAL)."""
    conn = sqlite3.connect(source)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    shutil.copyfile(source, dest)
    conn = sqlite3.connect(dest)
    if run is not None:
        rewrite_texts(conn, lambda text: scrubbed(run, text))
    conn.execute("PRAGMA journal_mode = DELETE")
    conn.execute("PRAGMA page_size = 1024")  # small pages: the schema's many tables hold a few rows each
    conn.execute("VACUUM")
    conn.close()


def rewrite_texts(conn: sqlite3.Connection, rewrite) -> None:
    """Rewrite every text value of every table of the database open on `conn` with `rewrite`."""
    for (table,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall():
        columns = [row[1] for row in conn.execute(f"PRAGMA table_info(`{table}`)")]
        names = ", ".join(f"`{column}`" for column in columns)
        for rowid, *values in conn.execute(f"SELECT rowid, {names} FROM `{table}`").fetchall():
            for column, value in zip(columns, values):
                if isinstance(value, str) and rewrite(value) != value:
                    conn.execute(f"UPDATE `{table}` SET `{column}` = ? WHERE rowid = ?", [rewrite(value), rowid])
    conn.commit()


def scrubbed(run: TempRun, text: str) -> str:
    """`text` with the temp folders replaced by their placeholders, also where the tool wrote them
    without their leading slash (a session's `path`)."""
    text = run.scrub(text)
    for real in (run.work, run.home):
        text = text.replace(os.path.basename(real), os.path.basename(run.scrub(real)))
    return text


def generate(args: argparse.Namespace, tool: Tool, binary: str) -> None:
    """The scenario's three turns in one session, copied to OUT_DIR/<tool>.db."""
    out = out_dir(args.out)
    run = TempRun("oc" if tool.name == "opencode" else "kc")
    with run.mock(make_responder(run.work), max_requests=80) as srv:
        write_config(run, tool, srv.url)
        cmds = [[binary, "run", *(["--continue"] if i else []), turn] for i, turn in enumerate(USER_TURNS)]
        run.run_each(tool.name, cmds, env_for(run), f"{tool.name}-output.txt")
    src = Path(run.home, tool.data, tool.database)
    checkpointed_copy(src, out / tool.database, run)
    print(f"wrote {out / tool.database} from {src}")
    run.finish(args.keep)


def resume(args: argparse.Namespace, tool: Tool, binary: str) -> None:
    """Continue session `args.resume[1]` of database `args.resume[0]` for one turn, in place."""
    database, session_id = Path(args.resume[0]), args.resume[1]
    run = TempRun("oc" if tool.name == "opencode" else "kc")
    data = Path(run.home, tool.data)
    data.mkdir(parents=True)
    shutil.copyfile(database, data / tool.database)
    conn = sqlite3.connect(data / tool.database)  # the session's folder is this run's working folder
    rewrite_texts(conn, run.unscrub)
    conn.close()
    with run.mock(make_responder(run.work), max_requests=20) as srv:
        write_config(run, tool, srv.url)
        run.run_each(tool.name, [[binary, "run", "--session", session_id, RESUME_TURN]], env_for(run), "resume.txt")
    time.sleep(0.5)
    checkpointed_copy(data / tool.database, database, run)
    print(f"{database}: session {session_id} continued by {tool.name}")
    run.finish(args.keep)


def main() -> None:
    """Generate the sample, or continue a repaired session (--resume)."""
    parser = argparse.ArgumentParser()
    parser.add_argument("out", nargs="?", default=str(DEFAULT_OUT))
    parser.add_argument("--opencode", help="the opencode (or kilo) binary")
    parser.add_argument("--kilo", action="store_true", help="run Kilo CLI (@kilocode/cli) instead")
    parser.add_argument("--resume", nargs=2, metavar=("DB", "SESSION_ID"))
    parser.add_argument("--keep", action="store_true", help="keep the temp folders")
    args = parser.parse_args()
    tool = Tool(args.kilo)
    binary = find_binary(
        tool.name, args.opencode, tool.package, [str(NPM_TOOLS / tool.name / "node_modules" / ".bin" / tool.name)]
    )
    (resume if args.resume else generate)(args, tool, binary)
    subprocess.run([binary, "--version"], check=False)


if __name__ == "__main__":
    main()
