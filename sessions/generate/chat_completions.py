"""OpenAI Chat Completions answers for the scripted model (`mock_server.py`), for the tools that
talk to it through litellm (mini-swe-agent, Aider).

Standard library only. `completion(text, calls)` is one non-streaming answer; `tool_call(...)`
one call in it, its arguments a string sent as written (broken JSON included); `replies_so_far`
counts the assistant messages already in a request, which is how a script picks its next answer.
"""

from __future__ import annotations

import time
from typing import Any

from mock_server import Reply, js


def tool_call(call_id: str, name: str, arguments: str) -> dict[str, Any]:
    """One call of a Chat Completions message, `arguments` sent verbatim."""
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


def completion(text: str | None, calls: list[dict[str, Any]] | None = None, model: str = "mock") -> Reply:
    """A `chat.completion` holding one assistant message: `text` and, when given, `calls`."""
    message: dict[str, Any] = {"role": "assistant", "content": text}
    if calls:
        message["tool_calls"] = calls
    return js(
        {
            "id": f"chatcmpl-mock-{time.monotonic_ns()}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": model,
            "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls" if calls else "stop"}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20},
        }
    )


def replies_so_far(body: Any) -> int:
    """How many assistant messages the request's history already holds."""
    messages = body.get("messages") if isinstance(body, dict) else None
    return sum(1 for m in messages or () if isinstance(m, dict) and m.get("role") == "assistant")
