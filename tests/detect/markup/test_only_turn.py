"""A reply that was nothing but a leaked call becomes that call when fixed, in every format: no
empty assistant message is left behind (the Anthropic and Gemini APIs reject one)."""

import json

import pytest

from inspector.cli.main import main
from inspector.model import NOT_EXECUTED
from inspector.sources import load_sessions

LEAK = '<tool_call>{"name": "get_weather", "arguments": {"city": "Oslo"}}</tool_call>'
SCHEMA = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}

DOCUMENTS = {
    "openai": {
        "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": SCHEMA}}],
        "messages": [
            {"role": "user", "content": "Weather in Oslo?"},
            {"role": "assistant", "content": LEAK},
            {"role": "user", "content": "Well?"},
        ],
    },
    "anthropic": {
        "tools": [{"name": "get_weather", "input_schema": SCHEMA}],
        "messages": [
            {"role": "user", "content": "Weather in Oslo?"},
            {"role": "assistant", "content": [{"type": "text", "text": LEAK}]},
            {"role": "user", "content": "Well?"},
        ],
    },
    "gemini": {
        "tools": [{"functionDeclarations": [{"name": "get_weather", "parameters": SCHEMA}]}],
        "contents": [
            {"role": "user", "parts": [{"text": "Weather in Oslo?"}]},
            {"role": "model", "parts": [{"text": LEAK}]},
            {"role": "user", "parts": [{"text": "Well?"}]},
        ],
    },
    "session-dump": {
        "session_id": "s1",
        "dumped_at": "2026-11-01T10:00:00",
        "entry_count": 3,
        "entries": [
            {"role": "user", "node_type": "user", "content": "Weather in Oslo?", "timestamp": 1.0},
            {"role": "assistant", "node_type": "turn_output", "content": LEAK, "timestamp": 2.0},
            {"role": "user", "node_type": "follow_up", "content": "Well?", "timestamp": 3.0},
        ],
    },
}


@pytest.mark.parametrize("name", DOCUMENTS)
def test_the_leaked_call_replaces_the_empty_reply(tmp_path, name, capsys):
    source, out = tmp_path / f"{name}.json", tmp_path / "fixed.json"
    source.write_text(json.dumps(DOCUMENTS[name]))
    assert main(["fix", str(source), "--accept", "tool-markup", "-o", str(out)]) == 0
    (session,) = load_sessions(out)
    roles = [(turn.role, [call.name for call in turn.tool_calls]) for turn in session.turns]
    assert roles == [("user", []), ("assistant", ["get_weather"]), ("tool", []), ("user", [])]
    assert session.turns[1].text == ""
    call, result = session.turns[1].tool_calls[0], session.turns[2].tool_results[0]
    assert call.arguments == {"city": "Oslo"}
    assert NOT_EXECUTED in json.dumps(result.content)  # Gemini wraps a text result in {"result": ...}
    assert main(["scan", str(out)]) == 0
