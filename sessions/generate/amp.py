"""Write `sessions/amp.thread.json`: an Amp thread, built from the shape Amp stores, not by Amp.

Run it with any Python 3.11 (standard library only):

    python3 sessions/generate/amp.py [OUT_DIR]

Amp's CLI (npm `@sourcegraph/amp`) talks to Sourcegraph's servers only and needs a signed-in
account, so it is not run here: the thread is built from the thread JSON Amp keeps in
`~/.local/share/amp/threads/T-<uuid>.json` as public readers of that store read and write it
(jonathan-kellerai/cross_agent_session_resumer `src/providers/amp.rs`: `{"v", "id", "created",
"title", "env": {"initial": {"cwd", "trees"}}, "messages"}`; messages `{"role", "content",
"meta": {"sentAt"}}`; `tool_use` blocks `{"id", "name", "input"}`; `tool_result` blocks
`{"toolUseID", "run": {"status", "result" | "error" | "progress"}}`), with Amp's `messageId`,
`state` and `usage` per message and its tool names (`Read {path}`, `Bash {cmd}`).

The scripted replies:
1. (a) a fake tool result written as text; no tool ran;
2. (b) Hermes `<tool_call>` markup naming `Read`, printed as text;
3. (d) a good `Read` call of notes.txt, answered by its result (`status: done`);
4. a `Bash` call whose run failed (`status: error`), then the closing answer.
Amp keeps a call's `input` as an object, so no broken arguments can be stored.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from scenario import FAKE_RESULT_REPLY, NOTES_TEXT, READING_TEXT, hermes_reply, user_turns

THREAD_ID = "T-5f0c2a9e-3b1d-4c7e-9a2f-6d8e1b4c7a30"
CREATED = 1_764_300_000_000
MODEL = "claude-sonnet-4-5-20250929"
WORK = "/tmp/amp-work"


def user(message_id: int, content: list[dict[str, Any]]) -> dict[str, Any]:
    """A user message: text, or the results of the calls before it."""
    return {"role": "user", "messageId": message_id, "content": content, "meta": {"sentAt": CREATED + message_id}}


def assistant(message_id: int, content: list[dict[str, Any]], stop: str) -> dict[str, Any]:
    """An assistant message, complete, with its usage."""
    return {
        "role": "assistant",
        "messageId": message_id,
        "content": content,
        "state": {"type": "complete", "stopReason": stop},
        "usage": {"model": MODEL, "inputTokens": 1200, "outputTokens": 60},
    }


def text(value: str) -> dict[str, Any]:
    """A text block."""
    return {"type": "text", "text": value}


def call(call_id: str, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """A tool_use block."""
    return {"type": "tool_use", "id": call_id, "name": name, "input": arguments, "complete": True}


def result(call_id: str, status: str, **run: Any) -> dict[str, Any]:
    """A tool_result block with its run."""
    return {"type": "tool_result", "toolUseID": call_id, "run": {"status": status, **run}}


def thread() -> dict[str, Any]:
    """The whole thread."""
    memory, read, only_text = user_turns("Use the real Read tool on notes.txt.")
    messages = [
        user(0, [text(memory)]),
        assistant(1, [text(FAKE_RESULT_REPLY)], "end_turn"),
        user(2, [text(read)]),
        assistant(3, [text(hermes_reply("Read", {"path": "notes.txt"}))], "end_turn"),
        user(4, [text(only_text)]),
        assistant(5, [text(READING_TEXT), call("toolu_amp_good", "Read", {"path": f"{WORK}/notes.txt"})], "tool_use"),
        user(6, [result("toolu_amp_good", "done", result={"content": NOTES_TEXT})]),
        assistant(
            7, [text("Checking the draft too."), call("toolu_amp_failed", "Bash", {"cmd": "cat draft.txt"})], "tool_use"
        ),
        user(8, [result("toolu_amp_failed", "error", error={"message": "cat: draft.txt: No such file or directory"})]),
        assistant(9, [text("The notes say the meeting moved to Thursday; there is no draft yet.")], "end_turn"),
    ]
    return {
        "v": len(messages),
        "id": THREAD_ID,
        "created": CREATED,
        "title": "Save a journal memory",
        "env": {"initial": {"cwd": WORK, "trees": [{"displayName": "amp-work", "uri": f"file://{WORK}"}]}},
        "messages": messages,
    }


def main() -> None:
    """Write the thread into OUT_DIR (default: `sessions/`)."""
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent
    out.mkdir(parents=True, exist_ok=True)
    (out / "amp.thread.json").write_text(json.dumps(thread(), indent=2) + "\n")


if __name__ == "__main__":
    main()
