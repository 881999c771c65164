"""An Anthropic Messages file with a stray `{"role": "system"}` message (where some SDK wrappers and
dumps put the system prompt) is still read as Anthropic: the message is a system turn, scans find
what they find without it, and `fix` writes it back unchanged. OpenAI files with system messages
stay OpenAI."""

import json

import pytest

from inspector.cli.main import main
from inspector.model import SYSTEM, USER
from inspector.sources import load_sessions, render_sessions
from tests.helpers.samples import SESSIONS

SAMPLE = SESSIONS / "support-agent.anthropic.json"
WRAPPER_SYSTEM = {"role": "system", "content": "You are Tea & Co's support agent. Be brief."}
BLOCK_SYSTEM = {
    "role": "system",
    "content": [
        {"type": "text", "text": "You are Tea & Co's support agent.", "cache_control": {"type": "ephemeral"}},
        {"type": "text", "text": " Be brief."},
    ],
}


def _stray_system(tmp_path, system_message, keep_top_level):
    """The support-agent sample with `system_message` first in `messages`, the top-level `system`
    key kept or (as a wrapper that moved it would) dropped."""
    document = json.loads(SAMPLE.read_text())
    if not keep_top_level:
        del document["system"]
    document["messages"].insert(0, system_message)
    path = tmp_path / "stray-system.anthropic.json"
    path.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def _scan(path, capsys, *options):
    capsys.readouterr()
    code = main(["scan", str(path), "--json", *options])
    report = json.loads(capsys.readouterr().out)
    return code, report["sessions"]


def _comparable(finding, shift=0):
    """A finding's content, its turn moved back by `shift` and recovered-call ids left out (they name
    the turn)."""
    fix = {key: value for key, value in (finding["fix"] or {}).items() if key != "tool_calls"}
    calls = [{k: v for k, v in call.items() if k != "id"} for call in (finding["fix"] or {}).get("tool_calls", [])]
    return {**finding, "turn": finding["turn"] - shift, "fix": (fix, calls)}


@pytest.mark.parametrize("system_message", [WRAPPER_SYSTEM, BLOCK_SYSTEM], ids=["string", "blocks"])
@pytest.mark.parametrize("keep_top_level", [False, True], ids=["moved", "both"])
def test_scan_finds_the_same_findings_as_without_the_stray_message(tmp_path, capsys, system_message, keep_top_level):
    path = _stray_system(tmp_path, system_message, keep_top_level)
    code, (session,) = _scan(path, capsys)
    expected_code, (expected,) = _scan(SAMPLE, capsys)
    assert code == expected_code == 1
    assert session["format"] == "anthropic" and session["turns"] == expected["turns"] + 1
    assert session["findings"] and [_comparable(f, shift=1) for f in session["findings"]] == [
        _comparable(f) for f in expected["findings"]
    ]
    assert _scan(path, capsys, "--format", "anthropic")[1] == [session]


@pytest.mark.parametrize("system_message", [WRAPPER_SYSTEM, BLOCK_SYSTEM], ids=["string", "blocks"])
def test_the_system_message_is_a_system_turn_and_survives_a_round_trip(tmp_path, system_message):
    path = _stray_system(tmp_path, system_message, keep_top_level=False)
    (session,) = load_sessions(path)
    assert (session.turns[0].role, session.turns[0].text) == (SYSTEM, "You are Tea & Co's support agent. Be brief.")
    assert session.format == "anthropic" and session.turns[1].role == USER and session.problems == ()
    assert render_sessions([session]) == path.read_text(encoding="utf-8")


def test_fix_keeps_the_system_message_and_rereads_as_anthropic(tmp_path, capsys):
    path = _stray_system(tmp_path, BLOCK_SYSTEM, keep_top_level=False)
    out, plain_out = tmp_path / "fixed.json", tmp_path / "plain-fixed.json"
    assert main(["fix", str(path), "--accept", "all", "-o", str(out)]) == 0
    assert main(["fix", str(SAMPLE), "--accept", "all", "-o", str(plain_out)]) == 0
    fixed, plain = json.loads(out.read_text()), json.loads(plain_out.read_text())
    assert fixed["messages"][0] == BLOCK_SYSTEM
    assert json.dumps(fixed["messages"][1:]).replace("call_inspector_10", "call_inspector_9") == json.dumps(
        plain["messages"]
    )  # the same repair, the recovered call's id naming its own turn
    assert fixed["messages"] != json.loads(path.read_text())["messages"]  # something was fixed
    (session,) = load_sessions(out)
    assert session.format == "anthropic" and session.turns[0].role == SYSTEM
    assert any(call.name == "issue_refund" for turn in session.turns for call in turn.tool_calls)
    code, (rescanned,) = _scan(out, capsys)
    assert (code, rescanned["format"], rescanned["findings"]) == (0, "anthropic", [])


OPENAI_SHAPES = {
    "strings": {
        "messages": [
            {"role": "system", "content": "You are a travel agent."},
            {"role": "user", "content": "Weather in Oslo?"},
            {"role": "assistant", "content": "Cold."},
        ]
    },
    "text-parts": {
        "messages": [
            {"role": "system", "content": [{"type": "text", "text": "You are a travel agent."}]},
            {"role": "user", "content": [{"type": "text", "text": "Weather in Oslo?"}]},
            {"role": "assistant", "content": [{"type": "text", "text": "Cold."}]},
        ]
    },
    "tool-calls": {
        "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}}],
        "messages": [
            {"role": "system", "content": "You are a travel agent."},
            {"role": "user", "content": "Weather in Oslo?"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "call_1",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": '{"city": "Oslo"}'},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "call_1", "content": "3 degrees"},
            {"role": "assistant", "content": "It is 3 degrees."},
        ],
    },
    "tools-only": {
        "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}}],
        "messages": [
            {"role": "system", "content": [{"type": "text", "text": "You are a travel agent."}]},
            {"role": "user", "content": "Hi"},
            {"role": "assistant", "content": "Hello."},
        ],
    },
    "developer-and-image": {
        "messages": [
            {"role": "developer", "content": "You are a travel agent."},
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "Where is this?"},
                    {"type": "image_url", "image_url": {"url": "https://example.com/a.png"}},
                ],
            },
            {"role": "assistant", "content": "Oslo."},
        ]
    },
}


@pytest.mark.parametrize("name", OPENAI_SHAPES)
def test_openai_files_with_system_messages_stay_openai(tmp_path, capsys, name):
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(OPENAI_SHAPES[name]), encoding="utf-8")
    code, (session,) = _scan(path, capsys)
    assert (code, session["format"]) == (0, "openai")
    assert main(["scan", str(path), "--format", "anthropic"]) == 2
    assert "does not have the shape of the anthropic format" in capsys.readouterr().err


def test_openai_bare_list_and_json_lines_with_a_system_message_stay_openai(tmp_path, capsys):
    messages = OPENAI_SHAPES["text-parts"]["messages"]
    bare, lines = tmp_path / "bare.json", tmp_path / "chat.jsonl"
    bare.write_text(json.dumps(messages), encoding="utf-8")
    lines.write_text("".join(json.dumps(m) + "\n" for m in messages), encoding="utf-8")
    assert [_scan(path, capsys)[1][0]["format"] for path in (bare, lines)] == ["openai", "openai"]
