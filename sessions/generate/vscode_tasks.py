#!/usr/bin/env python3
"""Build the task files of the VS Code extensions Cline, Roo Code and Kilo Code from their storage code.

Usage:
    python3 sessions/generate/vscode_tasks.py [OUT_DIR] [--folders]

The extensions run only inside VS Code, which cannot run here, so these files are NOT written by
the tools: they are built, message by message, the way the extensions' source builds and saves
them, with the scenario's turns (scenario.py).  OUT_DIR defaults to sessions/; each extension's
`api_conversation_history.json` goes to OUT_DIR/<extension>.api_conversation_history.json.  With
`--folders`, OUT_DIR gets the whole `globalStorage/<extension id>/` tree instead: `tasks/<id>/`
with `api_conversation_history.json`, `ui_messages.json` and `task_metadata.json`, and
`state/taskHistory.json`.

Where each shape comes from:
- Cline, tool calls as XML in the reply's text (the extension before native tool calls; `cline`), from
  cline/cline `apps/vscode/src/core/storage/disk.ts` (`GlobalFileNames`: the file names,
  `JSON.stringify(history)` with no indentation), `apps/vscode/src/core/task/index.ts` (the first
  user message `<task>\\n…\\n</task>`, each message's `ts`, a reply's `modelInfo` and
  `metrics`), `apps/vscode/src/core/assistant-message/parse-assistant-message.ts` and
  `index.ts` (the XML grammar `<tool><param>value</param></tool>`, the tool and parameter
  names in `apps/vscode/src/shared/tools.ts`), `tools/utils/ToolResultUtils.ts` and the
  handlers' `getDescription` (a result is the user text `[read_file for 'notes.txt'] Result:\\n…`),
  `AskFollowupQuestionToolHandler.ts` (`<answer>`), `AttemptCompletionHandler.ts` (the
  feedback blocks).
- Cline, native tool calls (`cline.native`): the same files; `ToolResultUtils.createToolResultBlock`
  (a `tool_result {tool_use_id, call_id, content}` holding the same described text, or the
  feedback's blocks), `index.ts` (the reply's `tool_use` blocks after its text).
- Roo Code, native tool calls, from RooCodeInc/Roo-Code `src/core/task-persistence/apiMessages.ts`
  (`ApiMessage`: Anthropic messages with `ts`, written by `safeWriteJson`, no indentation),
  `src/core/task/Task.ts` (`<user_message>\\n…\\n</user_message>`, the `<environment_details>`
  block last in a user message), `src/core/assistant-message/presentAssistantMessage.ts`
  (`tool_result {tool_use_id, content}`, the content the tool's text) and
  `src/core/prompts/tools/native-tools/*.ts` (`read_file {path}`, `execute_command {command}`,
  `ask_followup_question {question, follow_up}`, `attempt_completion {result}`).
- Kilo Code, native tool calls: the same code in Kilo-Org/kilocode (`src/core/task/Task.ts`,
  `src/core/assistant-message/NativeToolCallParser.ts`, `presentAssistantMessage.ts`), so the
  same shape under its own extension id.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from scenario import FAKE_RESULT_REPLY, NOTES_TEXT, READING_TEXT, hermes_reply, user_turns

WORK = "/tmp/vs-work"
START = 1795800000000  # the first message's ts; each next one a second later
FINAL = "notes.txt says the meeting moved to Thursday, and `echo hi` printed hi."
FEEDBACK = (
    "The user has provided feedback on the results. Consider their input to continue the task, "
    "and then attempt completion again."
)
QUESTION = "Shall I read notes.txt with a tool?"
EXTENSIONS = {
    "cline": ("saoudrizwan.claude-dev", "1795800000000"),
    "cline.native": ("saoudrizwan.claude-dev", "1795800100000"),
    "roo-code": ("rooveterinaryinc.roo-cline", "0f1c2d3e-4a5b-4c6d-8e7f-901234567890"),
    "kilo-code": ("kilocode.kilo-code", "7a6b5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c2d"),
}


def environment_details(mode: str) -> str:
    """The `<environment_details>` block the extensions add to each user message."""
    return (
        "<environment_details>\n# VSCode Visible Files\n(No visible files)\n\n# VSCode Open Tabs\n"
        f"(No open tabs)\n\n# Current Working Directory ({WORK}) Files\nnotes.txt\n\n# Current Mode\n{mode}\n"
        "</environment_details>"
    )


def text(value: str) -> dict:
    """A text block."""
    return {"type": "text", "text": value}


def cline_xml() -> list[dict]:
    """Cline's history when the model writes its tool calls as XML in the reply's text."""
    turns = user_turns("Use the real read_file tool on notes.txt, then execute_command: echo hi.")
    env = environment_details("ACT MODE")
    replies_and_answers = [
        (
            FAKE_RESULT_REPLY + "\n\n<attempt_completion>\n<result>\nSaved.\n</result>\n</attempt_completion>",
            [text("[attempt_completion] Result:"), text(FEEDBACK), text(f"<feedback>\n{turns[1]}\n</feedback>")],
        ),
        (
            hermes_reply("read_file", {"path": "notes.txt"})
            + f"\n\n<ask_followup_question>\n<question>{QUESTION}</question>\n</ask_followup_question>",
            [text(f"[ask_followup_question for '{QUESTION}'] Result:\n<answer>\n{turns[2]}\n</answer>")],
        ),
        (
            f"{READING_TEXT}\n\n<read_file>\n<path>notes.txt</path>\n</read_file>",
            [text(f"[read_file for 'notes.txt'] Result:\n{NOTES_TEXT}")],
        ),
        (
            "<execute_command>\n<command>echo hi</command>\n<requires_approval>false</requires_approval>\n"
            "</execute_command>",
            [text("[execute_command for 'echo hi'] Result:\nCommand executed.\nOutput:\nhi")],
        ),
    ]
    messages = [{"role": "user", "content": [text(f"<task>\n{turns[0]}\n</task>"), text(env)]}]
    for reply, answer in replies_and_answers:
        messages.append({"role": "assistant", "content": [text(reply)]})
        messages.append({"role": "user", "content": [*answer, text(env)]})
    messages.append(
        {
            "role": "assistant",
            "content": [text(f"<attempt_completion>\n<result>\n{FINAL}\n</result>\n</attempt_completion>")],
        }
    )
    model = {"modelId": "mock-model", "providerId": "openai", "mode": "act"}
    metrics = {"tokens": {"prompt": 500, "completion": 40, "cached": 0}, "cost": 0}
    for number, message in enumerate(messages):
        message["ts"] = START + 1000 * number
        if message["role"] == "assistant":
            message.update(modelInfo=model, metrics=metrics)
    return messages


def cline_native() -> list[dict]:
    """Cline's history with native tool calls: `tool_use` blocks, and `tool_result` blocks (with the
    call's `call_id`) whose content is the same `[tool for '…'] Result:` text, or the blocks of a
    completion's feedback."""
    turns = user_turns("Use the real read_file tool on notes.txt, then execute_command: echo hi.")
    env = environment_details("ACT MODE")
    calls = [
        (
            FAKE_RESULT_REPLY,
            "attempt_completion",
            {"result": "Saved."},
            [text(FEEDBACK), text(f"<feedback>\n{turns[1]}\n</feedback>")],
        ),
        (
            hermes_reply("read_file", {"path": "notes.txt"}),
            "ask_followup_question",
            {"question": QUESTION},
            f"[ask_followup_question for '{QUESTION}'] Result:\n<answer>\n{turns[2]}\n</answer>",
        ),
        (READING_TEXT, "read_file", {"path": "notes.txt"}, f"[read_file for 'notes.txt'] Result:\n{NOTES_TEXT}"),
        (
            "",
            "execute_command",
            {"command": "echo hi", "requires_approval": False},
            "[execute_command for 'echo hi'] Result:\nCommand executed.\nOutput:\nhi",
        ),
    ]
    messages = [{"role": "user", "content": [text(f"<task>\n{turns[0]}\n</task>"), text(env)]}]
    for number, (reply, name, arguments, result) in enumerate(calls):
        call_id = f"toolu_cline_{number:02d}"
        content = ([text(reply)] if reply else []) + [
            {"type": "tool_use", "id": call_id, "name": name, "input": arguments, "call_id": f"call_cline_{number:02d}"}
        ]
        messages.append({"role": "assistant", "content": content})
        answer = {
            "type": "tool_result",
            "tool_use_id": call_id,
            "call_id": f"call_cline_{number:02d}",
            "content": result,
        }
        messages.append({"role": "user", "content": [answer, text(env)]})
    last = {"type": "tool_use", "id": "toolu_cline_04", "name": "attempt_completion", "input": {"result": FINAL}}
    messages.append({"role": "assistant", "content": [last]})
    model = {"modelId": "mock-model", "providerId": "openai", "mode": "act"}
    metrics = {"tokens": {"prompt": 500, "completion": 40, "cached": 0}, "cost": 0}
    for number, message in enumerate(messages):
        message["ts"] = START + 1000 * number
        if message["role"] == "assistant":
            message.update(modelInfo=model, metrics=metrics)
    return messages


def native(prefix: str) -> list[dict]:
    """Roo Code's (and Kilo Code's) history with native tool calls; ``prefix`` starts the call ids."""
    turns = user_turns("Use the real read_file tool on notes.txt, then execute_command: echo hi.")
    env = environment_details("<slug>code</slug>\n<name>💻 Code</name>")
    calls = [
        (
            FAKE_RESULT_REPLY,
            "attempt_completion",
            {"result": "Saved."},
            f"{FEEDBACK}\n<feedback>\n{turns[1]}\n</feedback>",
        ),
        (
            hermes_reply("read_file", {"path": "notes.txt"}),
            "ask_followup_question",
            {"question": QUESTION, "follow_up": [{"text": "Yes"}, {"text": "No"}]},
            f"<answer>\n{turns[2]}\n</answer>",
        ),
        (
            READING_TEXT,
            "read_file",
            {"path": "notes.txt"},
            f"File: notes.txt\n1 | {NOTES_TEXT.splitlines()[0]}\n2 | {NOTES_TEXT.splitlines()[1]}",
        ),
        (
            "",
            "execute_command",
            {"command": "echo hi"},
            f"Command executed in terminal within working directory '{WORK}'. Exit code: 0\nOutput:\nhi",
        ),
    ]
    messages = [{"role": "user", "content": [text(f"<user_message>\n{turns[0]}\n</user_message>"), text(env)]}]
    for number, (reply, name, arguments, result) in enumerate(calls):
        call_id = f"{prefix}{number:02d}"
        content = ([text(reply)] if reply else []) + [
            {"type": "tool_use", "id": call_id, "name": name, "input": arguments}
        ]
        messages.append({"role": "assistant", "content": content})
        messages.append(
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": call_id, "content": result}, text(env)]}
        )
    messages.append(
        {
            "role": "assistant",
            "content": [
                {
                    "type": "tool_use",
                    "id": f"{prefix}{len(calls):02d}",
                    "name": "attempt_completion",
                    "input": {"result": FINAL},
                }
            ],
        }
    )
    for number, message in enumerate(messages):
        message["ts"] = START + 1000 * number
    return messages


def ui_messages(history: list[dict]) -> list[dict]:
    """The task's `ui_messages.json`: a `say: task` first, then a `say: text` per reply."""
    first = history[0]["content"][0]["text"].split("\n", 1)[1].rsplit("\n", 1)[0]
    said = [{"ts": history[0]["ts"], "type": "say", "say": "task", "text": first}]
    for message in history[1:]:
        if message["role"] == "assistant":
            words = "".join(b.get("text", "") for b in message["content"])
            said.append({"ts": message["ts"], "type": "say", "say": "text", "text": words, "partial": False})
    return said


def main() -> None:
    """Write each extension's history (or, with --folders, its whole globalStorage tree)."""
    ap = argparse.ArgumentParser()
    ap.add_argument("out", nargs="?", default=str(HERE.parent))
    ap.add_argument("--folders", action="store_true", help="write the globalStorage/<extension id>/ trees")
    args = ap.parse_args()
    out = Path(args.out)
    histories = {
        "cline": cline_xml(),
        "cline.native": cline_native(),
        "roo-code": native("toolu_roo_"),
        "kilo-code": native("call_kilo_"),
    }
    for name, history in histories.items():
        body = json.dumps(history, ensure_ascii=False, separators=(",", ":"))
        if not args.folders:
            (out / f"{name}.api_conversation_history.json").write_text(body)
            continue
        extension, task_id = EXTENSIONS[name]
        task = out / extension / "tasks" / task_id
        task.mkdir(parents=True, exist_ok=True)
        (task / "api_conversation_history.json").write_text(body)
        (task / "ui_messages.json").write_text(json.dumps(ui_messages(history), separators=(",", ":")))
        (task / "task_metadata.json").write_text(json.dumps({"files_in_context": [], "model_usage": []}))
        state = out / extension / "state"
        state.mkdir(parents=True, exist_ok=True)
        item = {"id": task_id, "ts": history[-1]["ts"], "task": user_turns("")[0], "tokensIn": 0, "tokensOut": 0}
        (state / "taskHistory.json").write_text(json.dumps([{**item, "cwdOnTaskInitialization": WORK}]))
    print(f"wrote {', '.join(histories)} into {out}")


if __name__ == "__main__":
    main()
