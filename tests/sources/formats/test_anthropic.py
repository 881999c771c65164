"""Anthropic Messages files: detected, read into turns, and written back unchanged or changed only where asked."""

import json
from dataclasses import replace

from inspector.model import ASSISTANT, TOOL, USER, ToolCall, ToolResult, Turn
from inspector.sources import FORMATS, load_sessions, render_sessions
from inspector.sources.files.document import read_document
from tests.helpers.files import write_json

TOOLS = [
    {
        "name": "get_weather",
        "description": "Current weather.",
        "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    }
]
MESSAGES = [
    {"role": "user", "content": "What's the weather in Oslo?"},
    {
        "role": "assistant",
        "content": [
            {"type": "thinking", "thinking": "I should call the tool.", "signature": "sig=="},
            {"type": "text", "text": "Let me check."},
            {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Oslo"}},
        ],
    },
    {
        "role": "user",
        "content": [
            {"type": "tool_result", "tool_use_id": "toolu_1", "content": [{"type": "text", "text": "3 degrees"}]}
        ],
    },
    {
        "role": "user",
        "content": [
            {"type": "tool_result", "tool_use_id": "toolu_9", "content": "boom", "is_error": True},
            {"type": "text", "text": "Also, remember I like rain."},
        ],
    },
    {
        "role": "assistant",
        "content": [{"type": "text", "text": "It is 3 degrees. "}, {"type": "text", "text": "Noted."}],
    },
]
DOCUMENT = {
    "model": "claude-sonnet-4-5",
    "max_tokens": 1024,
    "system": "You are terse.",
    "tools": TOOLS,
    "messages": MESSAGES,
    "metadata": {"user_id": "u1"},
}


def test_detected_as_anthropic_but_openai_is_not(tmp_path):
    assert load_sessions(write_json(tmp_path / "session.json", DOCUMENT))[0].format == "anthropic"
    system_only = {"system": "Be brief.", "messages": [{"role": "user", "content": "hi"}]}
    assert FORMATS["anthropic"].claims(read_document(write_json(tmp_path / "system.json", system_only)))
    openai = {
        "messages": [
            {"role": "system", "content": "x"},
            {"role": "user", "content": "hi"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [{"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}],
            },
        ],
        "tools": [{"type": "function", "function": {"name": "f", "parameters": {}}}],
    }
    path = write_json(tmp_path / "openai.json", openai)
    assert not FORMATS["anthropic"].claims(read_document(path))
    assert load_sessions(path)[0].format == "openai"
    plain = {"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]}
    assert not FORMATS["anthropic"].claims(read_document(write_json(tmp_path / "plain.json", plain)))


def test_turns_roles_text_calls_and_results(tmp_path):
    (session,) = load_sessions(write_json(tmp_path / "session.json", DOCUMENT))
    assert [t.role for t in session.turns] == [USER, ASSISTANT, TOOL, USER, ASSISTANT]
    assert [t.position for t in session.turns] == [0, 1, 2, 3, 4]
    assert session.turns[1].text == "Let me check."
    assert session.turns[1].tool_calls == (ToolCall("toolu_1", "get_weather", {"city": "Oslo"}, {"city": "Oslo"}),)
    assert session.turns[2].tool_results == (ToolResult("toolu_1", "get_weather", "3 degrees"),)
    assert session.turns[3].tool_results == (ToolResult("toolu_9", None, "boom", True),)
    assert session.turns[3].text == "Also, remember I like rain."
    assert session.turns[4].text == "It is 3 degrees. Noted."
    assert [spec.name for spec in session.tools] == ["get_weather"]
    assert session.tools[0].required == {"city"}


def test_round_trip_without_changes_keeps_the_file_byte_for_byte(tmp_path):
    for indent in (None, 2):
        text = json.dumps(DOCUMENT, indent=indent)
        path = tmp_path / f"s{indent}.json"
        path.write_text(text, encoding="utf-8")
        assert render_sessions(load_sessions(path)) == text  # byte for byte, no final line break added


def test_edit_changes_only_that_message_and_drops_emptied_text_blocks(tmp_path):
    (session,) = load_sessions(write_json(tmp_path / "session.json", DOCUMENT))
    turns = list(session.turns)
    turns[4] = replace(turns[4], text="Noted.", edited=True)
    turns[0] = replace(turns[0], text="Weather in Oslo?", edited=True)
    out = json.loads(render_sessions([replace(session, turns=tuple(turns))]))
    assert out["messages"][4] == {"role": "assistant", "content": [{"type": "text", "text": "Noted."}]}
    assert out["messages"][0] == {"role": "user", "content": "Weather in Oslo?"}
    assert out["messages"][1:4] == MESSAGES[1:4]
    assert {k: v for k, v in out.items() if k != "messages"} == {k: v for k, v in DOCUMENT.items() if k != "messages"}


def test_replaced_input_is_written_as_an_object(tmp_path):
    (session,) = load_sessions(write_json(tmp_path / "session.json", DOCUMENT))
    turn = session.turns[1]
    fixed = replace(turn.tool_calls[0], arguments_raw={"city": "Bergen"}, arguments={"city": "Bergen"})
    turns = list(session.turns)
    turns[1] = replace(turn, tool_calls=(fixed,), edited=True)
    out = json.loads(render_sessions([replace(session, turns=tuple(turns))]))
    assert out["messages"][1]["content"][2] == {
        "type": "tool_use",
        "id": "toolu_1",
        "name": "get_weather",
        "input": {"city": "Bergen"},
    }
    assert out["messages"][1]["content"][:2] == MESSAGES[1]["content"][:2]


def test_inserted_turns_are_native_tool_use_and_tool_result_blocks(tmp_path):
    path = write_json(tmp_path / "session.json", DOCUMENT)
    (session,) = load_sessions(path)
    call = ToolCall("toolu_x", "save_memory", {"content": "likes rain"}, {"content": "likes rain"}, origin="recovered")
    added = (
        Turn(4, ASSISTANT, "", tool_calls=(call,)),
        Turn(4, TOOL, "", tool_results=(ToolResult("toolu_x", "save_memory", "recovered from text, not executed"),)),
    )
    text = render_sessions([replace(session, turns=session.turns[:4] + added + session.turns[4:])])
    out = json.loads(text)["messages"]
    assert out[4] == {
        "role": "assistant",
        "content": [{"type": "tool_use", "id": "toolu_x", "name": "save_memory", "input": {"content": "likes rain"}}],
    }
    assert out[5] == {
        "role": "user",
        "content": [{"type": "tool_result", "tool_use_id": "toolu_x", "content": "recovered from text, not executed"}],
    }
    assert out[:4] == MESSAGES[:4] and out[6] == MESSAGES[4]
    path.write_text(text, encoding="utf-8")
    (again,) = load_sessions(path)
    assert again.turns[4].tool_calls[0].arguments == {"content": "likes rain"}
    assert again.turns[5].role == TOOL
    assert again.turns[5].tool_results == (ToolResult("toolu_x", "save_memory", "recovered from text, not executed"),)


def test_new_assistant_turn_with_text_and_a_result_that_is_not_text(tmp_path):
    (session,) = load_sessions(write_json(tmp_path / "session.json", DOCUMENT))
    call = ToolCall("toolu_y", "get_weather", None, None, origin="recovered")
    added = (
        Turn(4, ASSISTANT, "Checking.", tool_calls=(call,)),
        Turn(4, TOOL, "", tool_results=(ToolResult("toolu_y", "get_weather", {"temp": 3}, True),)),
    )
    out = json.loads(render_sessions([replace(session, turns=session.turns[:4] + added + session.turns[4:])]))
    assert out["messages"][4]["content"] == [
        {"type": "text", "text": "Checking."},
        {"type": "tool_use", "id": "toolu_y", "name": "get_weather", "input": {}},
    ]
    assert out["messages"][5]["content"] == [
        {"type": "tool_result", "tool_use_id": "toolu_y", "content": '{"temp": 3}', "is_error": True}
    ]


def test_odd_records_are_reported_skipped_and_kept(tmp_path):
    messages = [MESSAGES[0], "junk", {"role": "human", "content": "no"}, MESSAGES[1]]
    (session,) = load_sessions(write_json(tmp_path / "session.json", {"messages": messages}))
    assert session.format == "anthropic"
    assert [t.position for t in session.turns] == [0, 3]
    assert len(session.problems) == 2 and session.problems[0].startswith("message 1:")
    edited = replace(session.turns[1], text="Checking now.", edited=True)
    out = json.loads(render_sessions([replace(session, turns=(session.turns[0], edited))]))
    assert out["messages"][1:3] == ["junk", {"role": "human", "content": "no"}]
    assert out["messages"][3]["content"][1] == {"type": "text", "text": "Checking now."}
