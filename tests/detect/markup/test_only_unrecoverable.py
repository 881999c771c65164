"""A reply that is nothing but leaked markup with no call to recover (a `{...}` placeholder, a block
cut off before anything readable) keeps its finding but gets no automatic fix: stripping it would
leave an empty assistant message, which the Anthropic and Gemini APIs reject, and lose what the
person saw. `fix --accept all` leaves such a turn alone; replies with prose left, or a call
recovered, keep their fixes. In the app the finding says why and can be edited by hand."""

from __future__ import annotations

import json

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, Static, TextArea

from inspector.cli.main import main
from inspector.model import ASSISTANT
from inspector.sources import load_sessions
from inspector.tui.dialogs.export import ExportDialog
from inspector.tui.review.editor import FixEditor
from tests.helpers.app import drive, finding_text
from tests.helpers.files import write_json
from tests.helpers.pilot import press

KIND = "tool-markup"
NO_FIX = "no automatic fix is offered"
PLACEHOLDER = '**TOOL CALL:**\n```tool_call\n{"name": "create_boat", "arguments": {...}}\n```'
CUT_OFF = '<tool_call>\n{"name": "save_memory", "arguments": {"memory_type": "fact", "cont'  # cut in a key
WITH_PROSE = "Here is how a call looks:\n<tool_call>{...}</tool_call>\nTell me the boat's name first."
RECOVERABLE = '<tool_call>{"name": "get_weather", "arguments": {"city": "Oslo"}}</tool_call>'
# A user asks, the assistant replies; the replies in order, and what `fix --accept all` leaves of each.
EXCHANGE = [
    ("Add a boat called Sea Breeze.", PLACEHOLDER),
    ("That didn't work. Remember that I like rain.", CUT_OFF),
    ("Try again, please.", WITH_PROSE),
    ("And the weather in Oslo?", RECOVERABLE),
]
LEFT_ALONE = [PLACEHOLDER, CUT_OFF]
STRIPPED = "Here is how a call looks:\nTell me the boat's name first."

PROPERTIES = {
    "create_boat": {"name": {"type": "string"}},
    "get_weather": {"city": {"type": "string"}},
    "save_memory": {"memory_type": {"type": "string"}, "content": {"type": "string"}},
}
SCHEMAS = {name: {"type": "object", "properties": properties} for name, properties in PROPERTIES.items()}


def _openai() -> dict:
    messages = [
        m
        for question, reply in EXCHANGE
        for m in ({"role": "user", "content": question}, {"role": "assistant", "content": reply})
    ]
    return {
        "tools": [{"type": "function", "function": {"name": n, "parameters": s}} for n, s in SCHEMAS.items()],
        "messages": [{"role": "system", "content": "You manage a marina."}] + messages,
    }


def _anthropic() -> dict:
    messages = [
        m
        for question, reply in EXCHANGE
        for m in (
            {"role": "user", "content": question},
            {"role": "assistant", "content": [{"type": "text", "text": reply}]},
        )
    ]
    return {
        "model": "claude-sonnet-4-5",
        "max_tokens": 1024,
        "system": "You manage a marina.",
        "tools": [{"name": n, "input_schema": s} for n, s in SCHEMAS.items()],
        "messages": messages,
    }


def _gemini() -> dict:
    contents = [
        m
        for question, reply in EXCHANGE
        for m in ({"role": "user", "parts": [{"text": question}]}, {"role": "model", "parts": [{"text": reply}]})
    ]
    return {
        "systemInstruction": {"parts": [{"text": "You manage a marina."}]},
        "tools": [{"functionDeclarations": [{"name": n, "parameters": s} for n, s in SCHEMAS.items()]}],
        "contents": contents,
    }


def _session_dump() -> dict:
    entries = [{"role": "system", "node_type": "system", "content": "You manage a marina.", "timestamp": 1.0}]
    for question, reply in EXCHANGE:
        entries.append({"role": "user", "node_type": "user", "content": question, "timestamp": len(entries) + 1.0})
        entries.append(
            {
                "role": "assistant",
                "node_type": "turn_output",
                "content": reply,
                "model": "qwen2.5-7b",
                "timestamp": len(entries) + 1.0,
            }
        )
    return {
        "session_id": "marina-1",
        "dumped_at": "2026-11-20T09:00:00",
        "entry_count": len(entries),
        "entries": entries,
    }


DOCUMENTS = {"openai": _openai, "anthropic": _anthropic, "gemini": _gemini, "session-dump": _session_dump}


def _findings(path, capsys) -> list[dict]:
    capsys.readouterr()
    main(["scan", str(path), "--json"])
    (session,) = json.loads(capsys.readouterr().out)["sessions"]
    return [finding for finding in session["findings"] if finding["kind"] == KIND]


@pytest.mark.parametrize("name", DOCUMENTS)
def test_scan_reports_markup_only_replies_without_a_fix_and_says_why(tmp_path, capsys, name):
    findings = _findings(write_json(tmp_path / f"{name}.json", DOCUMENTS[name]()), capsys)
    assert len(findings) == 4
    placeholder, cut_off, with_prose, recoverable = findings
    for finding, tool in ((placeholder, "create_boat"), (cut_off, "save_memory")):
        assert (finding["tool"], finding["severity"], finding["fix"]) == (tool, "warning", None)
        assert NO_FIX in finding["message"] and "empty reply" in finding["message"]
        assert "Edit the turn by hand in the app" in finding["message"]
    assert "placeholder arguments" in placeholder["message"]
    assert with_prose["fix"]["content"] == STRIPPED and NO_FIX not in with_prose["message"]
    assert recoverable["fix"]["tool_calls"][0]["arguments"] == {"city": "Oslo"}


@pytest.mark.parametrize("name", DOCUMENTS)
def test_fix_all_leaves_markup_only_replies_alone_and_fixes_the_rest(tmp_path, capsys, name):
    source, out = write_json(tmp_path / f"{name}.json", DOCUMENTS[name]()), tmp_path / "fixed.json"
    before = source.read_text()
    assert main(["fix", str(source), "--accept", "all", "-o", str(out)]) == 1
    assert source.read_text() == before
    (session,) = load_sessions(out)
    replies = [turn for turn in session.turns if turn.role == ASSISTANT]
    assert all(turn.text.strip() or turn.tool_calls for turn in replies)  # no empty reply anywhere
    texts = [turn.text for turn in replies if turn.text]
    assert texts == LEFT_ALONE + [STRIPPED]
    assert [call.name for turn in replies for call in turn.tool_calls] == ["get_weather"]
    assert len((tmp_path / "fixed.json.audit.ndjson").read_text().splitlines()) == 2
    remaining = _findings(out, capsys)  # what is left is for a person, and still says so
    assert [(f["tool"], f["fix"]) for f in remaining] == [("create_boat", None), ("save_memory", None)]


@pytest.mark.parametrize(
    "reply, fixes",
    [
        pytest.param("<tool_call>{...}</tool_call>", [False], id="literal-placeholder-tags"),
        pytest.param("```tool_call\n{...}\n```", [False], id="literal-placeholder-fence"),
        pytest.param('<tool_call>\n{"na', [False], id="cut-off-before-the-name"),
        pytest.param("<tool_call>", [False], id="output-stops-at-the-marker"),
        pytest.param("[TOOL_CALLS]", [False], id="mistral-marker-alone"),
        pytest.param(
            "```tool_code\nprint(default_api.get_weather(city=input()))\n```", [False], id="tool-code-not-literal"
        ),
        pytest.param(PLACEHOLDER + "\n\n" + CUT_OFF, [False, False], id="two-unrecoverable-blocks"),
        pytest.param(PLACEHOLDER + "\n" + RECOVERABLE, [True, True], id="placeholder-then-a-recoverable-call"),
        pytest.param("Let me check.\n<tool_call>", [True], id="prose-then-a-cut-off-marker"),
    ],
)
def test_a_fix_is_offered_only_where_something_would_remain(write_session, capsys, reply, fixes):
    path = write_session(
        [{"role": "user", "content": "Weather in Oslo?"}, {"role": "assistant", "content": reply}],
        [{"type": "function", "function": {"name": "get_weather", "parameters": SCHEMAS["get_weather"]}}],
    )
    findings = _findings(path, capsys)
    assert [f["fix"] is not None for f in findings] == fixes
    assert all((NO_FIX in f["message"]) == (f["fix"] is None) for f in findings)


def test_prose_mentioning_a_marker_is_still_not_a_finding(write_session, capsys):
    for reply in (
        "Use <tool_call>{json}</tool_call> to call tools.",
        "[TOOL_CALLS] {x} is Mistral's marker.",
        "Wrap it as `<tool_call>{...}</tool_call>`.",
    ):
        path = write_session([{"role": "assistant", "content": reply}])
        assert _findings(path, capsys) == [], reply


def test_a_reply_with_its_own_call_keeps_the_strip_fix(write_session, capsys):
    call = {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Oslo"}'}}
    path = write_session(
        [
            {"role": "user", "content": "Weather in Oslo?"},
            {"role": "assistant", "content": PLACEHOLDER, "tool_calls": [call]},
            {"role": "tool", "tool_call_id": "call_1", "content": "3 degrees"},
        ]
    )
    (finding,) = _findings(path, capsys)
    assert finding["fix"]["content"] == "" and finding["fix"]["tool_calls"] == []


@pytest.mark.slow  # drives the app with Pilot
def test_the_app_shows_why_and_the_turn_can_be_edited_by_hand(tmp_path):
    path = write_json(tmp_path / "marina.anthropic.json", _anthropic())
    out = tmp_path / "edited.json"

    async def scenario(pilot: Pilot, notes: list[str]) -> None:
        screen = pilot.app.screen
        assert NO_FIX in finding_text(pilot) and "create_boat" in finding_text(pilot)
        assert "No automatic fix for this finding" in str(screen.query_one("#repair", Static).visual)
        await press(pilot, "a")  # nothing to approve: it stays pending, and the app says so
        assert screen.review.status(0, 0) == "pending" and "no automatic fix" in notes[-1]
        await press(pilot, "e")
        editor = pilot.app.screen
        assert isinstance(editor, FixEditor) and editor.query_one("#text", TextArea).text == PLACEHOLDER
        editor.query_one("#text", TextArea).text = "What name should the boat have?"
        await press(pilot, "ctrl+s")
        assert screen.review.status(0, 0) == "edited"
        await press(pilot, "x")
        assert isinstance(pilot.app.screen, ExportDialog)
        pilot.app.screen.query_one("#path", Input).value = str(out)
        await press(pilot, "enter")
        await pilot.app.workers.wait_for_complete()

    drive(path, scenario)
    messages = json.loads(out.read_text())["messages"]
    assert messages[1] == {
        "role": "assistant",
        "content": [{"type": "text", "text": "What name should the boat have?"}],
    }
    assert messages[3] == _anthropic()["messages"][3]  # the cut-off reply, not decided, as it was


def test_strips_of_two_kinds_that_together_empty_a_reply_leave_it_alone(write_session, capsys):
    reply = '{"status": "saved"}\n' + PLACEHOLDER  # a fake result, then example markup: nothing else
    path = write_session(
        [
            {"role": "user", "content": "Add a boat called Sea Breeze."},
            {"role": "assistant", "content": reply},
            {"role": "user", "content": "Thanks."},
        ]
    )
    out = path.with_name("fixed.json")
    capsys.readouterr()
    main(["scan", str(path), "--json"])
    (session,) = json.loads(capsys.readouterr().out)["sessions"]
    assert sorted(f["kind"] for f in session["findings"] if f["fix"]) == [
        "result-prefix",
        KIND,
    ]  # each leaves some text
    assert main(["fix", str(path), "--accept", "all", "-o", str(out)]) == 1
    assert json.loads(out.read_text())["messages"] == json.loads(path.read_text())["messages"]
