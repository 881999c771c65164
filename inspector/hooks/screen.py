"""A quick look at the last reply, before the readers and detectors are imported: whether it may
hold a finding of the kinds checked at all.

It errs one way only: a reply it passes over holds none of them (a test runs it on every turn
the detectors flag in the samples); a reply it lets through may hold none (the detectors say).
Plain prose with no markup character, no action announced and no failed call, the usual end of a
reply, costs the hook no more than reading the new lines as JSON.

A subagent's answer handed back to the agent is part of the reply the agent gives on it: the
result of its delegating call, or the notification Claude Code writes as a user message when the
subagent ran in the background (not a prompt of the person's). One holding an object may open
with a fake result (`relayed-fake-result`).
"""

from __future__ import annotations

import json
import re
from typing import Any, NamedTuple

from inspector.support.lazy_pattern import lazy_pattern

# What every fake result, fake result block and leaked call markup holds at least one of: an
# object, a list, a tag or special token, a code fence, DeepSeek's bars, a ReAct line, a `TOOL CALL:`.
_MARKUP = lazy_pattern(r"[{\[<`｜|]|observation|action\s*:|tool\s*call", re.I)
_ANNOUNCEMENT_WINDOW = 280  # characters: an announcement starts in the reply's last ones (`detect.announcement`)
_FAILED = lazy_pattern(r"error|exception|traceback|fail", re.I)
# Copies of `handed_back.NOTIFICATION` and of Claude Code's `DELEGATING_TOOLS` (a test keeps
# them equal), so that the quick look loads no detector.
NOTIFICATION = "<task-notification>"
DELEGATING_TOOLS = frozenset({"Task", "Agent"})


def reply_start(lines: bytes, sidechain: bool = False) -> int:
    """Where in these transcript lines the last prompt of the thread starts (0 when none is
    there): the main thread's, or with `sidechain` a subagent's."""
    return _last_reply(lines, sidechain).start


def reply_texts(lines: bytes, sidechain: bool = False) -> list[str]:
    """The texts of the thread's last reply in these transcript lines, in order."""
    return _last_reply(lines, sidechain).texts


def is_notification(text: str) -> bool:
    """Whether a user message's text is the notice of a background subagent's answer (Claude
    Code's, Qwen Code's)."""
    return text.lstrip().startswith(NOTIFICATION)


class _Reply(NamedTuple):
    """What the quick look reads of the last reply."""

    start: int  # where the line of the prompt it answers starts (0: none in the lines)
    texts: list[str]  # its assistant texts, in order
    failed: bool  # whether a result in it may be a failure
    relayed: bool  # whether a subagent's answer in it holds an object


def may_hold(lines: bytes, kinds: tuple[str, ...], sidechain: bool = False) -> bool:
    """Whether the thread's last reply in these transcript lines may hold a finding of `kinds`."""
    reply = _last_reply(lines, sidechain)
    return reply_may_hold(reply.texts, reply.failed, kinds, reply.relayed)


def reply_may_hold(texts: list[str], failed: bool, kinds: tuple[str, ...], relayed: bool = False) -> bool:
    """Whether a reply may hold a finding of `kinds`, given its texts in order, whether a result
    among them may be a failure and whether a subagent's answer in it holds an object (`relayed`).
    Its calls do not matter: a reply that made some may still end on an announcement of one more
    that it never makes."""
    if relayed and "relayed-fake-result" in kinds:
        return True
    markup = any(_MARKUP.search(text) for text in texts)
    if markup and {"result-prefix", "fake-result-block", "tool-markup"} & set(kinds):
        return True
    if failed and "claimed-success" in kinds:
        return True
    return "narrated-action" in kinds and bool(texts) and _may_announce(texts[-1][-_ANNOUNCEMENT_WINDOW:].lower())


def _may_announce(ending: str) -> bool:
    """Whether the end of a reply (in lower case) holds a word every announcement of an action
    does: the words `detect.announcement` looks for before it reads a sentence."""
    return any(word in ending for word in ("let", "will", "going to", "about to", "'ll", "\u2019ll")) or (
        "ing" in ending and any(word in ending for word in ("now", "...", "\u2026"))
    )


def _last_reply(lines: bytes, sidechain: bool) -> _Reply:
    """Read from the end back to the thread's last prompt (a user event with text, not a
    subagent's notification; the events of the other threads, `isSidechain` or not, passed over):
    where its line starts, the texts of the assistant events after it (in order), whether a result
    among them may be a failure, and whether a subagent's answer holds an object. Only the last
    reply's lines are parsed."""
    texts: list[str] = []
    failed = relayed = False
    with_objects: set[str] = set()  # the ids of the calls whose results hold an object
    end = len(lines)
    while end > 0:
        start = lines.rfind(b"\n", 0, end - 1) + 1
        event = _event(lines[start:end])
        end = start
        message = event.get("message") if isinstance(event, dict) else None
        if not isinstance(message, dict) or (event.get("isSidechain") is True) != sidechain:
            continue
        blocks = _blocks(message.get("content"))
        if event.get("type") == "user":
            results = [block for block in blocks if block.get("type") == "tool_result"]
            failed = failed or any(_failed(block) for block in results)
            with_objects.update(
                block["tool_use_id"]
                for block in results
                if isinstance(block.get("tool_use_id"), str) and "{" in json.dumps(block.get("content"))
            )
            written = _texts(blocks)
            if written and all(is_notification(text) for text in written):
                relayed = relayed or any("{" in text for text in written)
            elif any(block.get("type") == "text" for block in blocks):
                return _Reply(start, texts, failed, relayed)
        elif event.get("type") == "assistant":
            texts[:0] = _texts(blocks)
            relayed = relayed or any(
                block.get("type") == "tool_use"
                and block.get("name") in DELEGATING_TOOLS
                and block.get("id") in with_objects
                for block in blocks
                if isinstance(block.get("id"), str)
            )
    return _Reply(0, texts, failed, relayed)


def _texts(blocks: list[dict[str, Any]]) -> list[str]:
    """The texts of a message's text blocks, in order."""
    return [block["text"] for block in blocks if block.get("type") == "text" and isinstance(block.get("text"), str)]


def _event(line: bytes) -> Any:
    try:
        return json.loads(line)
    except (ValueError, RecursionError):  # (a line nested too deeply to read is passed over, as one not JSON)
        return None


def _blocks(content: Any) -> list[dict[str, Any]]:
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return [block for block in content if isinstance(block, dict)] if isinstance(content, list) else []


def _failed(block: dict[str, Any]) -> bool:
    return block.get("is_error") is True or _FAILED.search(json.dumps(block.get("content"))) is not None
