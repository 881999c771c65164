"""OpenAI Chat files: every shape is read, and written back unchanged or changed only where asked."""

import json
from dataclasses import replace

from inspector.model import ASSISTANT, TOOL, ToolCall, ToolResult, Turn
from inspector.sources import load_sessions, render_sessions
from tests.helpers.files import written

MESSAGES = [
    {"role": "system", "content": "You are a helpful agent.", "x_trace": {"k": 1}},
    {"role": "user", "content": [{"type": "text", "text": "What's the "}, {"type": "text", "text": "weather?"}]},
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Oslo"}'}}
        ],
    },
    {"role": "tool", "tool_call_id": "call_1", "content": '{"temp": 3}'},
    {"role": "assistant", "function_call": {"name": "get_time", "arguments": "{}"}, "content": None},
    {"role": "function", "name": "get_time", "content": "12:00"},
    {"role": "assistant", "content": "It is 3 degrees in Oslo.", "refusal": None},
]


def test_object_shape_turns_calls_and_results(tmp_path):
    path = written(
        tmp_path / "s.json",
        json.dumps(
            {
                "model": "gpt-4o",
                "messages": MESSAGES,
                "tools": [
                    {
                        "type": "function",
                        "function": {
                            "name": "get_weather",
                            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
                        },
                    }
                ],
            }
        ),
    )
    (session,) = load_sessions(path)
    assert session.format == "openai"
    assert [t.role for t in session.turns] == ["system", "user", "assistant", "tool", "assistant", "tool", "assistant"]
    assert session.turns[1].text == "What's the weather?"
    call = session.turns[2].tool_calls[0]
    assert (call.id, call.name, call.arguments_raw, call.arguments) == (
        "call_1",
        "get_weather",
        '{"city": "Oslo"}',
        {"city": "Oslo"},
    )
    assert session.turns[3].tool_results == (ToolResult("call_1", None, '{"temp": 3}'),)
    assert session.turns[4].tool_calls[0].name == "get_time"
    assert session.turns[5].tool_results[0].name == "get_time"
    assert [spec.name for spec in session.tools] == ["get_weather"]


def test_round_trip_without_changes_keeps_the_file_byte_for_byte(tmp_path):
    document = {"model": "gpt-4o", "messages": MESSAGES, "metadata": {"z": 1, "a": 2}}
    for indent in (None, 2, 4):
        text = json.dumps(document, indent=indent)
        sessions = load_sessions(written(tmp_path / f"s{indent}.json", text))
        assert render_sessions(sessions) == text


def test_bare_list_round_trip(tmp_path):
    text = json.dumps(MESSAGES)
    sessions = load_sessions(written(tmp_path / "list.json", text))
    assert len(sessions[0].turns) == len(MESSAGES)
    assert json.loads(render_sessions(sessions)) == MESSAGES


def test_jsonl_keeps_untouched_lines_byte_for_byte(tmp_path):
    lines = [
        json.dumps(m, separators=(",", ":")) if i % 2 else json.dumps(m, indent=None) for i, m in enumerate(MESSAGES)
    ]
    text = "\n".join(lines) + "\n"
    sessions = load_sessions(written(tmp_path / "s.jsonl", text))
    assert render_sessions(sessions) == text
    session = sessions[0]
    edited = replace(session.turns[6], text="It is cold.", edited=True)
    out = render_sessions([replace(session, turns=session.turns[:6] + (edited,))]).splitlines()
    assert out[:6] == lines[:6]
    assert json.loads(out[6]) == {**MESSAGES[6], "content": "It is cold."}


def test_jsonl_with_a_bad_line_reports_it_and_keeps_it(tmp_path):
    text = json.dumps(MESSAGES[0]) + "\n{oops\n" + json.dumps(MESSAGES[1]) + "\n"
    (session,) = load_sessions(written(tmp_path / "bad.jsonl", text))
    assert [t.position for t in session.turns] == [0, 2]
    assert any("line 2" in p for p in session.problems)
    assert render_sessions([session]) == text


def test_fine_tuning_jsonl_is_one_session_per_line(tmp_path):
    examples = [{"messages": MESSAGES[:2], "tools": []}, {"messages": MESSAGES[2:4]}]
    text = "".join(json.dumps(e) + "\n" for e in examples)
    sessions = load_sessions(written(tmp_path / "ft.jsonl", text))
    assert [s.session_id for s in sessions] == ["line 1", "line 2"]
    assert [len(s.turns) for s in sessions] == [2, 2]
    changed = replace(sessions[1], turns=(Turn(0, ASSISTANT, "hello"),) + sessions[1].turns)
    out = render_sessions([sessions[0], changed]).splitlines()
    assert out[0] == json.dumps(examples[0])
    assert json.loads(out[1])["messages"][0] == {"role": "assistant", "content": "hello"}


def test_odd_record_is_reported_and_survives(tmp_path):
    messages = [
        MESSAGES[0],
        "not a message",
        {"content": "no role"},
        {"role": ["user"], "content": "x"},
        MESSAGES[6],
        MESSAGES[1],
        MESSAGES[0],
    ]
    (session,) = load_sessions(written(tmp_path / "odd.json", json.dumps({"messages": messages})))
    assert [t.position for t in session.turns] == [0, 4, 5, 6]
    assert len(session.problems) == 3 and "message 1" in session.problems[0]
    edited = replace(session.turns[1], text="changed", edited=True)
    out = json.loads(render_sessions([replace(session, turns=(session.turns[0], edited) + session.turns[2:])]))
    assert out["messages"][1:4] == messages[1:4]
    assert out["messages"][4]["content"] == "changed"


def test_each_odd_record_is_named_once_and_a_null_is_skipped_quietly(tmp_path):
    messages = [
        MESSAGES[0],
        MESSAGES[1],
        42,
        None,
        ["user", "hi"],
        {"role": 5},
        {"role": "robot", "content": "beep"},
        {"role": {"r": 1}},
        MESSAGES[6],
        MESSAGES[1],
        MESSAGES[6],
    ]
    (session,) = load_sessions(written(tmp_path / "odd.json", json.dumps({"messages": messages})))
    assert [t.position for t in session.turns] == [0, 1, 8, 9, 10]
    assert session.problems == tuple(f"message {i}: not a message with a known role, skipped" for i in (2, 4, 5, 6, 7))


def test_inserted_turns_are_written_as_native_calls_and_results(tmp_path):
    (session,) = load_sessions(written(tmp_path / "s.json", json.dumps({"messages": MESSAGES})))
    call = ToolCall("call_inspector_6_0", "save_memory", {"content": "x"}, {"content": "x"}, "recovered")
    added = (
        Turn(6, ASSISTANT, "", tool_calls=(call,)),
        Turn(6, TOOL, "", tool_results=(ToolResult(call.id, call.name, "not executed"),)),
    )
    repaired = replace(session, turns=session.turns[:6] + added + session.turns[6:])
    out = json.loads(render_sessions([repaired]))["messages"]
    assert out[6] == {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "call_inspector_6_0",
                "type": "function",
                "function": {"name": "save_memory", "arguments": '{"content": "x"}'},
            }
        ],
    }
    assert out[7] == {"role": "tool", "tool_call_id": "call_inspector_6_0", "content": "not executed"}
    assert out[8] == MESSAGES[6]


def test_edit_of_list_content_changes_only_the_part_it_cut(tmp_path):
    messages = [
        {
            "role": "assistant",
            "content": [
                {"type": "text", "text": "{a: 1}"},
                {"type": "image_url", "image_url": {"url": "x"}},
                {"type": "text", "text": "Hello"},
            ],
        }
    ]
    (session,) = load_sessions(written(tmp_path / "parts.json", json.dumps({"messages": messages})))
    edited = replace(session.turns[0], text="Hello", edited=True)
    out = json.loads(render_sessions([replace(session, turns=(edited,))]))
    assert out["messages"][0]["content"] == messages[0]["content"][1:]


def test_replaced_arguments_are_written_as_a_json_string(tmp_path):
    (session,) = load_sessions(written(tmp_path / "s.json", json.dumps({"messages": MESSAGES})))
    turn = session.turns[2]
    fixed_call = replace(turn.tool_calls[0], arguments_raw={"city": "Bergen"}, arguments={"city": "Bergen"})
    edited = replace(turn, tool_calls=(fixed_call,), edited=True)
    turns = list(session.turns)
    turns[2] = edited
    out = json.loads(render_sessions([replace(session, turns=tuple(turns))]))
    assert out["messages"][2]["tool_calls"][0]["function"]["arguments"] == '{"city": "Bergen"}'
    assert out["messages"][2]["tool_calls"][0]["id"] == "call_1"
