"""Detectors `orphan-call`, `orphan-result` and `tool-error` on OpenAI, Anthropic and Gemini files,
and the orphan-call fix re-scanned clean."""

import json
import shutil
import sqlite3
from pathlib import Path

from inspector.cli.main import main
from inspector.model import ERROR, INFO, WARNING
from inspector.scan.scanner import scan_file
from tests.helpers.files import write_json
from tests.helpers.samples import TOOL_SAMPLES
from tests.helpers.scanning import findings_of

KINDS = ("orphan-call", "orphan-result", "tool-error")
SEARCH = {
    "type": "function",
    "function": {
        "name": "web_search",
        "parameters": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]},
    },
}


def _call(call_id, name, arguments):
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": json.dumps(arguments)}}


def test_a_call_left_unanswered_at_the_end_is_an_orphan_with_a_result_to_add(write_session):
    path = write_session(
        [
            {"role": "user", "content": "What's the weather in Oslo?"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [_call("call_9", "web_search", {"query": "Oslo weather"})],
            },
        ],
        [SEARCH],
    )
    (finding,) = findings_of(path, *KINDS)
    assert (finding.turn, finding.kind, finding.severity, finding.tool) == (1, "orphan-call", ERROR, "web_search")
    assert "before the session ends" in finding.message and "call_9" in finding.message
    (result,) = finding.fix.add_results
    assert (result.call_id, result.name, result.is_error) == ("call_9", "web_search", True)
    assert "No result was recorded" in result.content


def test_only_the_unanswered_one_of_parallel_calls_is_flagged_at_the_next_reply(write_session):
    path = write_session(
        [
            {"role": "user", "content": "Compare Oslo and Bergen."},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    _call("call_a", "web_search", {"query": "Oslo"}),
                    _call("call_b", "web_search", {"query": "Bergen"}),
                ],
            },
            {"role": "tool", "tool_call_id": "call_b", "content": "Bergen: rain"},
            {"role": "assistant", "content": "Bergen is rainy; Oslo I could not check."},
            {"role": "user", "content": "ok"},
            {"role": "tool", "tool_call_id": "call_a", "content": "Oslo: sun (too late)"},
        ],
        [SEARCH],
    )
    (finding,) = findings_of(path, "orphan-call")
    assert finding.payload == {"call_id": "call_a"}
    assert "before the next assistant reply" in finding.message


def test_answered_calls_stay_clean_in_any_order_and_across_call_only_turns(write_session):
    path = write_session(
        [
            {"role": "user", "content": "Search twice."},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [_call("c1", "web_search", {"query": "a"}), _call("c2", "web_search", {"query": "b"})],
            },
            {"role": "tool", "tool_call_id": "c2", "content": "b results"},
            {"role": "tool", "tool_call_id": "c1", "content": "a results"},
            {"role": "assistant", "content": "", "tool_calls": [_call("c3", "web_search", {"query": "c"})]},
            {"role": "assistant", "content": None, "tool_calls": [_call("c4", "web_search", {"query": "d"})]},
            {"role": "tool", "tool_call_id": "c3", "content": "c results"},
            {"role": "tool", "tool_call_id": "c4", "content": "d results"},
            {"role": "assistant", "content": "Here is what I found."},
            {
                "role": "assistant",
                "content": None,
                "function_call": {"name": "web_search", "arguments": '{"query": "e"}'},
            },
            {"role": "function", "name": "web_search", "content": "e results"},
        ],
        [SEARCH],
    )
    assert findings_of(path, *KINDS) == []


def test_a_result_for_a_call_that_is_not_there_is_an_orphan_result(write_session):
    path = write_session(
        [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": None, "tool_calls": [_call("call_1", "web_search", {"query": "x"})]},
            {"role": "tool", "tool_call_id": "call_1", "content": "x results"},
            {"role": "tool", "tool_call_id": "call_zz", "content": "stale result"},
            {"role": "function", "name": "web_search", "content": "a legacy result without an id"},
            {"role": "assistant", "content": "Done."},
        ],
        [SEARCH],
    )
    (finding,) = findings_of(path, "orphan-result")
    assert (finding.turn, finding.severity, finding.fix) == (3, WARNING, None)
    assert "call_zz" in finding.message and finding.payload == {"call_id": "call_zz"}


def test_error_results_are_reported_as_info_with_the_tool_and_a_preview(write_session):
    path = write_session(
        [
            {"role": "user", "content": "Look these up."},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    _call("c1", "web_search", {"query": "a"}),
                    _call("c2", "web_search", {"query": "b"}),
                    _call("c3", "web_search", {"query": "c"}),
                    _call("c4", "web_search", {"query": "d"}),
                ],
            },
            {
                "role": "tool",
                "tool_call_id": "c1",
                "content": json.dumps({"error": "rate limited: retry in 30s", "code": 429}),
            },
            {
                "role": "tool",
                "tool_call_id": "c2",
                "content": json.dumps({"result": {"Traceback": "File x.py, line 3\nKeyError: 'q'"}}),
            },
            {"role": "tool", "tool_call_id": "c3", "content": json.dumps({"error": None, "results": ["ok"]})},
            {"role": "tool", "tool_call_id": "c4", "content": "No error found; 3 results."},
            {"role": "assistant", "content": "Two searches failed."},
        ],
        [SEARCH],
    )
    first, second = findings_of(path, *KINDS)
    assert (first.turn, first.kind, first.severity, first.tool) == (2, "tool-error", INFO, "web_search")
    assert first.message == "web_search returned an error: rate limited: retry in 30s"
    assert first.payload == "rate limited: retry in 30s"
    assert second.turn == 3 and "KeyError: 'q'" in second.message and "\n" not in second.message


def test_anthropic_is_error_result_and_ids(tmp_path):
    document = {
        "system": "You are a support agent.",
        "tools": [
            {"name": "lookup_order", "input_schema": {"type": "object", "properties": {"order_id": {"type": "string"}}}}
        ],
        "messages": [
            {"role": "user", "content": "Where is order A-1?"},
            {
                "role": "assistant",
                "content": [
                    {"type": "text", "text": "Looking it up."},
                    {"type": "tool_use", "id": "toolu_1", "name": "lookup_order", "input": {"order_id": "A-1"}},
                    {"type": "tool_use", "id": "toolu_2", "name": "lookup_order", "input": {"order_id": "A-2"}},
                ],
            },
            {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": "toolu_1",
                        "content": "Order service timed out",
                        "is_error": True,
                    }
                ],
            },
            {"role": "assistant", "content": "The order service is down right now."},
        ],
    }
    found = findings_of(write_json(tmp_path / "support.json", document), *KINDS)
    assert [(f.kind, f.turn, f.tool) for f in found] == [
        ("orphan-call", 1, "lookup_order"),
        ("tool-error", 2, "lookup_order"),
    ]
    assert found[1].message == "lookup_order returned an error: Order service timed out"


GEMINI = {
    "contents": [
        {"role": "user", "parts": [{"text": "Weather in Oslo and Bergen, then book a hotel."}]},
        {
            "role": "model",
            "parts": [
                {"functionCall": {"name": "get_weather", "args": {"city": "Oslo"}}},
                {"functionCall": {"name": "get_weather", "args": {"city": "Bergen"}}},
                {"functionCall": {"name": "book_hotel", "args": {"city": "Oslo"}}},
            ],
        },
        {
            "role": "user",
            "parts": [
                {"functionResponse": {"name": "get_weather", "response": {"temp": 3}}},
                {"functionResponse": {"name": "book_hotel", "response": {"error": "no rooms"}}},
            ],
        },
        {"role": "model", "parts": [{"text": "It is 3 degrees in Oslo; no rooms were free."}]},
    ],
    "tools": [{"functionDeclarations": [{"name": "get_weather"}, {"name": "book_hotel"}]}],
}


def test_gemini_calls_without_ids_are_answered_by_name_in_order(tmp_path):
    found = findings_of(write_json(tmp_path / "travel.json", GEMINI), *KINDS)
    assert [(f.kind, f.turn, f.tool) for f in found] == [
        ("orphan-call", 1, "get_weather"),
        ("tool-error", 2, "book_hotel"),
    ]
    assert found[0].arguments == {"city": "Bergen"}
    assert found[0].payload == {"call_id": None}


def test_gemini_fix_adds_a_response_and_rescans_clean(tmp_path, capsys):
    path = write_json(tmp_path / "travel.json", GEMINI)
    out = tmp_path / "fixed.json"
    assert main(["fix", str(path), "--accept", "malformed-arguments,orphan-call", "-o", str(out)]) == 1
    contents = json.loads(out.read_text())["contents"]
    assert contents[2]["parts"][0]["functionResponse"]["name"] == "get_weather"
    assert "No result was recorded" in contents[2]["parts"][0]["functionResponse"]["response"]["result"]
    assert contents[3] == GEMINI["contents"][2]
    (result,) = scan_file(out)
    assert [f.kind for f in result.findings] == ["tool-error"]


def test_openai_fix_rescans_clean_and_json_summary_counts_errors(write_session, tmp_path, capsys):
    path = write_session(
        [
            {"role": "user", "content": "Search."},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [_call("c1", "web_search", {"query": "a"}), _call("c2", "web_search", {"query": "b"})],
            },
            {"role": "tool", "tool_call_id": "c2", "content": '{"error": "timeout"}'},
            {"role": "assistant", "content": "Nothing came back."},
        ],
        [SEARCH],
    )
    assert main(["scan", "--json", str(path)]) == 1
    summary = json.loads(capsys.readouterr().out)["summary"]
    assert summary["by_kind"] == {"orphan-call": 1, "tool-error": 1}
    out = tmp_path / "fixed.json"
    assert main(["fix", str(path), "--accept", "malformed-arguments,orphan-call", "-o", str(out)]) == 1
    messages = json.loads(out.read_text())["messages"]
    assert [m["role"] for m in messages] == ["user", "assistant", "tool", "tool", "assistant"]
    assert messages[2]["tool_call_id"] == "c1"
    (result,) = scan_file(out)
    assert [f.kind for f in result.findings] == ["tool-error"]


def test_an_unanswered_call_with_no_name_is_called_so(tmp_path):
    """Goose keeps no name for a call it could not read: unanswered, it is 'the call with no name',
    where the message read 'The  call ...'."""
    path = Path(shutil.copy(TOOL_SAMPLES / "goose.db", tmp_path / "sessions.db"))
    with sqlite3.connect(path) as database:  # the lost call's error answer taken out
        database.execute("DELETE FROM messages WHERE id = 7")
    database.close()
    (finding,) = [f for f in findings_of(path, "orphan-call") if f.turn == 5]
    assert finding.message.startswith("The call with no name 'call_mock_broken_cut' was never answered")
