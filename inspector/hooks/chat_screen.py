"""The quick look of the chat-file hooks (Gemini CLI, Qwen Code, Codex, Copilot CLI), before the agent's reader
and the detectors are imported: whether the last reply in the new lines of the chat file may hold
a finding of the kinds checked at all.

It reads the lines from the end back to the last prompt (a person's message with text, as the
agent's reader tells it from the rest), parsing only those, and asks what `screen` asks of a
Claude Code reply: a markup character in the reply's texts, a result that may be a failure, an
announcement at its end. It errs one way only: a record whose place in the reply the reader might
see otherwise (Gemini CLI's rewind or whole `messages` update, a prompt rewritten under an id seen
before; a Qwen Code subagent's record or a break in its `parentUuid` chain) sends the reply to the
reader and detectors, which decide.
"""

from __future__ import annotations

import json
import re
from typing import Any

from inspector.hooks.screen import is_notification, reply_may_hold
from inspector.support.lazy_pattern import lazy_pattern

PROMPT, REPLY, RESULT, OTHER, UNSURE = "prompt", "reply", "result", "other", "unsure"
RELAYED = "relayed"  # a record that may hand back a subagent's answer holding an object (its reply's texts kept)
_FAILED = lazy_pattern(r"error|exception|traceback|fail", re.I)
# The user messages the agents write themselves, read as system turns: copies of the readers' lists
# (`codex.CONTEXT_TAGS`, `_gemini_cli_messages.SESSION_CONTEXT`; a test keeps them equal), so the quick look loads no reader.
GEMINI_CLI_CONTEXT = ("<session_context>", "This is the Gemini CLI. We are setting up the context for our chat.")
CODEX_CONTEXT = (
    "<environment_context>",
    "# agents.md instructions",
    "<user_instructions>",
    "<turn_aborted>",
    "<context_update>",
    "<subagent_notification>",
    "<skills_instructions>",
)

Look = tuple[str, list[str], bool]  # what a record is, the reply's texts it holds, whether it may report a failure


def may_hold_chat(agent: str, lines: bytes, kinds: tuple[str, ...]) -> bool:
    """Whether the last reply in these chat-file lines of `agent` (gemini-cli, qwen-code, codex,
    copilot-cli) may hold a finding of `kinds`."""
    looker = _LOOKERS[agent]()
    texts: list[str] = []
    failed = relayed = False
    end = len(lines)
    while end > 0:
        start = lines.rfind(b"\n", 0, end - 1) + 1
        record = _record(lines[start:end])
        end = start
        if not isinstance(record, dict):
            continue
        kind, said, failing = looker.look(record, lines, start)
        if kind == UNSURE:
            return True
        if kind == PROMPT:
            break
        texts[:0] = said
        failed = failed or failing
        relayed = relayed or kind == RELAYED
    return reply_may_hold(texts, failed, kinds, relayed)


class _GeminiCli:
    """Gemini CLI's chat records: `user` and `gemini` messages, notices, `$set` and `$rewindTo`."""

    def look(self, record: dict[str, Any], lines: bytes, start: int) -> Look:
        update = record.get("$set")
        if "$rewindTo" in record or (isinstance(update, dict) and "messages" in update):
            return UNSURE, [], False
        kind, content = record.get("type"), record.get("content")
        if kind == "gemini":
            calls = record.get("toolCalls")
            delegated = isinstance(calls, list) and any(_named(call) == "invoke_agent" for call in calls)
            return (RELAYED if delegated else REPLY), [_gemini_text(content)], _may_fail(calls)
        if kind != "user":
            return OTHER, [], False
        parts = content if isinstance(content, list) else [content] if isinstance(content, dict) else []
        responses = [part for part in parts if isinstance(part, dict) and "functionResponse" in part]
        text = _gemini_text(content)
        if responses:
            delegated = any(_named(part["functionResponse"]) == "invoke_agent" for part in responses)
            return (UNSURE if text else RELAYED if delegated else RESULT), [], _may_fail(responses)
        if not text or text.startswith(GEMINI_CLI_CONTEXT):
            return OTHER, [], False
        message_id = record.get("id")
        if type(message_id) is not str or lines.find(json.dumps(message_id).encode(), 0, start) >= 0:
            return UNSURE, [], False  # a message rewritten stands where it first was
        return PROMPT, [], False


class _QwenCode:
    """Qwen Code's records: `user`, `assistant` and `tool_result` messages holding Gemini parts, in
    one `parentUuid` chain (each record's parent is the record before it)."""

    def __init__(self) -> None:
        self.parent: Any = None  # the parent the record after this one names

    def look(self, record: dict[str, Any], lines: bytes, start: int) -> Look:
        if record.get("isSidechain") is True or (self.parent is not None and record.get("uuid") != self.parent):
            return UNSURE, [], False
        self.parent = record.get("parentUuid") or None
        message, kind = record.get("message"), record.get("type")
        parts = message.get("parts") if isinstance(message, dict) else None
        if not isinstance(parts, list):
            return OTHER, [], False
        text = "".join(
            part["text"]
            for part in parts
            if isinstance(part, dict) and type(part.get("text")) is str and part.get("thought") is not True
        )
        if kind == "assistant":
            return REPLY, [text], False
        responses = [part for part in parts if isinstance(part, dict) and "functionResponse" in part]
        if kind == "tool_result" or responses:
            return RESULT, [], _may_fail(parts) or _may_fail(record.get("toolCallResult"))
        if kind == "user" and is_notification(text):  # a background subagent's answer: the reply goes on
            return (RELAYED if "{" in text else OTHER), [], False
        return (PROMPT if kind == "user" and text else OTHER), [], False


class _Codex:
    """Codex's rollout lines: the `response_item` lines hold the turns (messages, calls, outputs)."""

    def look(self, record: dict[str, Any], lines: bytes, start: int) -> Look:
        item = record.get("payload")
        if record.get("type") != "response_item" or not isinstance(item, dict):
            return OTHER, [], False
        kind = item.get("type", "message")
        if kind in ("function_call_output", "custom_tool_call_output"):
            output = item.get("output")
            success = output.get("success") if isinstance(output, dict) else None
            failed = success is False or _may_fail(output)
            return (RELAYED if _completed_answer(output) else RESULT), [], failed
        if kind != "message":
            return OTHER, [], False
        content = item.get("content")
        if type(content) is str:
            text = content
        elif isinstance(content, list):
            text = "".join(
                part["text"]
                for part in content
                if isinstance(part, dict)
                and part.get("type") in ("input_text", "output_text")
                and type(part.get("text")) is str
            )
        else:
            return OTHER, [], False
        if item.get("role") == "assistant":
            return REPLY, [text], False
        if item.get("role") != "user" or not text or text[:64].lstrip().lower().startswith(CODEX_CONTEXT):
            return (RELAYED if _completed_answer(text) else OTHER), [], False
        return PROMPT, [], False


class _CopilotCli:
    """GitHub Copilot CLI's events: `user.message`, `assistant.message` and `tool.execution_complete`
    (a subagent's event, one with an `agentId`, sends the reply to the reader)."""

    def look(self, record: dict[str, Any], lines: bytes, start: int) -> Look:
        data, kind = record.get("data"), record.get("type")
        if type(record.get("agentId")) is str or not isinstance(data, dict):
            return (UNSURE if type(record.get("agentId")) is str else OTHER), [], False
        content = data.get("content")
        text = content if type(content) is str else ""
        if kind == "assistant.message":
            return REPLY, [text], False
        if kind == "tool.execution_complete":
            return RESULT, [], data.get("success") is not True or _may_fail(data)
        return (PROMPT if kind == "user.message" and text else OTHER), [], False


_LOOKERS: dict[str, type[_GeminiCli | _QwenCode | _Codex | _CopilotCli]] = {
    "gemini-cli": _GeminiCli,
    "qwen-code": _QwenCode,
    "codex": _Codex,
    "copilot-cli": _CopilotCli,
}


def _named(response: Any) -> Any:
    """The name of the tool a Gemini call or function response is of (a subagent's answer comes
    back as `invoke_agent`'s, its summary holding whatever the subagent said)."""
    return response.get("name") if isinstance(response, dict) else None


def _gemini_text(content: Any) -> str:
    """A Gemini CLI message's text: the string, or its text parts that are not thoughts."""
    if type(content) is str:
        return content
    parts = content if isinstance(content, list) else [content] if isinstance(content, dict) else []
    return "".join(
        part["text"]
        for part in parts
        if isinstance(part, dict) and type(part.get("text")) is str and part.get("thought") is not True
    )


def _completed_answer(value: Any) -> bool:
    """Whether a Codex output or notice may hold a subagent's answer opening with an object: its
    `"completed"` status, with a `{` after it."""
    written = value if isinstance(value, str) else json.dumps(value)
    at = written.find('"completed"')
    return at >= 0 and written.find("{", at) >= 0


def _may_fail(value: Any) -> bool:
    """Whether a result (or the calls holding results) may report a failure: a word of one in it."""
    return value is not None and _FAILED.search(json.dumps(value)) is not None


def _record(line: bytes) -> Any:
    try:
        return json.loads(line)
    except (ValueError, RecursionError):  # (a line nested too deeply to read is passed over, as one not JSON)
        return None
