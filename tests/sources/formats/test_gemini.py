"""Gemini files (requests, CLI checkpoints, bare contents): detected, read into turns, and written back
unchanged or changed only where asked."""

import json
from dataclasses import replace

from inspector.model import ASSISTANT, TOOL, USER, ToolCall, ToolResult, Turn
from inspector.sources import FORMATS, load_sessions, render_sessions
from inspector.sources.files.document import read_document
from tests.helpers.files import write_json

CONTENTS = [
    {"role": "user", "parts": [{"text": "Remember that I like rain, "}, {"text": "and check Oslo."}]},
    {
        "role": "model",
        "parts": [
            {"text": "Planning the calls.", "thought": True},
            {"text": "Checking."},
            {
                "functionCall": {"id": "fc_1", "name": "get_weather", "args": {"city": "Oslo"}},
                "thoughtSignature": "abc",
            },
        ],
    },
    {"role": "user", "parts": [{"functionResponse": {"id": "fc_1", "name": "get_weather", "response": {"temp": 3}}}]},
    {"role": "model", "parts": [{"text": "It is 3 degrees. "}, {"text": "Anything else?"}]},
]
TOOLS = [
    {
        "functionDeclarations": [
            {
                "name": "get_weather",
                "description": "Weather.",
                "parameters": {"type": "OBJECT", "properties": {"city": {"type": "STRING"}}},
            }
        ]
    }
]
DOCUMENT = {
    "contents": CONTENTS,
    "tools": TOOLS,
    "systemInstruction": {"parts": [{"text": "Be terse."}]},
    "generationConfig": {"temperature": 0.2},
}


def _with(session, position, *added):
    index = next(i for i, t in enumerate(session.turns) if t.position == position)
    return replace(session, turns=session.turns[:index] + added + session.turns[index:])


def test_detection_of_every_shape_and_not_of_openai(tmp_path):
    assert load_sessions(write_json(tmp_path / "session.json", DOCUMENT))[0].format == "gemini"
    assert load_sessions(write_json(tmp_path / "checkpoint.json", {"history": CONTENTS}))[0].format == "gemini"
    assert load_sessions(write_json(tmp_path / "bare.json", CONTENTS[:1] + CONTENTS[3:]))[0].format == "gemini"
    openai = [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": "hello"},
        {"role": "user", "content": "x"},
    ]
    path = write_json(tmp_path / "openai.json", openai)
    assert not FORMATS["gemini"].claims(read_document(path))
    assert load_sessions(path)[0].format == "openai"


def test_turns_roles_text_calls_results_and_tools(tmp_path):
    (session,) = load_sessions(write_json(tmp_path / "session.json", DOCUMENT))
    assert [t.role for t in session.turns] == [USER, ASSISTANT, TOOL, ASSISTANT]
    assert session.turns[0].text == "Remember that I like rain, and check Oslo."
    assert session.turns[1].text == "Checking."
    assert session.turns[1].tool_calls == (ToolCall("fc_1", "get_weather", {"city": "Oslo"}, {"city": "Oslo"}),)
    assert session.turns[2].tool_results == (ToolResult("fc_1", "get_weather", {"temp": 3}),)
    assert session.tools[0].name == "get_weather"
    assert session.tools[0].properties == {"city": {"type": "string"}}


def test_snake_case_is_read_and_kept_when_edited(tmp_path):
    contents = [
        {"role": "model", "parts": [{"function_call": {"name": "get_weather", "args": {"city": "Oslo"}}}]},
        {"role": "user", "parts": [{"function_response": {"name": "get_weather", "response": {"error": "down"}}}]},
    ]
    document = {"contents": contents, "tools": [{"function_declarations": [{"name": "get_weather"}]}]}
    (session,) = load_sessions(write_json(tmp_path / "session.json", document))
    assert session.turns[0].tool_calls == (ToolCall(None, "get_weather", {"city": "Oslo"}, {"city": "Oslo"}),)
    assert session.turns[1].role == TOOL
    assert session.turns[1].tool_results == (ToolResult(None, "get_weather", {"error": "down"}, True),)
    assert [spec.name for spec in session.tools] == ["get_weather"]
    fixed = replace(session.turns[0].tool_calls[0], arguments_raw={"city": "Bergen"}, arguments={"city": "Bergen"})
    edited = replace(session.turns[0], tool_calls=(fixed,), edited=True)
    out = json.loads(render_sessions([replace(session, turns=(edited, session.turns[1]))]))
    assert out["contents"][0] == {
        "role": "model",
        "parts": [{"function_call": {"name": "get_weather", "args": {"city": "Bergen"}}}],
    }
    assert out["contents"][1] == contents[1]


def test_round_trip_without_changes_keeps_the_file_byte_for_byte(tmp_path):
    for name, value in (
        ("doc.json", DOCUMENT),
        ("checkpoint.json", {"history": CONTENTS, "authType": "oauth"}),
        ("bare.json", CONTENTS),
    ):
        text = json.dumps(value, indent=2)
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        assert render_sessions(load_sessions(path)) == text  # byte for byte, no final line break added


def test_edit_changes_only_that_content_and_keeps_thought_parts(tmp_path):
    (session,) = load_sessions(write_json(tmp_path / "session.json", DOCUMENT))
    turns = list(session.turns)
    turns[1] = replace(turns[1], text="", edited=True)
    turns[3] = replace(turns[3], text="Anything else?", edited=True)
    out = json.loads(render_sessions([replace(session, turns=tuple(turns))]))
    assert out["contents"][1]["parts"] == [CONTENTS[1]["parts"][0], CONTENTS[1]["parts"][2]]
    assert out["contents"][3] == {"role": "model", "parts": [{"text": "Anything else?"}]}
    assert out["contents"][0] == CONTENTS[0] and out["contents"][2] == CONTENTS[2]
    assert list(out) == list(DOCUMENT)


def test_inserted_turns_are_native_function_call_and_response_parts(tmp_path):
    path = write_json(tmp_path / "session.json", {"history": CONTENTS})
    (session,) = load_sessions(path)
    call = ToolCall("toolu_x", "save_memory", {"content": "likes rain"}, {"content": "likes rain"}, origin="recovered")
    repaired = _with(
        session,
        3,
        Turn(3, ASSISTANT, "", tool_calls=(call,)),
        Turn(3, TOOL, "", tool_results=(ToolResult("toolu_x", "save_memory", "recovered from text, not executed"),)),
    )
    text = render_sessions([repaired])
    out = json.loads(text)
    assert list(out) == ["history"]
    assert out["history"][3] == {
        "role": "model",
        "parts": [{"functionCall": {"id": "toolu_x", "name": "save_memory", "args": {"content": "likes rain"}}}],
    }
    assert out["history"][4] == {
        "role": "user",
        "parts": [
            {
                "functionResponse": {
                    "id": "toolu_x",
                    "name": "save_memory",
                    "response": {"result": "recovered from text, not executed"},
                }
            }
        ],
    }
    assert out["history"][:3] == CONTENTS[:3] and out["history"][5] == CONTENTS[3]
    path.write_text(text, encoding="utf-8")
    (again,) = load_sessions(path)
    assert again.turns[3].tool_calls == (
        ToolCall("toolu_x", "save_memory", {"content": "likes rain"}, {"content": "likes rain"}),
    )
    assert again.turns[4].role == TOOL and again.turns[4].tool_results[0].call_id == "toolu_x"


def test_inserted_call_without_id_has_no_id_key(tmp_path):
    (session,) = load_sessions(write_json(tmp_path / "session.json", DOCUMENT))
    call = ToolCall(None, "get_weather", {"city": "Rome"}, {"city": "Rome"}, origin="recovered")
    repaired = _with(
        session,
        3,
        Turn(3, ASSISTANT, "Also Rome.", tool_calls=(call,)),
        Turn(3, TOOL, "", tool_results=(ToolResult(None, "get_weather", {"temp": 20}),)),
    )
    out = json.loads(render_sessions([repaired]))["contents"]
    assert out[3] == {
        "role": "model",
        "parts": [{"text": "Also Rome."}, {"functionCall": {"name": "get_weather", "args": {"city": "Rome"}}}],
    }
    assert out[4] == {
        "role": "user",
        "parts": [{"functionResponse": {"name": "get_weather", "response": {"temp": 20}}}],
    }


def test_odd_records_are_reported_skipped_and_kept(tmp_path):
    contents = [CONTENTS[0], 42, {"role": "critic", "parts": [{"text": "?"}]}, {"role": "model"}, CONTENTS[3]]
    (session,) = load_sessions(write_json(tmp_path / "session.json", {"contents": contents}))
    assert [t.position for t in session.turns] == [0, 4]
    assert [p.split(":")[0] for p in session.problems] == ["message 1", "message 2", "message 3"]
    edited = replace(session.turns[1], text="Bye.", edited=True)
    out = json.loads(render_sessions([replace(session, turns=(session.turns[0], edited))]))["contents"]
    assert out[1:4] == contents[1:4]
    assert out[4] == {"role": "model", "parts": [{"text": "Bye."}]}
