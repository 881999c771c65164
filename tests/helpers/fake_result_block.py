"""What the `fake-result-block` tests share: the weather tool their sessions declare, a reply with a
leaked Hermes call and the result the model invented for it, one ending on such a result, and the
kinds found on a turn."""

from __future__ import annotations

KIND = "fake-result-block"
WEATHER = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Current weather in a city.",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    },
}
HERMES_REPLY = (
    'Let me check the weather.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Oslo"}}\n'
    '</tool_call>\n<tool_response>\n{"name": "get_weather", "content": {"temperature": 21, '
    '"condition": "sunny"}}\n</tool_response>\nIt is 21 °C and sunny in Oslo.'
)
ENDING_REPLY = (
    'Checking Bergen too.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Bergen"}}\n'
    '</tool_call>\n<tool_response>\n{"temperature": 12}\n</tool_response>'
)


def kinds_at(findings, turn):
    """The kinds of `findings` on `turn`, sorted."""
    return sorted(f.kind for f in findings if f.turn == turn)
