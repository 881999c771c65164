"""Vercel AI SDK histories, as `ai` 6.0.326 wrote them with a scripted `MockLanguageModelV3`
(sessions/generate/ai_sdk.mjs): `ModelMessage[]` (`response.messages`) and `UIMessage[]`
(persisted from `toUIMessageStream`): detected, read, written back byte for byte, and fixed into
histories that re-scan clean."""

import json
from dataclasses import replace

import pytest

from inspector.cli.main import main
from inspector.model import ASSISTANT, TOOL, USER, ToolResult
from inspector.scan.scanner import scan_file
from inspector.sources import FORMATS, load_sessions, render_sessions
from inspector.sources.files.document import read_document
from tests.helpers.samples import SESSIONS

MODEL = SESSIONS / "notes-agent.ai-sdk-model.json"
UI = SESSIONS / "notes-agent.ai-sdk-ui.json"
COMMON = [(1, "result-prefix", None), (3, "tool-markup", "read_file")]


@pytest.mark.parametrize(("path", "name"), [(MODEL, "ai-sdk-model"), (UI, "ai-sdk-ui")])
def test_detected_by_its_own_format_only(path, name):
    document = read_document(path)
    assert [n for n, file_format in FORMATS.items() if file_format.claims(document) and n != "openai"] == [name]
    assert load_sessions(path)[0].format == name


def test_model_messages_planted_problems_found_once_the_good_call_clean():
    (result,) = scan_file(MODEL)
    # the SDK stores a call whose arguments did not parse with `input: {}`: only its error result shows it
    assert [(f.turn, f.kind, f.tool) for f in result.findings] == COMMON + [
        (6, "tool-error", "read_file"),
        (8, "tool-error", "read_file"),
    ]
    turns = result.session.turns
    assert [t.role for t in turns] == [USER, ASSISTANT] * 3 + [TOOL, ASSISTANT, TOOL, ASSISTANT, TOOL, ASSISTANT]
    assert turns[5].text == "Reading notes.txt with the real tool."  # reasoning is not text
    assert turns[10].tool_results == (
        ToolResult("call_mock_good", "read_file", "Meeting moved to Thursday.\nBring the draft.\n"),
    )


def test_ui_messages_planted_problems_found_once_the_good_call_clean():
    (result,) = scan_file(UI)
    assert [(f.turn, f.kind, f.tool) for f in result.findings] == COMMON + [
        (5, "malformed-arguments", "read_file"),
        (6, "tool-error", "read_file"),
        (7, "malformed-arguments", "read_file"),
        (8, "tool-error", "read_file"),
    ]
    turns = result.session.turns
    # the last reply's four steps: text + broken call, its error; broken call, its error; good call, its result; answer
    assert [t.role for t in turns] == [USER, ASSISTANT] * 3 + [TOOL, ASSISTANT, TOOL, ASSISTANT, TOOL, ASSISTANT]
    assert {t.id for t in turns[5:]} == {"assistant-3"}
    assert turns[5].tool_calls[0].arguments_raw == '{"file_path": "notes.txt"'  # the rawInput of the failed call
    assert turns[6].tool_results == (ToolResult("call_mock_broken_cut", "read_file", "An error occurred.", True),)
    assert turns[10].tool_results[0].content == "Meeting moved to Thursday.\nBring the draft.\n"
    assert turns[11].text == "notes.txt says the meeting moved to Thursday."


@pytest.mark.parametrize("path", [MODEL, UI])
def test_round_trip_without_changes_is_byte_identical(path, tmp_path):
    assert render_sessions(load_sessions(path)) == path.read_text(encoding="utf-8")
    compact = tmp_path / "compact.json"  # as JSON.stringify(messages) writes it
    compact.write_text(json.dumps(json.loads(path.read_text()), separators=(",", ":"), ensure_ascii=False))
    assert render_sessions(load_sessions(compact)) == compact.read_text(encoding="utf-8")


def test_model_messages_fix_rereads_and_rescans_clean(tmp_path):
    out = tmp_path / "fixed.json"
    assert main(["fix", str(MODEL), "--accept", "all", "-o", str(out)]) == 1
    (after,) = scan_file(out)
    assert after.session.format == "ai-sdk-model"
    assert [f.kind for f in after.findings] == ["tool-error", "tool-error"]
    before, fixed = json.loads(MODEL.read_text()), json.loads(out.read_text())
    assert fixed[3] == {
        "role": "assistant",
        "content": [
            {
                "type": "tool-call",
                "toolCallId": fixed[3]["content"][0]["toolCallId"],
                "toolName": "read_file",
                "input": {"file_path": "notes.txt"},
            }
        ],
    }
    assert fixed[4]["role"] == "tool" and fixed[4]["content"][0]["output"]["type"] == "text"
    assert fixed[5] == {"role": "assistant", "content": [{"type": "text", "text": "Let me read it."}]}
    assert fixed[1]["content"][0]["text"].startswith("You saw right through me.")
    assert [fixed[0], fixed[2]] + fixed[6:] == [before[0], before[2]] + before[4:]


def test_ui_messages_fix_rereads_and_rescans_clean(tmp_path):
    out = tmp_path / "fixed.json"
    assert main(["fix", str(UI), "--accept", "all", "-o", str(out)]) == 1
    (after,) = scan_file(out)
    assert after.session.format == "ai-sdk-ui"
    assert [f.kind for f in after.findings] == ["tool-error", "tool-error"]
    before, fixed = json.loads(UI.read_text()), json.loads(out.read_text())
    assert len(fixed) == len(before)  # a UI message keeps its calls and results inside
    recovered = fixed[3]["parts"]
    assert [p["type"] for p in recovered] == ["step-start", "text", "tool-read_file"]
    assert recovered[1]["text"] == "Let me read it."
    assert recovered[2]["state"] == "output-available" and "not executed" in recovered[2]["output"]
    broken = [p for p in fixed[5]["parts"] if p.get("toolCallId", "").startswith("call_mock_broken")]
    assert [(p["input"], "rawInput" in p, p["state"]) for p in broken] == [
        ({"file_path": "notes.txt"}, False, "output-error")
    ] * 2
    assert [fixed[0], fixed[2], fixed[4]] == [before[0], before[2], before[4]]
    good = [p for p in fixed[5]["parts"] if p.get("toolCallId") == "call_mock_good"]
    assert good == [p for p in before[5]["parts"] if p.get("toolCallId") == "call_mock_good"]


def test_ui_unanswered_call_gets_its_result_in_its_own_part_and_v4_invocations_are_read(tmp_path):
    messages = [
        {"id": "u", "role": "user", "parts": [{"type": "text", "text": "Weather?"}]},
        {
            "id": "a",
            "role": "assistant",
            "parts": [
                {"type": "step-start"},
                {"type": "text", "text": "Checking."},
                {"type": "tool-get_weather", "toolCallId": "c1", "state": "input-available", "input": {"city": "Oslo"}},
                {"type": "step-start"},
                {"type": "text", "text": "Also Rome."},
                {
                    "type": "tool-invocation",
                    "toolInvocation": {
                        "state": "result",
                        "toolCallId": "c2",
                        "toolName": "get_weather",
                        "args": {"city": "Rome"},
                        "result": {"temp": 20},
                    },
                },
                {"type": "data-weather", "data": {}},
                {"type": "mystery"},
            ],
        },
        {"id": "u2", "role": "user", "parts": [{"type": "text", "text": "Thanks."}]},
    ]
    path = tmp_path / "chat.json"
    path.write_text(json.dumps({"id": "chat-1", "messages": messages}, indent=2))
    (result,) = scan_file(path)
    assert result.session.format == "ai-sdk-ui"
    assert result.session.problems == ("1 part of type 'mystery' not read",)
    assert [(f.turn, f.kind) for f in result.findings] == [(1, "orphan-call")]
    out = tmp_path / "fixed.json"
    main(["fix", str(path), "--accept", "orphan-call", "-o", str(out)])
    fixed = json.loads(out.read_text())
    part = fixed["messages"][1]["parts"][2]
    assert part["state"] == "output-error" and "No result was recorded" in part["errorText"]
    assert fixed["messages"][1]["parts"][3:] == messages[1]["parts"][3:]
    assert [f.kind for f in scan_file(out)[0].findings] == []  # the recorded "no result" is inspector's own answer


def test_model_messages_v4_args_and_result_keys_are_read_and_kept(tmp_path):
    messages = [
        {"role": "user", "content": "Weather?"},
        {
            "role": "assistant",
            "content": [{"type": "tool-call", "toolCallId": "c1", "toolName": "get_wether", "args": {"city": "Oslo"}}],
        },
        {
            "role": "tool",
            "content": [
                {
                    "type": "tool-result",
                    "toolCallId": "c1",
                    "toolName": "get_wether",
                    "result": {"error": "unknown tool"},
                    "isError": True,
                }
            ],
        },
    ]
    path = tmp_path / "v4.json"
    path.write_text(json.dumps(messages))
    (session,) = load_sessions(path)
    assert session.format == "ai-sdk-model"
    assert session.turns[1].tool_calls[0].arguments == {"city": "Oslo"}
    assert session.turns[2].tool_results == (ToolResult("c1", "get_wether", {"error": "unknown tool"}, True),)
    call = replace(session.turns[1].tool_calls[0], name="get_weather")
    turns = (
        session.turns[0],
        replace(session.turns[1], tool_calls=(call,), edited=True),
        replace(
            session.turns[2], tool_results=(replace(session.turns[2].tool_results[0], name="get_weather"),), edited=True
        ),
    )
    out = json.loads(render_sessions([replace(session, turns=turns)]))
    assert out[1]["content"][0] == {**messages[1]["content"][0], "toolName": "get_weather"}
    assert out[2]["content"][0] == {**messages[2]["content"][0], "toolName": "get_weather"}
