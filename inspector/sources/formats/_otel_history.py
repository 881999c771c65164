"""The input messages of a conversation's model calls in the GenAI convention, decoded in order,
each call's `gen_ai.input.messages` text only past the history the previous call already sent."""

from __future__ import annotations

from typing import Any

from inspector.model import SYSTEM
from inspector.sources.formats._otel_messages import CallMessages, json_value, listed


class History:
    """A call's input messages: `head` (its system instructions), then the messages of `text`, the
    first `skipped` of which repeat the previous call's and are decoded only if asked for."""

    def __init__(self, head: list[Any], skipped: int, tail: list[Any], text: str | None) -> None:
        self._head, self._skipped, self._tail, self._text = head, skipped, tail, text
        self._whole: list[Any] | None = None

    def __len__(self) -> int:
        return len(self._head) + self._skipped + len(self._tail)

    def __getitem__(self, index: int) -> Any:
        if index < len(self._head):
            return self._head[index]
        index -= len(self._head)
        if index >= self._skipped:
            return self._tail[index - self._skipped]
        if self._whole is None:
            self._whole = listed(json_value(self._text))
        return self._whole[index]


class HistoryDecoder:
    """Decodes the `gen_ai.input.messages` texts of one conversation's calls, in order. A call's text
    that starts with the previous call's text (less its closing bracket) repeats that history, so
    only the rest is decoded: a comparison of strings instead of decoding every history again."""

    def __init__(self) -> None:
        self._text: str | None = None
        self._count = 0

    def history(self, call: CallMessages) -> History:
        """The input messages of `call` (the next call of the conversation)."""
        head = [{"role": SYSTEM, "parts": call.instructions}] if call.instructions else []
        text, previous = call.inputs, self._text
        if not isinstance(text, str):
            self._text = None
            return History(head, 0, listed(text), None)
        tail = None
        if (
            previous is not None
            and len(previous) < len(text)
            and previous[-1] == "]"
            and text[len(previous) - 1] == ","
            and text.startswith(previous[:-1])
        ):
            tail = json_value("[" + text[len(previous) :])
        if isinstance(tail, list):
            messages = History(head, self._count, tail, text)
        else:
            messages = History(head, 0, listed(json_value(text)), None)
        self._text, self._count = text, len(messages) - len(head)
        return messages
