"""A quick look at the last reply, before the readers and detectors are imported: whether it may
hold a finding of the kinds checked at all.

It errs one way only: a reply it passes over holds none of them (a test runs it on every turn
the detectors flag in the samples); a reply it lets through may hold none (the detectors say).
Plain prose with no markup character, no action announced and no failed call, the usual end of a
reply, costs the hook no more than reading the new lines as JSON.
"""

from __future__ import annotations

import json
import re
from typing import Any

from inspector.support.lazy_pattern import lazy_pattern

# What every fake result, fake result block and leaked call markup holds at least one of: an
# object, a list, a tag or special token, a code fence, DeepSeek's bars, a ReAct line, a `TOOL CALL:`.
_MARKUP = lazy_pattern(r"[{\[<`｜|]|observation|action\s*:|tool\s*call", re.I)
_ANNOUNCEMENT_WINDOW = 280  # characters: an announcement starts in the reply's last ones (`detect.announcement`)
_FAILED = lazy_pattern(r"error|exception|traceback|fail", re.I)


def reply_start(lines: bytes, sidechain: bool = False) -> int:
    """Where in these transcript lines the last prompt of the thread starts (0 when none is
    there): the main thread's, or with `sidechain` a subagent's."""
    return _last_reply(lines, sidechain)[0]


def reply_texts(lines: bytes, sidechain: bool = False) -> list[str]:
    """The texts of the thread's last reply in these transcript lines, in order."""
    return _last_reply(lines, sidechain)[1]


def may_hold(lines: bytes, kinds: tuple[str, ...], sidechain: bool = False) -> bool:
    """Whether the thread's last reply in these transcript lines may hold a finding of `kinds`."""
    _, texts, failed = _last_reply(lines, sidechain)
    return reply_may_hold(texts, failed, kinds)


def reply_may_hold(texts: list[str], failed: bool, kinds: tuple[str, ...]) -> bool:
    """Whether a reply may hold a finding of `kinds`, given its texts in order and whether a result
    among them may be a failure. Its calls do not matter: a reply that made some may still end on
    an announcement of one more that it never makes."""
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


def _last_reply(lines: bytes, sidechain: bool) -> tuple[int, list[str], bool]:
    """Read from the end back to the thread's last prompt (a user event with text; the events of
    the other threads, `isSidechain` or not, passed over): where its line starts, the texts of
    the assistant events after it (in order), and whether a result among them may be a failure.
    Only the last reply's lines are parsed."""
    texts: list[str] = []
    failed = False
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
            failed = failed or any(_failed(block) for block in blocks if block.get("type") == "tool_result")
            if any(block.get("type") == "text" for block in blocks):
                return start, texts, failed
        elif event.get("type") == "assistant":
            said = [
                block["text"] for block in blocks if block.get("type") == "text" and isinstance(block.get("text"), str)
            ]
            texts[:0] = said
    return 0, texts, failed


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
