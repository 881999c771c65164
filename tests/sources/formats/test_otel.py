"""OpenTelemetry GenAI and OpenInference traces (OTLP JSON), as opentelemetry-instrumentation-openai-v2
2.4b0 and openinference-instrumentation-openai 0.1.66 recorded a scripted tool loop
(sessions/generate/otel_traces.py): one conversation per trace however many model calls
repeat the history, each planted problem reported once at its turn, and read-only."""

import json
from dataclasses import replace

import pytest

from inspector.cli.main import main
from inspector.errors import InspectorError
from inspector.model import ASSISTANT, SYSTEM, TOOL, USER
from inspector.scan.scanner import scan_file
from inspector.sources import FORMATS, load_sessions, render_sessions
from inspector.sources.files.document import read_document
from inspector.sources.formats import SPECIFIC, format_of
from inspector.sources.formats import _otel_messages as otel_messages
from tests.helpers.files import write_json
from tests.helpers.samples import SESSIONS, TOOL_SAMPLES

SAMPLES = TOOL_SAMPLES
GENAI = SESSIONS / "notes-agent.otel.json"  # gen_ai.input.messages / gen_ai.output.messages (semconv 1.37+)
OPENINFERENCE = SAMPLES / "openinference.trace.json"  # llm.input_messages.N.message.*
PLANTED = [
    (2, "result-prefix", None),
    (4, "tool-markup", "read_file"),
    (6, "malformed-arguments", "read_file"),
    (8, "malformed-arguments", "read_file"),
]
ROLES = [SYSTEM, USER, ASSISTANT, USER, ASSISTANT, USER, ASSISTANT, TOOL, ASSISTANT, TOOL, ASSISTANT, TOOL, ASSISTANT]


def _attr(key, value):
    kind = "intValue" if isinstance(value, int) else "stringValue"
    return {"key": key, "value": {kind: str(value) if kind == "intValue" else value}}


def _span(span_id, start, attributes, trace="t1", events=(), name="chat"):
    return {
        "traceId": trace,
        "spanId": span_id,
        "name": name,
        "startTimeUnixNano": str(start),
        "attributes": [_attr(k, v) for k, v in attributes.items()],
        "events": list(events),
    }


def _trace(*spans):
    return {"resourceSpans": [{"resource": {}, "scopeSpans": [{"scope": {"name": "test"}, "spans": list(spans)}]}]}


def _semconv(messages):
    return json.dumps([{"role": role, "parts": [{"type": "text", "content": text}]} for role, text in messages])


@pytest.mark.parametrize("path", [GENAI, OPENINFERENCE])
def test_detected_as_otel_by_no_other_format(path):
    document = read_document(path)
    assert [file_format.name for file_format in SPECIFIC if file_format.claims(document)] == ["otel"]
    assert not FORMATS["openai"].claims(document)
    assert format_of(document).name == "otel"


@pytest.mark.parametrize("path", [GENAI, OPENINFERENCE])
def test_six_model_calls_make_one_conversation_with_each_problem_once(path):
    (result,) = scan_file(path)
    assert [(f.turn, f.kind, f.tool) for f in result.findings] == PLANTED
    session = result.session
    assert [t.role for t in session.turns] == ROLES
    assert session.problems == ("1 span without model messages not read as turns ('agent run')",)
    good = session.turns[10].tool_calls[0]
    assert (good.id, good.arguments) == ("call_mock_good", {"file_path": "notes.txt"})
    (answer,) = session.turns[11].tool_results
    assert (answer.call_id, answer.name, answer.content) == (
        "call_mock_good",
        "read_file",
        "Meeting moved to Thursday.\nBring the draft.\n",
    )
    assert session.turns[12].text == "notes.txt says the meeting moved to Thursday."


def test_openinference_tools_are_the_sessions_tools():
    (session,) = load_sessions(OPENINFERENCE)
    assert [(tool.name, tool.required) for tool in session.tools] == [("read_file", frozenset({"file_path"}))]


def test_a_trace_without_genai_messages_is_refused_in_one_line(tmp_path, capsys):
    path = write_json(tmp_path / "trace.json", _trace(_span("a", 1, {"http.method": "GET"}, name="GET /")), indent=None)
    assert main(["scan", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert "no GenAI" in err and "'GET /'" in err and "not a recognised session format" in err


def test_fix_is_refused_as_read_only_in_one_line(tmp_path, capsys):
    out = tmp_path / "fixed.json"
    assert main(["fix", str(GENAI), "--accept", "all", "-o", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "otel format cannot be written" in err
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_older_prompt_and_completion_attributes(tmp_path):
    first = {
        "gen_ai.prompt.0.role": "user",
        "gen_ai.prompt.0.content": "Read notes.txt.",
        "gen_ai.completion.0.role": "assistant",
        "gen_ai.completion.0.tool_calls.0.id": "c1",
        "gen_ai.completion.0.tool_calls.0.name": "read_file",
        "gen_ai.completion.0.tool_calls.0.arguments": '{"file_path": "notes.txt"}}}}',
    }
    second = {key.replace("completion.0", "prompt.1"): value for key, value in first.items()}
    second |= {
        "gen_ai.prompt.2.role": "tool",
        "gen_ai.prompt.2.tool_call_id": "c1",
        "gen_ai.prompt.2.content": "x",
        "gen_ai.completion.0.role": "assistant",
        "gen_ai.completion.0.content": "Done.",
    }
    path = write_json(tmp_path / "trace.json", _trace(_span("b", 2, second), _span("a", 1, first)), indent=None)
    (result,) = scan_file(path)
    assert [t.role for t in result.session.turns] == [USER, ASSISTANT, TOOL, ASSISTANT]
    assert [(f.turn, f.kind) for f in result.findings] == [(1, "malformed-arguments")]
    assert result.session.turns[2].tool_results[0].name == "read_file"


def test_prompt_and_completion_events(tmp_path):
    def event(name, key, messages):
        return {"name": name, "attributes": [_attr(key, json.dumps(messages))]}

    events = [
        event("gen_ai.content.prompt", "gen_ai.prompt", [{"role": "user", "content": "Hi"}]),
        event("gen_ai.content.completion", "gen_ai.completion", [{"role": "assistant", "content": "Hello"}]),
        {"name": "exception", "attributes": []},
    ]
    (session,) = load_sessions(
        write_json(tmp_path / "trace.json", _trace(_span("a", 1, {}, events=events)), indent=None)
    )
    assert [(t.role, t.text) for t in session.turns] == [(USER, "Hi"), (ASSISTANT, "Hello")]
    assert session.problems == ("1 span event named 'exception' not read",)


def test_conversation_id_groups_and_an_unrelated_history_is_its_own_session(tmp_path):
    def call(span_id, start, trace, inputs, output, **extra):
        attributes = {
            "gen_ai.input.messages": _semconv(inputs),
            "gen_ai.output.messages": _semconv([("assistant", output)]),
        }
        return _span(span_id, start, attributes | extra, trace=trace)

    conversation = {"gen_ai.conversation.id": "conv-1"}
    spans = [
        call("a", 1, "t1", [("user", "one")], "two", **conversation),
        call("b", 2, "t1", [("user", "summarise this")], "summary"),
        call("c", 3, "t2", [("user", "one"), ("assistant", "two"), ("user", "three")], "four", **conversation),
        call(
            "d",
            4,
            "t2",
            [("user", "other")],
            "reply",
            **conversation,
            **{"gen_ai.system_instructions": json.dumps([{"type": "text", "content": "Be brief."}])},
        ),
    ]
    sessions = load_sessions(write_json(tmp_path / "trace.json", _trace(*spans), indent=None))
    assert [(s.session_id, [(t.role, t.text) for t in s.turns]) for s in sessions] == [
        ("conv-1", [(USER, "one"), (ASSISTANT, "two"), (USER, "three"), (ASSISTANT, "four")]),
        ("conv-1#2", [(SYSTEM, "Be brief."), (USER, "other"), (ASSISTANT, "reply")]),
        ("t1", [(USER, "summarise this"), (ASSISTANT, "summary")]),
    ]


def test_json_lines_of_export_requests_with_a_cut_off_last_line(tmp_path):
    request = _trace(
        _span(
            "a",
            1,
            {
                "gen_ai.input.messages": _semconv([("user", "Hi")]),
                "gen_ai.output.messages": _semconv([("assistant", "Hello")]),
            },
        )
    )
    path = tmp_path / "traces.jsonl"
    path.write_text(json.dumps(request) + "\n" + json.dumps(request)[:40] + "\n")
    (session,) = load_sessions(path)
    assert [t.text for t in session.turns] == ["Hi", "Hello"]
    assert len(session.problems) == 1 and "line 2" in session.problems[0] and "cut off" in session.problems[0]


def test_rebuild_reads_each_message_a_bounded_number_of_times(tmp_path, monkeypatch):
    """A growing history of 300 calls: the turns made stay linear in the calls, not quadratic."""
    made = []
    original = otel_messages.MessageReader.turn
    monkeypatch.setattr(
        otel_messages.MessageReader, "turn", lambda self, *args: made.append(1) or original(self, *args)
    )
    history, spans = [], []
    for number in range(300):
        history.append(("user", f"question {number}"))
        answer = _semconv([("assistant", f"answer {number}")])
        spans.append(
            _span(f"s{number}", number, {"gen_ai.input.messages": _semconv(history), "gen_ai.output.messages": answer})
        )
        history.append(("assistant", f"answer {number}"))
    (session,) = load_sessions(write_json(tmp_path / "trace.json", _trace(*spans), indent=None))
    assert len(session.turns) == 600
    assert len(made) <= 3 * 600


def test_write_is_refused(tmp_path):
    sessions = load_sessions(GENAI)
    assert FORMATS["otel"].write is None
    first = sessions[0]
    repaired = replace(first, turns=(replace(first.turns[0], edited=True), *first.turns[1:]))
    with pytest.raises(InspectorError, match="read-only"):
        render_sessions([repaired, *sessions[1:]])


def test_a_history_that_drops_the_previous_answer_starts_a_session_of_its_own(tmp_path):
    """The second input repeats the first's text but not its answer: the quick comparison of texts
    does not apply, every input message is looked up, and none continues the first call."""

    def call(span_id, start, inputs, output):
        return _span(
            span_id,
            start,
            {"gen_ai.input.messages": _semconv(inputs), "gen_ai.output.messages": _semconv([("assistant", output)])},
        )

    spans = [call("a", 1, [("user", "one")], "two"), call("b", 2, [("user", "one"), ("user", "again")], "three")]
    sessions = load_sessions(write_json(tmp_path / "trace.json", _trace(*spans), indent=None))
    assert [[t.text for t in s.turns] for s in sessions] == [["one", "two"], ["one", "again", "three"]]
    assert [s.session_id for s in sessions] == ["t1", "t1#2"]


@pytest.mark.parametrize(
    "span",
    [
        {
            "attributes": [
                {"key": ["x"], "value": {}},
                {"key": "llm.input_messages.0.message.calls", "value": {"stringValue": "x"}},
                {"key": "llm.input_messages.0.message.role", "value": {"stringValue": "user"}},
            ],
            "events": [{"name": ["a"]}],
        },
        {
            "startTimeUnixNano": "9" * 5000,
            "attributes": [
                {"key": "gen_ai.input.messages", "value": {"stringValue": "[[[["}},
                {"key": "gen_ai.output.messages", "value": {"arrayValue": {"values": [{"intValue": "9" * 5000}]}}},
            ],
        },
        {
            "attributes": [
                _attr(
                    "gen_ai.input.messages",
                    json.dumps(
                        [
                            {
                                "role": ["x"],
                                "parts": [{"type": ["t"]}, 5, {"type": "tool_call", "name": "f", "arguments": 3}],
                            },
                            7,
                            {"role": "assistant", "content": "x", "tool_calls": 5},
                        ]
                    ),
                )
            ]
        },
    ],
    ids=["odd keys and names", "broken json and huge numbers", "odd messages"],
)
def test_odd_shapes_are_read_or_refused_in_one_line_never_a_traceback(tmp_path, span):
    path = write_json(tmp_path / "trace.json", {"resourceSpans": [{"scopeSpans": [{"spans": [span]}]}]}, indent=None)
    try:
        sessions = load_sessions(path)
    except InspectorError as error:
        assert "\n" not in str(error)
    else:
        assert sessions and all(session.format == "otel" for session in sessions)
