"""Agent session dumps: detected, read into turns, and written back unchanged or changed only
where asked, with every unknown key kept and `entry_count` kept true."""

import json
from dataclasses import replace

from inspector.model import ASSISTANT, SYSTEM, TOOL, USER, ToolCall, ToolResult, Turn
from inspector.sources import FORMATS, load_sessions, render_sessions
from inspector.sources.files.document import read_document
from tests.helpers.files import write_json

LEAK = 'Running it.\n```json\n{"tool": "run_code", "arguments": {"code": "print(1)"}}}}\n```'
ENTRIES = [
    {
        "timestamp": 1731000000.12,
        "session_id": "ui_run_1",
        "trace_id": "t0",
        "parent_id": None,
        "node_type": "system",
        "role": "system",
        "content": "You can call run_code.",
        "model": None,
    },
    {
        "timestamp": 1731000001.5,
        "trace_id": "t1",
        "parent_id": "t0",
        "node_type": "user",
        "role": "user",
        "content": "Print hello",
        "metadata": {"cascade": "demo"},
    },
    {
        "timestamp": 1731000002.0,
        "trace_id": "t2",
        "parent_id": "t1",
        "node_type": "turn_input",
        "content": {"problem": "Print hello", "turn": 1},
    },
    {
        "timestamp": 1731000003.25,
        "trace_id": "t3",
        "parent_id": "t2",
        "node_type": "turn_output",
        "role": "assistant",
        "model": "google/gemini-2.5-flash-lite",
        "content": "",
        "tool_calls": [
            {
                "id": "call_1",
                "type": "function",
                "function": {"name": "run_code", "arguments": '{"code": "print(\'hello\')"}'},
            }
        ],
        "tokens_in": 812,
        "tokens_out": 40,
        "cost": 0.00012,
    },
    {
        "timestamp": 1731000004.0,
        "trace_id": "t4",
        "parent_id": "t3",
        "node_type": "tool_result",
        "tool_call_id": "call_1",
        "tool_name": "run_code",
        "content": {"stdout": "hello\n", "exit": 0},
    },
    {
        "timestamp": 1731000005.0,
        "trace_id": "t5",
        "parent_id": "t4",
        "node_type": "turn_output",
        "role": "assistant",
        "content": LEAK,
        "id": "msg_5",
    },
    {"timestamp": 1731000006.0, "trace_id": "t6", "node_type": "follow_up", "role": "model", "content": "Done?"},
]
DUMP = {
    "session_id": "ui_run_1",
    "dumped_at": "2025-11-08T12:00:00",
    "entry_count": len(ENTRIES),
    "entries": ENTRIES,
    "extra": {"kept": True},
}


def test_detected_as_session_dump_and_openai_is_not(tmp_path):
    (session,) = load_sessions(write_json(tmp_path / "dump.json", DUMP))
    assert session.format == "session-dump"
    assert session.session_id == "ui_run_1"
    openai = {"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]}
    path = write_json(tmp_path / "openai.json", openai)
    assert not FORMATS["session-dump"].claims(read_document(path))
    assert load_sessions(path)[0].format == "openai"
    no_session_id = write_json(tmp_path / "entries.json", {"entries": ENTRIES})
    assert not FORMATS["session-dump"].claims(read_document(no_session_id))


def test_roles_text_calls_and_results(tmp_path):
    (session,) = load_sessions(write_json(tmp_path / "dump.json", DUMP))
    assert [t.role for t in session.turns] == [SYSTEM, USER, USER, ASSISTANT, TOOL, ASSISTANT, ASSISTANT]
    assert json.loads(session.turns[2].text) == {"problem": "Print hello", "turn": 1}
    call = session.turns[3].tool_calls[0]
    assert (call.id, call.name, call.arguments) == ("call_1", "run_code", {"code": "print('hello')"})
    assert session.turns[4].tool_results == (ToolResult("call_1", "run_code", {"stdout": "hello\n", "exit": 0}),)
    assert session.turns[5].text == LEAK and session.turns[5].id == "msg_5"
    assert session.turns[6].id is None
    assert session.problems == ()


def test_round_trip_without_changes_keeps_values_and_key_order(tmp_path):
    for indent in (None, 2):
        text = json.dumps(DUMP, indent=indent)
        path = tmp_path / f"d{indent}.json"
        path.write_text(text, encoding="utf-8")
        assert render_sessions(load_sessions(path)) == text + "\n"


def test_edit_changes_only_that_entry(tmp_path):
    (session,) = load_sessions(write_json(tmp_path / "dump.json", DUMP))
    turns = list(session.turns)
    turns[5] = replace(turns[5], text="Running it.\n", edited=True)
    out = json.loads(render_sessions([replace(session, turns=tuple(turns))]))
    assert out["entries"][5] == {**ENTRIES[5], "content": "Running it.\n"}
    assert out["entries"][:5] == ENTRIES[:5] and out["entries"][6] == ENTRIES[6]
    assert out["entry_count"] == len(ENTRIES) and out["extra"] == {"kept": True}


def test_edited_structured_content_stays_structured_when_it_still_parses(tmp_path):
    (session,) = load_sessions(write_json(tmp_path / "dump.json", DUMP))
    turns = list(session.turns)
    turns[2] = replace(turns[2], text='{"problem": "Print hi"}', edited=True)
    turns[4] = replace(turns[4], text="not json any more", edited=True)
    out = json.loads(render_sessions([replace(session, turns=tuple(turns))]))["entries"]
    assert out[2]["content"] == {"problem": "Print hi"}
    assert out[4]["content"] == "not json any more"


def test_replaced_arguments_are_written_as_a_json_string(tmp_path):
    (session,) = load_sessions(write_json(tmp_path / "dump.json", DUMP))
    turns = list(session.turns)
    fixed = replace(turns[3].tool_calls[0], arguments_raw={"code": "print(2)"}, arguments={"code": "print(2)"})
    turns[3] = replace(turns[3], tool_calls=(fixed,), edited=True)
    out = json.loads(render_sessions([replace(session, turns=tuple(turns))]))["entries"]
    assert out[3]["tool_calls"][0] == {
        "id": "call_1",
        "type": "function",
        "function": {"name": "run_code", "arguments": '{"code": "print(2)"}'},
    }
    assert out[3]["tokens_in"] == 812


def test_inserted_turns_are_native_entries_and_entry_count_follows(tmp_path):
    path = write_json(tmp_path / "dump.json", DUMP)
    (session,) = load_sessions(path)
    call = ToolCall("toolu_x", "save_memory", {"content": "x"}, {"content": "x"}, origin="recovered")
    added = (
        Turn(5, ASSISTANT, "", tool_calls=(call,)),
        Turn(5, TOOL, "", tool_results=(ToolResult("toolu_x", "save_memory", "recovered from text, not executed"),)),
    )
    text = render_sessions([replace(session, turns=session.turns[:5] + added + session.turns[5:])])
    out = json.loads(text)
    assert out["entry_count"] == len(ENTRIES) + 2 == len(out["entries"])
    assert list(out) == list(DUMP)
    assert out["entries"][5] == {
        "role": "assistant",
        "node_type": "turn_output",
        "content": "",
        "tool_calls": [
            {"id": "toolu_x", "type": "function", "function": {"name": "save_memory", "arguments": '{"content": "x"}'}}
        ],
        "metadata": {"inserted_by": "inspector"},
    }
    assert out["entries"][6] == {
        "role": "tool",
        "node_type": "tool_result",
        "tool_call_id": "toolu_x",
        "name": "save_memory",
        "content": "recovered from text, not executed",
        "metadata": {"inserted_by": "inspector"},
    }
    assert out["entries"][:5] == ENTRIES[:5] and out["entries"][7:] == ENTRIES[5:]
    path.write_text(text, encoding="utf-8")
    (again,) = load_sessions(path)
    assert again.turns[5].tool_calls == (ToolCall("toolu_x", "save_memory", '{"content": "x"}', {"content": "x"}),)
    assert again.turns[6].tool_results == (ToolResult("toolu_x", "save_memory", "recovered from text, not executed"),)


def test_odd_entries_are_reported_skipped_and_kept(tmp_path):
    entries = [ENTRIES[1], "garbage", {"role": "critic", "content": "?"}, {"content": "no role or node"}, ENTRIES[5]]
    (session,) = load_sessions(write_json(tmp_path / "dump.json", {"session_id": 7, "entries": entries}))
    assert session.session_id == "7"
    assert [t.position for t in session.turns] == [0, 4]
    assert [p.split(":")[0] for p in session.problems] == ["entry 1", "entry 2", "entry 3"]
    edited = replace(session.turns[1], text="Running it.", edited=True)
    out = json.loads(render_sessions([replace(session, turns=(session.turns[0], edited))]))
    assert out["entries"][1:4] == entries[1:4]
    assert out["entries"][4]["content"] == "Running it."
    assert "entry_count" not in out
