"""Markup inside the model's thinking is the model thinking, not a call: never recovered (vLLM and
SGLang ignore it too). Inline thinking (`<think>...</think>` left in the text by a server without a
reasoning parser, `<seed:think>`, `[THINK]`) is skipped; when the reply makes no call at all, the
first draft gets an info note without a fix. Thinking that formats keep apart from the text
(Anthropic and Claude Code thinking blocks, Pydantic AI thinking parts, AI SDK and Gemini
reasoning) is never scanned."""

import json

import pytest

from inspector.model import ERROR, INFO
from inspector.scan.scanner import scan_file
from tests.helpers.markup import TOOLS, fixed_calls_and_texts, markup_findings
from tests.helpers.samples import TOOL_SAMPLES
from tests.helpers.timing import cpu_time

SAMPLES = TOOL_SAMPLES
DRAFT = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris", "days": 3}}\n</tool_call>'
REAL = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris", "days": 2}}\n</tool_call>'
THOUGHT = (
    "<think>\nThe user wants the Paris forecast. I could call the weather tool like this:\n"
    f"{DRAFT}\nActually two days is what they asked for. Let me answer properly.\n</think>\n\n"
)


def _findings(write_session, reply, calls=None):
    message = {"role": "assistant", "content": reply}
    if calls:
        message["tool_calls"] = calls
    path = write_session(
        [{"role": "user", "content": "What's the weather in Paris for the next 2 days?"}, message]
        + ([{"role": "tool", "tool_call_id": calls[0]["id"], "content": "Sunny, 21 C"}] if calls else []),
        TOOLS,
    )
    return path, markup_findings(path)


def test_a_draft_in_thinking_is_not_recovered_and_the_real_call_after_it_is(write_session):
    reply = THOUGHT + REAL
    _, findings = _findings(write_session, reply)
    (finding,) = findings
    assert (finding.severity, finding.arguments) == (ERROR, {"city": "Paris", "days": 2})
    assert reply[slice(*finding.span)].strip() == REAL
    assert finding.fix.apply_to_text(reply) == THOUGHT.rstrip()  # the thinking is left as it was


def test_a_draft_in_a_reply_that_makes_no_call_gets_an_info_note_without_a_fix(write_session):
    reply = THOUGHT + "It will be sunny in Paris for the next two days, around 21 C."
    _, findings = _findings(write_session, reply)
    (note,) = findings
    assert (note.severity, note.fix, note.tool, note.arguments) == (INFO, None, "get_weather", None)
    assert reply[slice(*note.span)] == DRAFT
    assert "thinking" in note.message and "nothing is recovered" in note.message


def test_a_draft_in_a_reply_with_its_own_structured_call_is_silent(write_session):
    call = {
        "id": "call_1",
        "type": "function",
        "function": {"name": "get_weather", "arguments": '{"city": "Paris", "days": 2}'},
    }
    _, findings = _findings(write_session, THOUGHT + "Checking the forecast.", [call])
    assert findings == []


def test_fix_leaves_the_thinking_and_recovers_only_the_real_call(write_session, tmp_path):
    path, _ = _findings(write_session, THOUGHT + REAL)
    calls, texts = fixed_calls_and_texts(path, tmp_path)
    assert calls == [("get_weather", {"city": "Paris", "days": 2})]
    assert texts == [THOUGHT.rstrip()]


@pytest.mark.parametrize(
    "reply, real",
    [
        pytest.param(
            "The user wants Paris. Draft: " + DRAFT + "\nOK, two days.</think>\n\n" + REAL,
            REAL,
            id="opening-tag-in-the-prompt",
        ),
        pytest.param(
            "<seed:think>I will call <seed:tool_call><function=get_weather><parameter=city>Paris</parameter>"
            "</function></seed:tool_call> later.</seed:think>\nLet me check.\n" + REAL,
            REAL,
            id="seed-oss",
        ),
        pytest.param(
            '[THINK]Maybe [TOOL_CALLS]get_weather{"city": "Paris", "days": 3} is right.[/THINK]'
            'Checking now.\n[TOOL_CALLS]get_weather{"city": "Paris", "days": 2}',
            '[TOOL_CALLS]get_weather{"city": "Paris", "days": 2}',
            id="mistral-think",
        ),
        pytest.param(
            "<think>The user wants two days in Paris; I will call the tool now.\n" + REAL,
            REAL,
            id="thinking-left-open-then-a-call",
        ),  # Qwen3.5 and GLM start calling without closing
    ],
)
def test_only_the_call_outside_thinking_is_recovered(write_session, reply, real):
    _, findings = _findings(write_session, reply)
    (finding,) = findings
    assert finding.severity == ERROR and finding.arguments == {"city": "Paris", "days": 2}
    assert reply[slice(*finding.span)].strip() == real


def test_thinking_cut_off_before_it_closes_hides_its_drafts(write_session):
    reply = (
        "<think>\nTo answer I need the forecast. The call would be "
        '[get_weather(city="Paris", days=2)]\nand then I summarise the highs and'
    )
    _, findings = _findings(write_session, reply)
    (note,) = findings
    assert (note.severity, note.fix, note.tool) == (INFO, None, "get_weather")


@pytest.mark.parametrize(
    "reply",
    [
        "Reasoning models wrap their thoughts in `<think>` tags. Checking the forecast now.\n" + REAL,
        "```text\n<think>\nsample reasoning\n```\nChecking the forecast now.\n" + REAL,
        "Here is what I found.</think> is a tag I was told to ignore, but first:\n" + REAL,
    ],
)
def test_a_tag_mentioned_in_prose_or_code_hides_nothing(write_session, reply):
    _, findings = _findings(write_session, reply)
    assert [(f.severity, f.arguments) for f in findings] == [(ERROR, {"city": "Paris", "days": 2})]


def test_thinking_without_markup_is_silent(write_session):
    reply = "<think>\nParis in spring is mild; no tool needed.\n</think>\n\nExpect mild weather, around 18 C."
    assert _findings(write_session, reply)[1] == []


def _claude_code_with_thinking(text):
    lines = (SAMPLES / "claude-code.jsonl").read_text().splitlines()
    event = json.loads(lines[5])
    event["message"]["content"].insert(0, {"type": "thinking", "thinking": text, "signature": "c2lnbmF0dXJl"})
    lines[5] = json.dumps(event)
    return "\n".join(lines) + "\n"


def _pydantic_ai_with_thinking(text):
    return (
        (SAMPLES / "pydantic-ai.messages.json")
        .read_text()
        .replace("The user wants the real tool now.", json.dumps(text)[1:-1])
    )


def _ai_sdk_with_reasoning(text):
    return (
        (SAMPLES / "ai-sdk.model-messages.json")
        .read_text()
        .replace("The user wants the real tool now.", json.dumps(text)[1:-1])
    )


def _anthropic_with_thinking(text):
    return json.dumps(
        {
            "model": "claude-sonnet-4-5",
            "max_tokens": 1024,
            "tools": [
                {"name": "get_weather", "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}}}
            ],
            "messages": [
                {"role": "user", "content": "Weather in Paris?"},
                {
                    "role": "assistant",
                    "content": [
                        {"type": "thinking", "thinking": text, "signature": "c2ln"},
                        {"type": "text", "text": "It is sunny in Paris today."},
                    ],
                },
            ],
        }
    )


def _gemini_with_thought(text):
    return json.dumps(
        {
            "tools": [
                {
                    "functionDeclarations": [
                        {
                            "name": "get_weather",
                            "parameters": {"type": "OBJECT", "properties": {"city": {"type": "STRING"}}},
                        }
                    ]
                }
            ],
            "contents": [
                {"role": "user", "parts": [{"text": "Weather in Paris?"}]},
                {"role": "model", "parts": [{"text": text, "thought": True}, {"text": "It is sunny in Paris today."}]},
            ],
        }
    )


KEPT_APART = {
    "claude-code.jsonl": _claude_code_with_thinking,
    "pydantic-ai.json": _pydantic_ai_with_thinking,
    "ai-sdk.json": _ai_sdk_with_reasoning,
    "anthropic.json": _anthropic_with_thinking,
    "gemini.json": _gemini_with_thought,
}


@pytest.mark.parametrize("name", KEPT_APART)
def test_thinking_kept_apart_from_the_text_is_never_scanned(tmp_path, name):
    plain, drafted = tmp_path / f"plain.{name}", tmp_path / f"drafted.{name}"
    plain.write_text(KEPT_APART[name]("I should look the weather up first."))
    drafted.write_text(
        KEPT_APART[name]("I should call it: " + DRAFT.replace("get_weather", "read_file") + "\nand also " + DRAFT)
    )
    assert "<tool_call>" in drafted.read_text()
    [before], [after] = scan_file(plain), scan_file(drafted)
    # read as text, the two drafts would be two tool-markup findings more
    assert [(f.turn, f.kind, f.severity) for f in after.findings] == [
        (f.turn, f.kind, f.severity) for f in before.findings
    ]


HOSTILE = {
    "opening tags": "<think>" * 20_000 + REAL,
    "closing tags": "</think>" * 20_000 + REAL,
    "drafts in thinking": "<think>" + DRAFT * 2_000 + "</think>It is sunny.",
    "thinking opened and closed": ("<think>" + DRAFT + "</think>") * 1_500 + "It is sunny.",
}


@pytest.mark.parametrize("reply", HOSTILE.values(), ids=HOSTILE.keys())
def test_hostile_thinking_is_read_in_linear_time(write_session, reply):
    started = cpu_time()
    _, findings = _findings(write_session, reply)
    assert cpu_time() - started < 3
    assert len(findings) <= 1


@pytest.mark.parametrize(
    "thought",
    [
        pytest.param("<think>The user wants Paris.</think>\n", id="whole-thinking"),
        pytest.param("The user wants Paris.</think>", id="closing-tag-only"),
        pytest.param("[THINK]The user wants Paris.[/THINK] ", id="mistral-thinking"),
    ],
)
def test_a_call_object_right_after_the_thinking_is_recovered_when_prose_follows_it(write_session, thought):
    call = '{"name": "get_weather", "arguments": {"city": "Paris", "days": 2}}'
    reply = f"{thought}{call}\nLooking it up now."
    _, findings = _findings(write_session, reply)
    (finding,) = findings
    assert (finding.severity, finding.tool, finding.arguments) == (ERROR, "get_weather", {"city": "Paris", "days": 2})
    assert reply[slice(*finding.span)].strip() == call
