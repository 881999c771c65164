"""Open WebUI's chat JSON, as its reader and its writer see it: the branch of messages a chat
shows (`shown_messages`), and the `<details type="tool_calls" ...>` tags an assistant's content
carries its calls in, split from its text (`split_content`) and written back with a repaired text
and calls (`repaired_content`). The tags are found by one regular expression whose parts never
overlap: linear in the content's length."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Sequence
from typing import Any

from inspector.model import ToolCall
from inspector.sources.messages.records import spread_text
from inspector.sources.sql.rows import json_or_none

DETAILS = re.compile(r'<details type="tool_calls"(?P<attributes>[^>]*)>.*?</details>\n?', re.DOTALL)
ATTRIBUTE = re.compile(r'(\w+)="([^"]*)"')


def shown_messages(chat: Any) -> list[dict[str, Any]]:
    """The messages of the branch the chat shows, oldest first."""
    if not isinstance(chat, dict):
        return []
    history = chat.get("history") if isinstance(chat.get("history"), dict) else {}
    by_id = history.get("messages") if isinstance(history.get("messages"), dict) else {}
    current, branch, seen = history.get("currentId"), [], set()
    while current in by_id and current not in seen and isinstance(by_id[current], dict):
        seen.add(current)
        branch.append(by_id[current])
        current = by_id[current].get("parentId")
    if branch:
        return branch[::-1]
    linear = chat.get("messages")
    return [m for m in linear if isinstance(m, dict)] if isinstance(linear, list) else []


def split_content(content: str) -> tuple[list[str], list[dict[str, str]]]:
    """The text pieces around the `<details type="tool_calls">` tags, and each tag's attributes."""
    texts, tags, cursor = [], [], 0
    for match in DETAILS.finditer(content):
        texts.append(content[cursor : match.start()])
        tags.append({key: html.unescape(value) for key, value in ATTRIBUTE.findall(match["attributes"])})
        cursor = match.end()
    texts.append(content[cursor:])
    return texts, tags


def repaired_content(content: str, new_text: str, calls: Sequence[ToolCall]) -> str:
    """The assistant content with its text (the pieces around the details tags) replaced by
    `new_text`, spread over the pieces as `spread_text` does, and each tag's `name` and `arguments`
    taken from the turn's call in its place (a renamed call, repaired arguments); the tags' other
    attributes are kept as they were."""
    tags = [
        _with_call(match.group(0), calls[index] if index < len(calls) else None)
        for index, match in enumerate(DETAILS.finditer(content))
    ]
    texts = spread_text(split_content(content)[0], new_text)
    return "".join(text + tag for text, tag in zip(texts, tags + [""]))


def _with_call(tag: str, call: ToolCall | None) -> str:
    """A details tag with its `name` and (when a repair replaced them) `arguments` set from `call`,
    encoded as the tag had them (JSON, or JSON in a JSON string), HTML-escaped."""
    if call is None:
        return tag

    def attribute(match: re.Match) -> str:
        key, value = match.group(1), match.group(2)
        if key == "name":
            return f'name="{html.escape(call.name)}"'
        if key == "arguments" and isinstance(call.arguments_raw, dict):
            encoded = json.dumps(call.arguments_raw, ensure_ascii=False)
            twice = isinstance(json_or_none(html.unescape(value)), str)
            return f'arguments="{html.escape(json.dumps(encoded, ensure_ascii=False) if twice else encoded)}"'
        return match.group(0)

    opening = tag[: tag.index(">")]  # the attributes end at the first '>'
    return ATTRIBUTE.sub(attribute, opening) + tag[len(opening) :]
