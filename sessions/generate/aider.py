"""Write `sessions/aider.chat.history.md` and `sessions/aider.llm-history.txt` with Aider 0.86.2.

Run it with any Python 3.11 (standard library only); it runs `aider` from its own venv:

    python3 sessions/generate/aider.py [OUT_DIR] [--aider PATH] [--keep]

Each user turn is one `aider --message TURN --yes-always --no-git --no-stream --model openai/mock
--openai-api-base <mock>/v1 --llm-history-file F` in the working folder, the second and third
with `--restore-chat-history` so the model sees the turns before. Aider writes its chat history
(`.aider.chat.history.md`) in the working folder and appends each request and reply to the LLM
history file. Aider has no tool calling: its model edits files through blocks in its replies, so
the planted problems are the texts a reply can hold: (a) a result written by the model itself,
(b) Hermes `<tool_call>` markup printed as text, and a good edit (a file listing Aider
applies to notes.txt) in place of a good call.

The scripted replies, by the user turn a request ends with (Aider's prompt holds example
replies of its own, so they are not counted): turn 1 (a) `FAKE_RESULT_REPLY`; turn 2 (b) Hermes
markup naming a `read_file` tool Aider does not have; turn 3 the good edit of notes.txt, in the
"whole" edit format Aider picks for a model it does not know; a short text for any other request.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from chat_completions import completion
from harness import TOOLS, TempRun, arg_parser, find_binary, out_dir
from mock_server import Reply
from scenario import (
    FAKE_RESULT_REPLY,
    NOTES_TEXT,
    TURN_MEMORY,
    TURN_ONLY_TEXT,
    TURN_READ,
    hermes_reply,
    user_turns,
)

VERSION = "0.86.2"
GOOD_EDIT = (  # Aider's "whole" edit format, the one it picks for a model it does not know
    f"I will add the agenda to notes.txt.\n\nnotes.txt\n```\n{NOTES_TEXT}Agenda: the refactor, first step.\n```\n"
)
REPLIES = {  # the reply to each user turn, by how the turn starts
    TURN_MEMORY: FAKE_RESULT_REPLY,
    TURN_READ: hermes_reply("read_file", {"file_path": "notes.txt"}),
    TURN_ONLY_TEXT: GOOD_EDIT,
}


def responder(method: str, path: str, body: Any) -> Reply:
    """The scripted model: the reply for the request's place in the conversation."""
    if method != "POST" or not path.endswith("/chat/completions"):
        return completion("ok")
    messages = body.get("messages") if isinstance(body, dict) else None
    last = messages[-1].get("content") if messages and isinstance(messages[-1], dict) else None
    asked = last if isinstance(last, str) else ""
    reply = next((text for turn, text in REPLIES.items() if asked.startswith(turn)), "Nothing more to do.")
    return completion(reply)


def main() -> None:
    """Run the three turns and copy both histories out, their temporary paths scrubbed."""
    args = arg_parser("aider").parse_args()
    venv = Path(os.environ.get("AIDER_VENV") or TOOLS / "aider-venv")
    binary = find_binary("aider", args.aider, f"aider-chat=={VERSION}", [str(venv / "bin" / "aider")])
    out = out_dir(args.out)
    run = TempRun("ad")
    log = os.path.join(run.home, "llm-history.txt")
    with run.mock(responder, max_requests=20) as server:
        env = run.base_env(OPENAI_API_KEY="dummy")
        common = [
            binary,
            "--yes-always",
            "--no-git",
            "--no-stream",
            "--no-pretty",
            "--no-show-model-warnings",
            "--no-check-update",
            "--no-analytics",
            "--model",
            "openai/mock",
            "--openai-api-base",
            f"{server.url}/v1",
            "--llm-history-file",
            log,
        ]
        turns = user_turns("Edit notes.txt for real.")
        commands = [
            [*common, *(["--restore-chat-history"] if number else []), "--message", turn, "notes.txt"]
            for number, turn in enumerate(turns)
        ]
        run.run_each("aider", commands, env, "aider-output.txt")
    run.copy_scrubbed(os.path.join(run.work, ".aider.chat.history.md"), out / "aider.chat.history.md")
    run.copy_scrubbed(log, out / "aider.llm-history.txt")
    run.finish(args.keep)


if __name__ == "__main__":
    main()
