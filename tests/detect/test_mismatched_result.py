"""Detector `mismatched-result` on real session files: a result whose name is not the name of the
call its id points to (OpenAI named `tool` messages, Gemini `functionResponse` with ids, session
dumps), and the look-alikes that stay clean."""

import json

from inspector.cli.main import main
from inspector.model import ERROR
from tests.helpers.files import write_json
from tests.helpers.scanning import findings_of

KIND = "mismatched-result"
SEND_EMAIL = {
    "type": "function",
    "function": {
        "name": "send_email",
        "parameters": {"type": "object", "properties": {"to": {"type": "string"}}, "required": ["to"]},
    },
}
SEARCH = {
    "type": "function",
    "function": {"name": "web_search", "parameters": {"type": "object", "properties": {"query": {"type": "string"}}}},
}


def _call(call_id, name, arguments):
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": json.dumps(arguments)}}


def _renamed_by_hand():
    """The tool was renamed from send_mail to send_email in the call, not in its result."""
    return [
        {"role": "user", "content": "Email Priya the report."},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [_call("call_e1", "send_email", {"to": "priya@fernleaf.io"})],
        },
        {"role": "tool", "tool_call_id": "call_e1", "name": "send_mail", "content": '{"status": "sent"}'},
        {"role": "assistant", "content": "Sent."},
    ]


def test_an_openai_result_naming_another_tool_than_its_call_is_an_error(write_session, capsys):
    path = write_session(_renamed_by_hand(), [SEND_EMAIL])
    (finding,) = findings_of(path, KIND)
    assert (finding.turn, finding.role, finding.severity, finding.tool, finding.fix) == (
        2,
        "tool",
        ERROR,
        "send_email",
        None,
    )
    assert finding.message == (
        "A result names send_mail, but its call id 'call_e1' points to the send_email call at "
        "turn 1: the result answers the wrong call, or names the wrong tool."
    )
    assert finding.payload == {
        "call_id": "call_e1",
        "call_turn": 1,
        "call_name": "send_email",
        "result_name": "send_mail",
    }
    assert main(["scan", "--json", str(path)]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["summary"]["by_kind"] == {KIND: 1}
    assert report["rates"]["total"]["kinds"][KIND] == {"count": 1, "per_100_calls": 100.0}
    assert main(["scan", str(path)]) == 1
    assert f"turn 2  error    {KIND}  send_email" in capsys.readouterr().out


def test_swapped_parallel_results_are_each_flagged(write_session):
    path = write_session(
        [
            {"role": "user", "content": "Search the weather and email it."},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    _call("c1", "web_search", {"query": "Oslo weather"}),
                    _call("c2", "send_email", {"to": "a@b.c"}),
                ],
            },
            {"role": "tool", "tool_call_id": "c1", "name": "send_email", "content": "sent"},
            {"role": "tool", "tool_call_id": "c2", "name": "web_search", "content": "Oslo: 3 degrees"},
            {"role": "assistant", "content": "Done."},
        ],
        [SEND_EMAIL, SEARCH],
    )
    assert [(f.turn, f.tool, f.payload["result_name"]) for f in findings_of(path, KIND)] == [
        (2, "web_search", "send_email"),
        (3, "send_email", "web_search"),
    ]


def test_a_gemini_function_response_answering_a_call_id_of_another_tool(tmp_path):
    document = {
        "contents": [
            {"role": "user", "parts": [{"text": "Weather in Oslo?"}]},
            {
                "role": "model",
                "parts": [{"functionCall": {"id": "fc_1", "name": "get_weather", "args": {"city": "Oslo"}}}],
            },
            {
                "role": "user",
                "parts": [{"functionResponse": {"id": "fc_1", "name": "get_forecast", "response": {"temp": 3}}}],
            },
            {"role": "model", "parts": [{"text": "It is 3 degrees in Oslo."}]},
        ],
        "tools": [{"functionDeclarations": [{"name": "get_weather"}, {"name": "get_forecast"}]}],
    }
    (finding,) = findings_of(write_json(tmp_path / "weather.gemini.json", document), KIND)
    assert (finding.turn, finding.tool, finding.payload["result_name"]) == (2, "get_weather", "get_forecast")


def test_a_session_dump_result_entry_naming_another_tool(tmp_path):
    entries = [
        {"role": "user", "node_type": "turn_input", "content": "Save the plan."},
        {
            "role": "assistant",
            "node_type": "turn_output",
            "content": "Saving it.",
            "tool_calls": [_call("call_plan_0", "set_state", {"key": "plan", "value": "print hello"})],
        },
        {
            "role": "tool",
            "node_type": "tool_result",
            "content": "State updated: plan",
            "tool_call_id": "call_plan_0",
            "name": "save_state",
        },
        {"role": "assistant", "node_type": "turn_output", "content": "The plan is saved."},
    ]
    document = {
        "session_id": "run_1",
        "dumped_at": "2024-12-03 15:20:51",
        "entry_count": len(entries),
        "entries": entries,
    }
    (finding,) = findings_of(write_json(tmp_path / "run.dump.json", document), KIND)
    assert (finding.turn, finding.tool, finding.payload["result_name"]) == (2, "set_state", "save_state")


def test_results_that_agree_with_their_calls_or_cannot_be_checked_stay_clean(write_session):
    path = write_session(
        [
            {"role": "user", "content": "Search twice, then email."},
            {"role": "assistant", "content": None, "tool_calls": [_call("c1", "web_search", {"query": "a"})]},
            {"role": "tool", "tool_call_id": "c1", "name": "web_search", "content": "a results"},  # the same name
            {"role": "assistant", "content": None, "tool_calls": [_call("c2", "web_search", {"query": "b"})]},
            {"role": "tool", "tool_call_id": "c2", "content": "b results"},  # no name
            {
                "role": "assistant",
                "content": None,
                "function_call": {"name": "send_email", "arguments": '{"to": "a@b.c"}'},
            },
            {"role": "function", "name": "send_email", "content": "sent"},  # no id: paired by name
            {
                "role": "tool",
                "tool_call_id": "c9",
                "name": "web_search",
                "content": "stale",
            },  # no call: orphan-result's
            {"role": "assistant", "content": None, "tool_calls": [_call("dup", "web_search", {"query": "c"})]},
            {"role": "assistant", "content": None, "tool_calls": [_call("dup", "send_email", {"to": "a@b.c"})]},
            {"role": "tool", "tool_call_id": "dup", "name": "send_email", "content": "sent"},  # an id two tools share
            {"role": "assistant", "content": "All done."},
        ],
        [SEND_EMAIL, SEARCH],
    )
    assert findings_of(path, KIND) == []


def test_anthropic_results_take_their_calls_names_and_stay_clean(tmp_path):
    document = {
        "tools": [{"name": "lookup_order", "input_schema": {"type": "object"}}],
        "messages": [
            {"role": "user", "content": "Where is order A-1?"},
            {
                "role": "assistant",
                "content": [
                    {"type": "tool_use", "id": "toolu_1", "name": "lookup_order", "input": {"order_id": "A-1"}}
                ],
            },
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "shipped"}]},
            {"role": "assistant", "content": "Order A-1 has shipped."},
        ],
    }
    assert findings_of(write_json(tmp_path / "support.anthropic.json", document), KIND) == []


def test_a_call_renamed_by_the_unknown_tool_fix_keeps_its_named_result_in_step(write_session, tmp_path):
    messages = _renamed_by_hand()
    messages[1]["tool_calls"][0]["function"]["name"] = "send_mail"  # the call and its result agree, on a typo
    path = write_session(messages, [SEND_EMAIL])
    assert findings_of(path, KIND) == []
    out = tmp_path / "fixed.json"
    assert main(["fix", str(path), "--accept", "unknown-tool", "-o", str(out)]) == 0
    written = json.loads(out.read_text())["messages"]
    assert written[1]["tool_calls"][0]["function"]["name"] == written[2]["name"] == "send_email"
    assert findings_of(out, KIND) == []


def test_fix_accepts_the_kind_and_says_it_has_no_automatic_fix(write_session, tmp_path, capsys):
    path = write_session(_renamed_by_hand(), [SEND_EMAIL])
    out = tmp_path / "fixed.json"
    assert main(["fix", str(path), "--accept", KIND, "-o", str(out)]) == 1
    assert "1 finding of the accepted kinds has no automatic fix" in capsys.readouterr().out
    assert json.loads(out.read_text()) == json.loads(path.read_text())
