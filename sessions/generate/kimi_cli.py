"""Write `sessions/kimi-cli.context.jsonl`: a Kimi CLI context file, built from Kimi CLI's storage
code, not by Kimi CLI.

Run it with any Python 3.11 (standard library only):

    python3 sessions/generate/kimi_cli.py [OUT_DIR]

Kimi CLI (PyPI `kimi-cli`, Python 3.12+; archived, Kimi Code replaces it) does not install on this machine's Python 3.11, so it is not
run here: the file is built from the records its source writes (MoonshotAI/kimi-cli,
`src/kimi_cli/soul/context.py`): the `{"role": "_system_prompt", "content"}` first line,
`{"role": "_checkpoint", "id"}` before each user turn, `{"role": "_usage", "token_count"}` after
each step, and every message as `Message.model_dump_json(exclude_none=True)`
(`packages/kosong/src/kosong/message.py`: `role`, `content` a string when it is one text part,
else a list of `{"type": "text" | "think", ...}` parts, `tool_calls` of
`{"type": "function", "id", "function": {"name", "arguments"}}`, `tool_call_id` on a `tool`
message). A failed tool's result is `<system>ERROR: ...</system>` (`src/kimi_cli/soul/message.py`).

The scripted replies:
1. (a) a fake tool result written as text; no tool ran;
2. (b) Hermes `<tool_call>` markup naming `ReadFile`, printed as text;
3. (d) a good `ReadFile` call of notes.txt, answered by its result;
4. a `Shell` call that failed, then the closing answer.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from scenario import FAKE_RESULT_REPLY, NOTES_TEXT, READING_TEXT, hermes_reply, user_turns

SYSTEM_PROMPT = "You are Kimi CLI, an interactive general AI agent running on a user's computer."


def dump(record: dict[str, Any]) -> str:
    """One line as pydantic's `model_dump_json` writes it (compact separators)."""
    return json.dumps(record, separators=(",", ":"), ensure_ascii=False)


def call(call_id: str, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """A kosong `ToolCall`: the arguments a JSON string."""
    return {"type": "function", "id": call_id, "function": {"name": name, "arguments": json.dumps(arguments)}}


def context() -> list[str]:
    """The context file's lines."""
    memory, read, only_text = user_turns("Use the real ReadFile tool on notes.txt.")
    lines = [json.dumps({"role": "_system_prompt", "content": SYSTEM_PROMPT})]
    checkpoint = 0
    usage = 1800

    def user(text: str) -> None:
        nonlocal checkpoint
        lines.append(json.dumps({"role": "_checkpoint", "id": checkpoint}))
        checkpoint += 1
        lines.append(dump({"role": "user", "content": text}))

    def step(message: dict[str, Any], *results: dict[str, Any]) -> None:
        nonlocal usage
        lines.append(dump(message))
        lines.extend(dump(result) for result in results)
        usage += 150
        lines.append(json.dumps({"role": "_usage", "token_count": usage}))

    user(memory)
    step({"role": "assistant", "content": FAKE_RESULT_REPLY})
    user(read)
    step({"role": "assistant", "content": hermes_reply("ReadFile", {"path": "notes.txt"})})
    user(only_text)
    step(
        {
            "role": "assistant",
            "content": [
                {"type": "think", "think": "The user wants the real tool this time."},
                {"type": "text", "text": READING_TEXT},
            ],
            "tool_calls": [call("ReadFile:0", "ReadFile", {"path": "notes.txt"})],
        },
        {"role": "tool", "content": NOTES_TEXT, "tool_call_id": "ReadFile:0"},
    )
    step(
        {
            "role": "assistant",
            "content": "Checking the draft too.",
            "tool_calls": [call("Shell:1", "Shell", {"command": "cat draft.txt"})],
        },
        {
            "role": "tool",
            "content": [
                {"type": "text", "text": "<system>ERROR: Command failed with exit code: 1.</system>"},
                {"type": "text", "text": "cat: draft.txt: No such file or directory\n"},
            ],
            "tool_call_id": "Shell:1",
        },
    )
    step({"role": "assistant", "content": "The notes say the meeting moved to Thursday; there is no draft yet."})
    return lines


def main() -> None:
    """Write the context file into OUT_DIR (default: `sessions/`)."""
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent
    out.mkdir(parents=True, exist_ok=True)
    (out / "kimi-cli.context.jsonl").write_text("\n".join(context()) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
