"""One recovery per call the model meant: a reply that leaks a call as markup and
also writes a fake result of it, or that makes the call as a structured call and leaks it as text
too, is written with that call once, by `inspector fix --accept all` (OpenAI and Anthropic files)
and by the review's export; a fake result of another call, or markup of another call, is still
recovered, each under an id of its own."""

from __future__ import annotations

import json
from pathlib import Path

from inspector.cli.main import main
from inspector.model import WARNING
from inspector.review.review import Review
from inspector.scan.scanner import scan_file
from inspector.sources import open_source
from inspector.view.repaired_turn import repaired_turn as exported_preview
from tests.helpers.scanning import kinds_of
from tests.helpers.timing import cpu_time
from tests.helpers.tools import SAVE_MEMORY

ARGUMENTS = {"memory_type": "journal", "content": "Ran my first 10k without stopping"}
MARKUP = f"<tool_call>\n{json.dumps({'name': 'save_memory', 'arguments': ARGUMENTS})}\n</tool_call>"
FAKE_RESULT = '{success: true, memory_type: "journal", content: "Ran my first 10k without stopping"}'
ASKED = "Please journal that I ran my first 10k without stopping today."
REPLY = f"{FAKE_RESULT}\nThat's huge! Saved to your journal.\n{MARKUP}"
WEATHER = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    },
}


def fixed(path: Path, tmp_path: Path, name: str = "fixed.json") -> list[dict]:
    """The messages `inspector fix --accept all` writes for `path`."""
    out = tmp_path / name
    assert main(["fix", str(path), "--accept", "all", "-o", str(out)]) == 0
    return json.loads(out.read_text(encoding="utf-8"))["messages"]


def openai_calls(messages: list[dict]) -> list[tuple[str, str, dict]]:
    return [
        (c["id"], c["function"]["name"], json.loads(c["function"]["arguments"]))
        for m in messages
        for c in m.get("tool_calls") or []
    ]


def test_a_fake_result_and_the_leaked_call_it_answers_are_written_as_one_call(write_session, tmp_path):
    path = write_session([{"role": "user", "content": ASKED}, {"role": "assistant", "content": REPLY}], [SAVE_MEMORY])
    (result,) = scan_file(path)
    prefix = next(f for f in result.findings if f.kind == "result-prefix")
    assert prefix.fix.add_calls == () and prefix.severity == WARNING
    assert "tool-markup recovers" in prefix.message
    messages = fixed(path, tmp_path)
    assert [(name, arguments) for _, name, arguments in openai_calls(messages)] == [("save_memory", ARGUMENTS)]
    assert [m for m in messages if m["role"] == "tool"] == [
        {
            "role": "tool",
            "tool_call_id": "call_inspector_1_0",
            "content": "Recovered from the assistant's text by inspector; this call was not executed.",
        }
    ]
    assert [m["content"] for m in messages if m["role"] == "assistant" and m["content"]] == [
        "That's huge! Saved to your journal."
    ]
    assert kinds_of(tmp_path / "fixed.json") == []


def test_the_same_in_an_anthropic_file(tmp_path):
    tools = [
        {
            "name": "save_memory",
            "description": "Save something the user wants remembered.",
            "input_schema": SAVE_MEMORY["function"]["parameters"],
        }
    ]
    document = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 1024,
        "tools": tools,
        "messages": [
            {"role": "user", "content": ASKED},
            {"role": "assistant", "content": [{"type": "text", "text": REPLY}]},
        ],
    }
    path = tmp_path / "session.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    messages = fixed(path, tmp_path)
    uses = [
        block
        for m in messages
        if isinstance(m["content"], list)
        for block in m["content"]
        if block["type"] == "tool_use"
    ]
    assert [(block["name"], block["input"]) for block in uses] == [("save_memory", ARGUMENTS)]
    answers = [
        block
        for m in messages
        if isinstance(m["content"], list)
        for block in m["content"]
        if block["type"] == "tool_result"
    ]
    assert [block["tool_use_id"] for block in answers] == [uses[0]["id"]]


def test_a_leading_call_object_then_its_fake_result_give_one_call(write_session, tmp_path):
    search = {
        "type": "function",
        "function": {
            "name": "search_files",
            "parameters": {
                "type": "object",
                "properties": {"pattern": {"type": "string"}, "recursive": {"type": "boolean"}},
            },
        },
    }
    reply = (
        '{"name": "search_files", "arguments": {"pattern": "*.md", "recursive": true}} '
        '{"success": true, "pattern": "*.md", "matches": 4} Found four Markdown files.'
    )
    path = write_session(
        [{"role": "user", "content": "Which Markdown files are there?"}, {"role": "assistant", "content": reply}],
        [search],
    )
    messages = fixed(path, tmp_path)
    assert [(name, arguments) for _, name, arguments in openai_calls(messages)] == [
        ("search_files", {"pattern": "*.md", "recursive": True})
    ]  # the call, which holds the result's pattern
    assert messages[-1] == {"role": "assistant", "content": "Found four Markdown files."}


def test_a_fake_result_of_another_call_is_still_recovered_under_an_id_of_its_own(write_session, tmp_path):
    other = '{success: true, memory_type: "core", content: "Training for the Leeds half marathon"}'
    reply = f"{other}\nNoted, and saving today's run too.\n{MARKUP}"
    path = write_session([{"role": "user", "content": ASKED}, {"role": "assistant", "content": reply}], [SAVE_MEMORY])
    calls = openai_calls(fixed(path, tmp_path))
    assert sorted((name, arguments["content"]) for _, name, arguments in calls) == [
        ("save_memory", "Ran my first 10k without stopping"),
        ("save_memory", "Training for the Leeds half marathon"),
    ]
    assert len({call_id for call_id, _, _ in calls}) == 2  # the two detectors' ids no longer collide


def _weather_turn(text: str, arguments_raw: str) -> list[dict]:
    return [
        {"role": "user", "content": "What's the weather in Paris?"},
        {
            "role": "assistant",
            "content": text,
            "tool_calls": [
                {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": arguments_raw}}
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": "Sunny, 24 degrees"},
    ]


def test_markup_repeating_the_turns_own_call_is_stripped_not_recovered(write_session, tmp_path):
    text = 'Checking Paris.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>'
    path = write_session(_weather_turn(text, '{"city": "Paris",}'), [WEATHER])  # and the call's own JSON is broken
    (result,) = scan_file(path)
    markup = next(f for f in result.findings if f.kind == "tool-markup")
    assert markup.fix.add_calls == () and "already makes" in markup.message
    messages = fixed(path, tmp_path)
    assert openai_calls(messages) == [("call_1", "get_weather", {"city": "Paris"})]  # repaired, and once
    assert messages[1]["content"] == "Checking Paris." and messages[2]["content"] == "Sunny, 24 degrees"


def test_markup_of_another_call_beside_a_malformed_one_is_recovered_before_it(write_session, tmp_path):
    text = 'And Rome.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Rome"}}\n</tool_call>'
    path = write_session(_weather_turn(text, '{"city": "Paris",}'), [WEATHER])
    messages = fixed(path, tmp_path)
    assert openai_calls(messages) == [
        ("call_inspector_1_0", "get_weather", {"city": "Rome"}),
        ("call_1", "get_weather", {"city": "Paris"}),
    ]
    assert [m["role"] for m in messages] == ["user", "assistant", "tool", "assistant", "tool"]
    assert messages[3]["content"] == "And Rome."


def test_the_whole_turn_as_exported_and_the_export_hold_the_call_once(write_session, tmp_path):
    path = write_session([{"role": "user", "content": ASKED}, {"role": "assistant", "content": REPLY}], [SAVE_MEMORY])
    results = scan_file(path)
    review = Review.open(open_source(path), results)
    findings = review.findings(0)
    for index in range(len(findings)):
        review.approve(0, index)
    approved = [review.approved_finding(0, index) for index in range(len(findings))]
    preview = exported_preview(results[0].session.turns[1], findings, approved)
    assert preview.after == "That's huge! Saved to your journal."
    assert [(call.name, call.arguments, call.origin) for call in preview.calls] == [
        ("save_memory", ARGUMENTS, "recovered")
    ]
    out = tmp_path / "exported.json"
    review.export(out)
    messages = json.loads(out.read_text(encoding="utf-8"))["messages"]
    assert [(name, arguments) for _, name, arguments in openai_calls(messages)] == [("save_memory", ARGUMENTS)]


def test_a_fake_result_before_much_markup_is_read_in_linear_time(write_session):
    reply = FAKE_RESULT + " Saved.\n" + '<tool_call>\n{"name": "save_memory", "arguments": {' * 2_000
    path = write_session([{"role": "user", "content": ASKED}, {"role": "assistant", "content": reply}], [SAVE_MEMORY])
    started = cpu_time()
    assert "result-prefix" in kinds_of(path)
    assert cpu_time() - started < 5
