"""Detector `fake-result-block` on real session files: tool results a model wrote as markup in its
own reply, beside a leaked call or alone; the fix that strips them, alone and together with
`tool-markup`'s (through `inspector fix`, the review's export and the app); the look-alikes that
stay clean; and hostile text that is read in linear time."""

from __future__ import annotations

import json

import pytest
from textual.notifications import Notify
from textual.widgets import Input, Static

from inspector.cli.main import main
from inspector.detect import detect_findings
from inspector.model import ERROR, NOT_EXECUTED
from inspector.review.review import Review
from inspector.scan.early import early_findings
from inspector.scan.scanner import scan_file
from inspector.sources import load_sessions, open_source
from inspector.tui.app import InspectorApp
from inspector.tui.dialogs.export import ExportDialog
from tests.helpers.app import loaded, play_loaded
from tests.helpers.scanning import findings_of
from tests.helpers.timing import cpu_time

KIND = "fake-result-block"
WEATHER = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Current weather in a city.",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    },
}
HERMES_REPLY = (
    'Let me check the weather.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Oslo"}}\n'
    '</tool_call>\n<tool_response>\n{"name": "get_weather", "content": {"temperature": 21, '
    '"condition": "sunny"}}\n</tool_response>\nIt is 21 °C and sunny in Oslo.'
)
ENDING_REPLY = (
    'Checking Bergen too.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Bergen"}}\n'
    '</tool_call>\n<tool_response>\n{"temperature": 12}\n</tool_response>'
)


def kinds_at(findings, turn):
    return sorted(f.kind for f in findings if f.turn == turn)


@pytest.fixture
def weather_session(write_session):
    return write_session(
        [
            {"role": "user", "content": "What's the weather in Oslo?"},
            {"role": "assistant", "content": HERMES_REPLY},
            {"role": "user", "content": "And Bergen?"},
            {"role": "assistant", "content": ENDING_REPLY},
        ],
        [WEATHER],
    )


def test_a_result_after_a_leaked_hermes_call_is_an_error_beside_the_call(weather_session):
    (result,) = scan_file(weather_session)
    assert kinds_at(result.findings, 1) == ["fake-result-block", "tool-markup"]
    first, second = [f for f in result.findings if f.kind == KIND]
    assert (first.turn, first.severity, first.tool, first.executed) == (1, ERROR, "get_weather", None)
    assert HERMES_REPLY[slice(*first.span)].startswith("<tool_response>")
    assert HERMES_REPLY[slice(*first.span)].endswith("</tool_response>")
    assert "invented output" in first.message and first.payload["family"] == "tool_response"
    assert first.fix.apply_to_text(HERMES_REPLY) == HERMES_REPLY.replace(
        HERMES_REPLY[first.span[0] : first.span[1] + 1], ""
    )
    assert second.fix.apply_to_text(ENDING_REPLY).endswith("</tool_call>")  # the white space before it goes too


def test_fix_accept_all_strips_both_and_recovers_the_call(weather_session, tmp_path, capsys):
    out = tmp_path / "fixed.json"
    assert main(["fix", str(weather_session), "--accept", "all", "-o", str(out)]) == 0
    messages = json.loads(out.read_text())["messages"]
    assert [m["role"] for m in messages] == [
        "user",
        "assistant",
        "tool",
        "assistant",
        "user",
        "assistant",
        "tool",
        "assistant",
    ]
    assert messages[1]["tool_calls"][0]["function"] == {"name": "get_weather", "arguments": '{"city": "Oslo"}'}
    assert messages[2]["content"] == NOT_EXECUTED
    assert messages[3]["content"] == "Let me check the weather.\nIt is 21 °C and sunny in Oslo."
    assert messages[7]["content"] == "Checking Bergen too."  # no line left where the two blocks were
    (rescanned,) = scan_file(out)
    assert rescanned.findings == []
    audit = [json.loads(line) for line in (tmp_path / "fixed.json.audit.ndjson").read_text().splitlines()]
    assert sorted(entry["kind"] for entry in audit) == [KIND, KIND, "tool-markup", "tool-markup"]


def test_fix_accept_only_fake_result_block_keeps_the_call_markup(weather_session, tmp_path, capsys):
    out = tmp_path / "fixed.json"
    assert main(["fix", str(weather_session), "--accept", KIND, "-o", str(out)]) == 1
    messages = json.loads(out.read_text())["messages"]
    assert len(messages) == 4
    assert messages[1]["content"] == HERMES_REPLY.split("<tool_response>")[0] + "It is 21 °C and sunny in Oslo."
    assert messages[3]["content"] == ENDING_REPLY.split("\n<tool_response>")[0]
    assert [f.kind for r in scan_file(out) for f in r.findings] == ["tool-markup", "tool-markup"]


def test_approving_both_in_the_review_and_exporting_gives_the_same_text(weather_session, tmp_path):
    review = Review.open(open_source(weather_session), scan_file(weather_session))
    for index, finding in enumerate(review.findings(0)):
        review.approve(0, index)
    out = tmp_path / "exported.json"
    review.export(out)
    messages = json.loads(out.read_text())["messages"]
    assert messages[3]["content"] == "Let me check the weather.\nIt is 21 °C and sunny in Oslo."
    assert messages[7]["content"] == "Checking Bergen too."
    assert messages[1]["tool_calls"][0]["function"]["name"] == "get_weather"


def test_anthropic_function_results_after_leaked_function_calls(tmp_path, capsys):
    reply = (
        'I\'ll look that up.\n\n<function_calls>\n<invoke name="get_weather">\n<parameter name="city">Oslo'
        "</parameter>\n</invoke>\n</function_calls>\n<function_results>\n<result>\n<tool_name>get_weather"
        "</tool_name>\n<stdout>3 °C, light rain</stdout>\n</result>\n</function_results>\n\nIt is 3 °C with light rain."
    )
    document = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 1024,
        "system": "You are terse.",
        "tools": [
            {
                "name": "get_weather",
                "description": "Current weather.",
                "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
            }
        ],
        "messages": [
            {"role": "user", "content": "Weather in Oslo?"},
            {"role": "assistant", "content": [{"type": "text", "text": reply}]},
            {"role": "user", "content": "Thanks."},
        ],
    }
    path = tmp_path / "claude.json"
    path.write_text(json.dumps(document, indent=2), encoding="utf-8")
    (result,) = scan_file(path)
    assert result.session.format == "anthropic"
    assert kinds_at(result.findings, 1) == [KIND, "tool-markup"]
    (fake,) = findings_of(path, KIND)
    assert (fake.tool, fake.payload["family"]) == ("get_weather", "function_results")
    out = tmp_path / "fixed.json"
    assert main(["fix", str(path), "--accept", "all", "-o", str(out)]) == 0
    messages = json.loads(out.read_text())["messages"]
    assert messages[1]["content"][0]["type"] == "tool_use" and messages[1]["content"][0]["input"] == {"city": "Oslo"}
    assert messages[3]["content"][0]["text"] == "I'll look that up.\n\nIt is 3 °C with light rain."
    assert [f.kind for r in scan_file(out) for f in r.findings] == []


def test_gemini_tool_outputs_fence_after_a_tool_code_fence(tmp_path, capsys):
    reply = (
        '```tool_code\nprint(default_api.get_weather(city="Oslo"))\n```\n```tool_outputs\n'
        '{"temperature": 4, "condition": "cloudy"}\n```\nIt is 4 °C and cloudy in Oslo.'
    )
    document = {
        "contents": [
            {"role": "user", "parts": [{"text": "Weather in Oslo?"}]},
            {"role": "model", "parts": [{"text": reply}]},
            {"role": "user", "parts": [{"text": "ok"}]},
        ],
        "tools": [
            {
                "functionDeclarations": [
                    {
                        "name": "get_weather",
                        "parameters": {
                            "type": "object",
                            "properties": {"city": {"type": "string"}},
                            "required": ["city"],
                        },
                    }
                ]
            }
        ],
    }
    path = tmp_path / "gemini.json"
    path.write_text(json.dumps(document, indent=2), encoding="utf-8")
    (result,) = scan_file(path)
    assert result.session.format == "gemini"
    assert kinds_at(result.findings, 1) == [KIND, "tool-markup"]
    out = tmp_path / "fixed.json"
    assert main(["fix", str(path), "--accept", "all", "-o", str(out)]) == 0
    (fixed,) = load_sessions(out)
    assert [t.text for t in fixed.turns if t.role == "assistant" and t.text] == ["It is 4 °C and cloudy in Oslo."]
    assert [c.name for t in fixed.turns for c in t.tool_calls] == ["get_weather"]


def test_sharegpt_fake_response_in_a_gpt_turn_but_not_the_real_tool_turn(tmp_path):
    tools = json.dumps([WEATHER])
    fake = (
        '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Oslo"}}\n</tool_call>\n'
        '<tool_response>\n{"name": "get_weather", "content": "9 °C"}\n</tool_response>\nIt is 9 °C.'
    )
    rows = [
        {
            "id": "fake",
            "tools": tools,
            "conversations": [{"from": "human", "value": "Weather in Oslo?"}, {"from": "gpt", "value": fake}],
        },
        {
            "id": "real",
            "tools": tools,
            "conversations": [
                {"from": "human", "value": "Weather in Oslo?"},
                {
                    "from": "gpt",
                    "value": '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Oslo"}}\n</tool_call>',
                },
                {
                    "from": "tool",
                    "value": '<tool_response>\n{"name": "get_weather", "content": "9 °C"}\n</tool_response>',
                },
                {"from": "gpt", "value": "It is 9 °C."},
            ],
        },
    ]
    path = tmp_path / "hermes.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    fake_result, real_result = scan_file(path)
    assert fake_result.session.format == "sharegpt"
    # the gpt turn's <tool_call> is its real call (left unanswered); the <tool_response> after it is invented
    assert sorted(f.kind for f in fake_result.findings) == [KIND, "orphan-call"]
    assert real_result.findings == []


@pytest.mark.parametrize(
    "reply, family, tool",
    [
        (
            'Thought: I need the weather.\nAction: get_weather\nAction Input: {"city": "Oslo"}\nObservation: 5 °C, windy\n'
            "Thought: I know the answer.\nFinal Answer: It is 5 °C and windy.",
            "react",
            "get_weather",
        ),
        (
            '<|python_tag|>{"name": "get_weather", "parameters": {"city": "Oslo"}}<|eom_id|><|start_header_id|>ipython'
            '<|end_header_id|>\n\n{"temperature": 6}<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\nIt is 6 °C.',
            "llama",
            None,
        ),
        (
            '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Oslo"}}\n</tool_call><|im_end|>\n<|im_start|>tool\n'
            '<tool_response>\n{"temperature": 7}\n</tool_response><|im_end|>\n<|im_start|>assistant\nIt is 7 °C.',
            "chatml",
            None,
        ),
        (
            '[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Oslo"}}][TOOL_RESULTS]{"content": 8}'
            "[/TOOL_RESULTS]It is 8 °C.",
            "mistral",
            None,
        ),
        (
            '<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "Oslo"}<|call|>'
            '<|start|>functions.get_weather to=assistant<|channel|>commentary<|message|>{"temperature": 9}<|end|>'
            "<|start|>assistant<|channel|>final<|message|>It is 9 °C.",
            "harmony",
            "get_weather",
        ),
        ('Here you go.\n<tool_result>\n{"temperature": 10}\n</tool_result>\nIt is 10 °C.', "tool_result", None),
    ],
)
def test_other_families_are_found_and_stripped_to_the_prose(write_session, tmp_path, reply, family, tool, capsys):
    path = write_session(
        [
            {"role": "user", "content": "Weather in Oslo?"},
            {"role": "assistant", "content": reply},
            {"role": "user", "content": "thanks"},
        ],
        [WEATHER],
    )
    (fake,) = findings_of(path, KIND)
    assert (fake.payload["family"], fake.tool) == (family, tool)
    out = tmp_path / "fixed.json"
    assert main(["fix", str(path), "--accept", "all", "-o", str(out)]) == 0
    texts = [m["content"] for m in json.loads(out.read_text())["messages"] if m["role"] == "assistant" and m["content"]]
    (text,) = texts
    assert "°C" in text and not any(
        marker in text
        for marker in (
            "Observation",
            "ipython",
            "<|im_start|>tool",
            "TOOL_RESULTS",
            "functions.get_weather to=",
            "tool_result",
        )
    )


@pytest.mark.parametrize(
    "reply",
    [
        'Wrap each answer in `<tool_response>{"temperature": 21}</tool_response>` tags, as Hermes does.',
        'The format looks like this:\n\n```xml\n<tool_response>\n{"temperature": 21}\n</tool_response>\n```\n\nThat is all.',
        "The tool result came back empty, so I can't tell the weather yet.",
        "An Observation: line is what the agent loop writes after each action.",
        "Use <tool_response></tool_response> around the output.",
        "The harness puts the output in a <tool_response> block; mine never saw one.",
    ],
)
def test_look_alikes_in_replies_stay_clean(write_session, reply):
    path = write_session(
        [{"role": "user", "content": "How do tool results look?"}, {"role": "assistant", "content": reply}], [WEATHER]
    )
    assert findings_of(path, KIND) == []


def test_a_user_quoting_markup_and_a_real_tool_message_stay_clean(write_session):
    path = write_session(
        [
            {"role": "user", "content": 'My model printed <tool_response>{"temperature": 21}</tool_response>. Why?'},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "c1",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": '{"city": "Oslo"}'},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "c1", "content": '<tool_response>\n{"temperature": 21}\n</tool_response>'},
            {"role": "assistant", "content": "It printed the result a tool would give; it is 21 °C in Oslo right now."},
        ],
        [WEATHER],
    )
    (result,) = scan_file(path)
    assert result.findings == []


def test_a_reply_that_is_only_a_fake_result_has_no_fix(write_session):
    path = write_session(
        [
            {"role": "user", "content": "Weather?"},
            {"role": "assistant", "content": '<tool_response>\n{"temperature": 21}\n</tool_response>'},
        ],
        [WEATHER],
    )
    (fake,) = findings_of(path, KIND)
    assert fake.fix is None and "edit the turn by hand" in fake.message.lower()


def test_json_and_text_reports_carry_the_kind(weather_session, capsys):
    assert main(["scan", "--json", str(weather_session)]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["summary"]["by_kind"] == {"tool-markup": 2, KIND: 2}
    finding = next(f for f in report["sessions"][0]["findings"] if f["kind"] == KIND)
    assert finding["severity"] == "error" and finding["fix"]["content"].endswith("It is 21 °C and sunny in Oslo.")
    assert report["rates"]["total"]["kinds"][KIND] == {"count": 2, "per_100_calls": 100.0}  # 2 recovered calls
    assert main(["scan", str(weather_session)]) == 1
    text = capsys.readouterr().out
    assert "error    fake-result-block  get_weather" in text and "fake-result-block 2" in text


def test_early_findings_match_the_full_scan_on_every_prefix(write_session):
    session = load_sessions(
        write_session(
            [
                {"role": "user", "content": "Weather?"},
                {"role": "assistant", "content": HERMES_REPLY},
                {"role": "user", "content": "Bergen?"},
                {"role": "assistant", "content": ENDING_REPLY},
                {"role": "user", "content": "thanks"},
                {"role": "assistant", "content": "You're welcome."},
            ],
            [WEATHER],
        )
    )[0]
    full = detect_findings(session)
    assert KIND in {f.kind for f in full}
    for size in range(1, len(session.turns) + 1):
        early = early_findings(session, first=size, last=size)
        assert early == full[: len(early)]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("<tool_response>" * 6_700, 0),
        ("<tool_response>x</tool_response>" * 3_200, 20),
        ("Action: get_weather\nObservation: x\n" * 2_900, 20),
        ("Observation: x\n" * 6_700, 0),
        ("```tool_outputs\n" * 6_300, 0),
        ("`<tool_response>` " * 5_600, 0),
        (("<tool_result " + "a" * 190) * 490, 0),
        ("<|eot_id|> " * 9_000 + "<|start_header_id|>ipython<|end_header_id|>x", 1),
        ("<|im_start|>tool\n" * 5_900, 0),
        ("[TOOL_RESULTS]" * 7_100, 0),
    ],
    ids=[
        "open-tags",
        "closed-tags",
        "react",
        "observations",
        "open-fences",
        "inline-code",
        "attributes",
        "eot-tokens",
        "chatml-headers",
        "tokens",
    ],
)
def test_hostile_replies_of_100_kb_are_read_in_linear_time(write_session, text, expected):
    path = write_session([{"role": "user", "content": "hi"}, {"role": "assistant", "content": text}], [WEATHER])
    started = cpu_time()
    found = findings_of(path, KIND)
    assert cpu_time() - started < 2.0
    assert len(found) == expected
    if expected == 20:
        assert "more than 20 such blocks" in found[-1].message


@pytest.mark.slow  # drives the app with Pilot
def test_the_app_shows_both_kinds_and_exports_the_approved_pair(weather_session, tmp_path):
    """Through the real app: the fake result and the leaked call on one turn, approved in turn and
    exported, give the prose alone with the recovered call; a narrated action shows, with no fix."""
    document = json.loads(weather_session.read_text())
    document["messages"] += [
        {"role": "user", "content": "And Tromsø?"},
        {"role": "assistant", "content": "Let me check the weather in Tromsø now."},
    ]
    weather_session.write_text(json.dumps(document), encoding="utf-8")
    out = tmp_path / "exported.json"
    notes, shown = [], []

    def hook(message) -> None:
        if isinstance(message, Notify):
            notes.append(message.notification.message)

    async def scenario(pilot) -> None:
        finding = pilot.app.screen.query_one("#finding", Static)
        shown.append(str(finding.visual))
        await pilot.press("a")  # tool-markup, then the fake result of the same turn
        await pilot.pause()
        shown.append(str(finding.visual))
        await pilot.press("a", "a", "a")  # and the two of turn 3: the narration is shown next
        await pilot.pause()
        shown.append(str(finding.visual))
        await pilot.press("x")
        await pilot.pause()
        assert isinstance(pilot.app.screen, ExportDialog)
        pilot.app.screen.query_one("#path", Input).value = str(out)
        await pilot.press("enter")
        await loaded(pilot)

    play_loaded(InspectorApp(weather_session), scenario, message_hook=hook)
    assert "tool-markup" in shown[0] and "fake-result-block" in shown[1] and "narrated-action" in shown[2]
    assert "turn 5" in shown[2] and "fix:" not in shown[2]
    assert notes[-1].startswith(f"Wrote {out}") and "4 fixes applied" in notes[-1]
    messages = json.loads(out.read_text())["messages"]
    assert messages[3]["content"] == "Let me check the weather.\nIt is 21 °C and sunny in Oslo."
    assert messages[7]["content"] == "Checking Bergen too." and messages[9]["content"].startswith("Let me check")
