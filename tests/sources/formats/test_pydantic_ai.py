"""Pydantic AI message histories (`all_messages_json()`), as pydantic-ai 2.68 and 1.107 wrote them
with a scripted `FunctionModel` (sessions/generate/pydantic_ai_history.py): detected, read,
written back byte for byte, and fixed into a history that re-scans clean."""

import json
from dataclasses import replace

import pytest

from inspector.cli.main import main
from inspector.model import ASSISTANT, SYSTEM, TOOL, USER
from inspector.scan.scanner import scan_file
from inspector.sources import FORMATS, load_sessions, render_sessions
from inspector.sources.files.document import read_document
from tests.helpers.samples import SESSIONS, TOOL_SAMPLES

SAMPLES = TOOL_SAMPLES
V2 = SESSIONS / "notes-agent.pydantic-ai.json"  # 2.68: a failed call's error is a tool-return, outcome "retried"
V1 = SAMPLES / "pydantic-ai-1.messages.json"  # 1.107: the same error is a retry-prompt
PLANTED = [
    (1, "result-prefix", None),
    (3, "tool-markup", "read_file"),
    (5, "malformed-arguments", "read_file"),
    (6, "tool-error", "read_file"),
    (7, "malformed-arguments", "read_file"),
    (8, "tool-error", "read_file"),
]


@pytest.mark.parametrize("path", [V2, V1])
def test_detected_as_pydantic_ai_and_not_as_gemini_or_openai(path):
    document = read_document(path)
    assert FORMATS["pydantic-ai"].claims(document)
    assert not FORMATS["gemini"].claims(document)
    assert not FORMATS["openai"].claims(document)
    assert load_sessions(path)[0].format == "pydantic-ai"


@pytest.mark.parametrize("path", [V2, V1])
def test_every_planted_problem_is_found_once_and_the_good_call_is_clean(path):
    (result,) = scan_file(path)
    assert [(f.turn, f.kind, f.tool) for f in result.findings] == PLANTED
    assert result.session.problems == ()


@pytest.mark.parametrize("path", [V2, V1])
def test_turns_roles_calls_and_the_retry_as_the_calls_error(path):
    (session,) = load_sessions(path)
    turns = session.turns
    assert [t.role for t in turns] == [
        USER,
        ASSISTANT,
        USER,
        ASSISTANT,
        USER,
        ASSISTANT,
        TOOL,
        ASSISTANT,
        TOOL,
        ASSISTANT,
        TOOL,
        ASSISTANT,
    ]
    assert turns[0].text.startswith("Please save a journal memory")  # the system prompt is not the user's text
    assert turns[5].text == "Reading notes.txt with the real tool."  # the thinking part is not text
    (broken,) = turns[5].tool_calls
    assert (broken.id, broken.arguments_raw, broken.arguments) == (
        "call_mock_broken_cut",
        '{"file_path": "notes.txt"',
        None,
    )
    (error,) = turns[6].tool_results
    assert (error.call_id, error.name, error.is_error) == ("call_mock_broken_cut", "read_file", True)
    assert "Invalid JSON" in error.content
    (good,) = turns[10].tool_results
    assert (good.content, good.is_error) == ("Meeting moved to Thursday.\nBring the draft.\n", False)


@pytest.mark.parametrize("path", [V2, V1])
def test_round_trip_without_changes_is_byte_identical(path, tmp_path):
    assert render_sessions(load_sessions(path)) == path.read_text(encoding="utf-8")
    indented = tmp_path / "indented.json"
    indented.write_text(json.dumps(json.loads(path.read_text()), indent=2) + "\n", encoding="utf-8")
    assert render_sessions(load_sessions(indented)) == indented.read_text(encoding="utf-8")


@pytest.mark.parametrize("path", [V2, V1])
def test_fix_output_rereads_and_rescans_clean(path, tmp_path):
    out = tmp_path / "fixed.json"
    assert main(["fix", str(path), "--accept", "all", "-o", str(out)]) == 1
    (after,) = scan_file(out)
    assert after.session.format == "pydantic-ai"
    assert [f.kind for f in after.findings] == ["tool-error", "tool-error"]  # the framework's own errors stay
    before, fixed = json.loads(path.read_text()), json.loads(out.read_text())
    assert fixed[7]["parts"][2]["args"] == '{"file_path": "notes.txt"}'  # still a JSON string, now whole
    assert fixed[1]["parts"][0]["content"].startswith("You saw right through me.")
    recovered, answer = fixed[3], fixed[4]  # the call recovered from the markup, answered "not executed"
    assert [(p["part_kind"], p["tool_name"], p["args"]) for p in recovered["parts"]] == [
        ("tool-call", "read_file", {"file_path": "notes.txt"})
    ]
    assert answer["kind"] == "request" and answer["parts"][0]["part_kind"] == "tool-return"
    assert "not executed" in answer["parts"][0]["content"]
    assert fixed[5]["parts"][0]["content"] == "Let me read it."
    untouched = [0, 2, 4, 6, 8, 10, 11]
    assert [fixed[i + 2 if i > 2 else i] for i in untouched] == [before[i] for i in untouched]


def test_a_retry_prompt_without_a_tool_is_the_framework_speaking_as_the_user(tmp_path):
    history = [
        {"parts": [{"content": "Give me a number.", "part_kind": "user-prompt"}], "kind": "request"},
        {"parts": [{"content": "seven", "part_kind": "text"}], "kind": "response"},
        {
            "parts": [
                {
                    "content": "Validation feedback: not an integer",
                    "tool_name": None,
                    "tool_call_id": "x",
                    "part_kind": "retry-prompt",
                }
            ],
            "kind": "request",
        },
        {"parts": [{"content": "You help.", "part_kind": "system-prompt"}], "kind": "request"},
        {
            "parts": [
                {"url": "https://x/y.png", "part_kind": "image-url"},
                {"content": ["Look: ", {"url": "u", "kind": "image-url"}, "this"], "part_kind": "user-prompt"},
            ],
            "kind": "request",
        },
        {"parts": [{"content": "7", "part_kind": "text"}, {"part_kind": "file", "content": {}}], "kind": "response"},
    ]
    path = tmp_path / "h.json"
    path.write_text(json.dumps(history))
    (session,) = load_sessions(path)
    assert [t.role for t in session.turns] == [USER, ASSISTANT, USER, SYSTEM, USER, ASSISTANT]
    assert session.turns[2].text == "Validation feedback: not an integer" and not session.turns[2].tool_results
    assert session.turns[4].text == "Look: this"
    assert sorted(session.problems) == ["1 part of kind 'file' not read", "1 part of kind 'image-url' not read"]
    edited = replace(session.turns[4], text="Now look: this", edited=True)
    out = json.loads(render_sessions([replace(session, turns=session.turns[:4] + (edited,) + session.turns[5:])]))
    assert out[4]["parts"][1]["content"] == ["Now look: ", {"url": "u", "kind": "image-url"}, "this"]
    assert out[4]["parts"][0] == history[4]["parts"][0] and out[:4] == history[:4] and out[5] == history[5]
