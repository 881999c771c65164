"""OpenAI Responses items as a JSON list: what the Agents SDK 0.24 gave as `to_input_list()`
(`sessions/agents-sdk.items.json`), read as its own format rather than as OpenAI
Chat (which would skip every call and output), and written back with only the repaired items changed."""

from __future__ import annotations

import json
from pathlib import Path

from inspector.cli.main import main
from inspector.model import ASSISTANT, TOOL, USER
from inspector.sources import FORMATS, formats, load_sessions, render_sessions
from inspector.sources.files.document import read_document
from inspector.sources.formats import openai
from tests.helpers.samples import TOOL_SAMPLES
from tests.helpers.scanning import finding_triples

SAMPLES = TOOL_SAMPLES
ITEMS = SAMPLES / "agents-sdk.items.json"
PLANTED = [
    (1, "result-prefix", None),
    (3, "tool-markup", "read_file"),
    (6, "malformed-arguments", "read_file"),
    (8, "malformed-arguments", "read_file"),
]


def items_file(tmp_path: Path, items: list, name: str = "items.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(items, indent=2), encoding="utf-8")
    return path


def test_the_sdk_list_is_read_as_responses_items_not_as_openai_chat():
    document = read_document(ITEMS)
    claims = [name for name, file_format in FORMATS.items() if file_format.claims(document)]
    # Chat Completions still sees messages in it, but it is the general format: asked only when no
    # specific format claims a file, so it never reads this one.
    assert claims == ["openai-responses", "openai"]
    assert formats.GENERAL is openai.FORMAT and FORMATS["openai-responses"] in formats.SPECIFIC
    (session,) = load_sessions(ITEMS)
    assert (session.format, session.problems) == ("openai-responses", ())
    assert len(session.turns) == 13


def test_a_chat_completions_list_is_not_claimed(tmp_path):
    chat = [
        {"role": "user", "content": "hi"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}],
        },
        {"role": "tool", "tool_call_id": "c", "content": "ok"},
        {"role": "assistant", "content": [{"type": "text", "text": "done"}]},
    ]
    path = items_file(tmp_path, chat)
    assert not FORMATS["openai-responses"].claims(read_document(path))
    assert load_sessions(path)[0].format == "openai"


def test_items_become_turns_with_calls_kept_verbatim_and_outputs_named():
    (session,) = load_sessions(ITEMS)
    turns = session.turns
    assert [t.role for t in turns] == [
        USER,
        ASSISTANT,
        USER,
        ASSISTANT,
        USER,
        ASSISTANT,
        ASSISTANT,
        TOOL,
        ASSISTANT,
        TOOL,
        ASSISTANT,
        TOOL,
        ASSISTANT,
    ]
    assert turns[0].text.startswith("Please save a journal memory")  # the easy {role, content} input
    assert turns[1].id == "msg_mock_00" and turns[1].text.startswith("{success: true")
    (cut,) = turns[6].tool_calls
    assert (cut.id, cut.name, cut.arguments_raw, cut.arguments) == (
        "call_mock_broken_cut",
        "read_file",
        '{"file_path": "notes.txt"',
        None,
    )
    (braces,) = turns[8].tool_calls
    assert braces.arguments_raw == '{"file_path": "notes.txt"}}}}' and braces.arguments is None
    (result,) = turns[11].tool_results
    assert (result.call_id, result.name, result.content) == (
        "call_mock_good",
        "read_file",
        "Meeting moved to Thursday.\nBring the draft.\n",
    )


def test_the_planted_failures_are_found_and_the_good_call_stays_clean():
    assert finding_triples(ITEMS) == PLANTED


def test_loading_and_rendering_unchanged_gives_the_same_text():
    assert render_sessions(load_sessions(ITEMS)) == ITEMS.read_text(encoding="utf-8")


def test_fix_writes_the_recovered_call_before_the_fixed_message_and_changes_nothing_else(tmp_path):
    out = tmp_path / "fixed.json"
    assert main(["fix", str(ITEMS), "--accept", "all", "-o", str(out)]) == 0
    before, after = json.loads(ITEMS.read_text()), json.loads(out.read_text())
    assert len(after) == len(before) + 2
    assert after[:3] == [
        before[0],
        {
            **before[1],
            "content": [
                {
                    **before[1]["content"][0],
                    "text": (
                        "You saw right through me. I saved that to your journal, and honestly: the refactor needs a smaller first step."
                    ),
                }
            ],
        },
        before[2],
    ]
    assert after[3] == {
        "type": "function_call",
        "call_id": "call_inspector_3_0",
        "name": "read_file",
        "arguments": '{"file_path": "notes.txt"}',
    }
    assert after[4]["type"] == "function_call_output" and after[4]["call_id"] == "call_inspector_3_0"
    assert after[5]["content"][0]["text"] == "Let me read it." and after[5]["id"] == "msg_mock_01"
    assert after[8] == {**before[6], "arguments": '{"file_path": "notes.txt"}'}
    assert after[10] == {**before[8], "arguments": '{"file_path": "notes.txt"}'}
    assert [after[i] for i in (6, 7, 9, 11, 12, 13, 14)] == [before[i] for i in (4, 5, 7, 9, 10, 11, 12)]
    assert finding_triples(out) == []
    assert load_sessions(out)[0].format == "openai-responses"


def test_reasoning_stays_in_place_and_unknown_items_are_counted(tmp_path):
    items = [
        {"role": "user", "content": [{"type": "input_text", "text": "find it"}]},
        {"type": "reasoning", "id": "rs_1", "summary": []},
        {"type": "web_search_call", "id": "ws_1", "status": "completed", "action": {"type": "search"}},
        {"type": "mcp_list_tools", "id": "mcpl_1", "server_label": "x", "tools": []},
        {"type": "mcp_list_tools", "id": "mcpl_2", "server_label": "y", "tools": []},
        {"type": "reasoning", "id": "rs_2", "summary": []},
        {
            "type": "message",
            "role": "assistant",
            "content": [
                {
                    "type": "output_text",
                    "text": 'Saving.\n<tool_call>{"name": "save", "arguments": {"a": 1}}</tool_call>',
                }
            ],
        },
    ]
    path = items_file(tmp_path, items)
    (session,) = load_sessions(path)
    assert [t.position for t in session.turns] == [0, 6]
    assert session.problems == (
        "1 item of type 'web_search_call' not read as a turn",
        "2 items of type 'mcp_list_tools' not read as turns",
    )
    out = tmp_path / "fixed.json"
    main(["fix", str(path), "--accept", "all", "-o", str(out)])
    after = json.loads(out.read_text())
    assert after[:5] == items[:5] and after[7:9] == items[5:6] + [
        {**items[6], "content": [{"type": "output_text", "text": "Saving."}]}
    ]
    assert [item["type"] for item in after[5:7]] == ["function_call", "function_call_output"]


def test_an_orphan_call_is_answered_right_after_it(tmp_path):
    items = [
        {"role": "user", "content": "go"},
        {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"},
        {"type": "reasoning", "id": "rs_1", "summary": []},
    ]
    path = items_file(tmp_path, items)
    assert finding_triples(path) == [(1, "orphan-call", "f")]
    out = tmp_path / "fixed.json"
    main(["fix", str(path), "--accept", "all", "-o", str(out)])
    after = json.loads(out.read_text())
    assert after[:2] == items[:2] and after[3] == items[2]
    assert (after[2]["type"], after[2]["call_id"]) == ("function_call_output", "c1")


def test_odd_items_are_counted_never_a_traceback(tmp_path, capsys):
    odd = [
        {"type": ["x"]},
        {"type": "message", "role": ["x"], "content": 5},
        5,
        None,
        {
            "type": "message",
            "role": "assistant",
            "content": [{"type": ["output_text"], "text": "a"}, 7, {"type": "output_text", "text": "Hello."}],
        },
        {"type": "function_call", "name": 5},
        {"type": "function_call", "name": "f", "arguments": {"a": 1}, "call_id": ["c"]},
        {"type": "function_call_output", "call_id": ["c"], "output": None},
    ]
    path = items_file(tmp_path, odd)
    (session,) = load_sessions(path)
    assert [(t.position, t.role, t.text) for t in session.turns] == [
        (4, ASSISTANT, "Hello."),
        (6, ASSISTANT, ""),
        (7, TOOL, ""),
    ]
    assert session.turns[1].tool_calls[0].id is None and session.turns[1].tool_calls[0].arguments == {"a": 1}
    assert session.problems == (
        "1 item whose type is not a string not read as a turn",
        "1 message with role ['x'] or no content not read as a turn",
        "2 items that are not objects not read as turns",
        "1 item of type 'function_call' without a name not read as a turn",
    )
    assert main(["scan", str(path)]) == 0
    assert render_sessions([session]) == path.read_text(encoding="utf-8") + "\n"
