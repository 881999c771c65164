"""The `unknown-tool` rename fix: offered only for a clearly best candidate whose schema the
arguments satisfy, reported in `--json` and the audit record, and written by every format's writer
with the call's id and arguments kept."""

import json

import pytest

from inspector.cli.main import main
from inspector.scan.scanner import scan_file
from tests.helpers.tools import SAVE_MEMORY, WHITEBOARD

ARGS = {"memory_type": "fact", "content": "Likes green tea"}
SAVE_SCHEMA = SAVE_MEMORY["function"]["parameters"]


def _openai(path, name, args, tools=(SAVE_MEMORY, WHITEBOARD)):
    path.write_text(
        json.dumps(
            {
                "tools": list(tools),
                "messages": [
                    {"role": "user", "content": "Remember that I like green tea."},
                    {
                        "role": "assistant",
                        "content": None,
                        "tool_calls": [
                            {
                                "id": "call_1",
                                "type": "function",
                                "function": {"name": name, "arguments": json.dumps(args)},
                            }
                        ],
                    },
                    {"role": "tool", "tool_call_id": "call_1", "content": "saved"},
                    {"role": "assistant", "content": "Noted."},
                ],
            },
            indent=2,
        )
    )


def _anthropic(path, name, args):
    path.write_text(
        json.dumps(
            {
                "tools": [{"name": "save_memory", "input_schema": SAVE_SCHEMA}],
                "messages": [
                    {"role": "user", "content": "Remember that I like green tea."},
                    {
                        "role": "assistant",
                        "content": [
                            {"type": "text", "text": "Saving."},
                            {"type": "tool_use", "id": "toolu_1", "name": name, "input": args},
                        ],
                    },
                    {
                        "role": "user",
                        "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "saved"}],
                    },
                    {"role": "assistant", "content": [{"type": "text", "text": "Noted."}]},
                ],
            },
            indent=2,
        )
    )


def _gemini(path, name, args, call_id="fc_1"):
    ids = {"id": call_id} if call_id else {}
    path.write_text(
        json.dumps(
            {
                "tools": [{"functionDeclarations": [{"name": "save_memory", "parameters": SAVE_SCHEMA}]}],
                "contents": [
                    {"role": "user", "parts": [{"text": "Remember that I like green tea."}]},
                    {"role": "model", "parts": [{"functionCall": {**ids, "name": name, "args": args}}]},
                    {
                        "role": "user",
                        "parts": [{"functionResponse": {**ids, "name": name, "response": {"result": "saved"}}}],
                    },
                    {"role": "model", "parts": [{"text": "Noted."}]},
                ],
            },
            indent=2,
        )
    )


def _dump(path, name, args):
    path.write_text(
        json.dumps(
            {
                "session_id": "s1",
                "dumped_at": "2026-01-01T00:00:00Z",
                "entry_count": 4,
                "tools": [SAVE_MEMORY],
                "entries": [
                    {"role": "user", "node_type": "user", "content": "Remember that I like green tea."},
                    {
                        "role": "assistant",
                        "node_type": "turn_output",
                        "content": "",
                        "trace_id": "t1",
                        "tool_calls": [
                            {
                                "id": "call_1",
                                "type": "function",
                                "function": {"name": name, "arguments": json.dumps(args)},
                            }
                        ],
                    },
                    {
                        "role": "tool",
                        "node_type": "tool_result",
                        "tool_call_id": "call_1",
                        "name": name,
                        "content": "saved",
                    },
                    {"role": "assistant", "node_type": "turn_output", "content": "Noted."},
                ],
            },
            indent=2,
        )
    )


def _written_call(document, fmt):
    """(id, name, arguments) of the first call in a written file."""
    if fmt == "openai":
        call = document["messages"][1]["tool_calls"][0]
        return call["id"], call["function"]["name"], json.loads(call["function"]["arguments"])
    if fmt == "anthropic":
        block = document["messages"][1]["content"][1]
        return block["id"], block["name"], block["input"]
    if fmt == "gemini":
        call = document["contents"][1]["parts"][0]["functionCall"]
        return call["id"], call["name"], call["args"]
    call = document["entries"][1]["tool_calls"][0]
    return call["id"], call["function"]["name"], json.loads(call["function"]["arguments"])


WRITERS = {"openai": _openai, "anthropic": _anthropic, "gemini": _gemini, "session-dump": _dump}


def _unknown(path):
    (result,) = scan_file(path)
    return [f for f in result.findings if f.kind == "unknown-tool"]


@pytest.mark.parametrize("fmt", sorted(WRITERS))
def test_rename_fix_is_written_by_every_format_and_rescans_clean(tmp_path, fmt):
    path, out = tmp_path / "session.json", tmp_path / "fixed.json"
    WRITERS[fmt](path, "save_memories", ARGS)
    (finding,) = _unknown(path)
    assert finding.fix.rename_calls == ((0, "save_memory"),)
    original_id = _written_call(json.loads(path.read_text()), fmt)[0]
    assert main(["fix", str(path), "--accept", "unknown-tool", "-o", str(out)]) == 0
    assert _written_call(json.loads(out.read_text()), fmt) == (original_id, "save_memory", ARGS)
    (result,) = scan_file(out)
    assert result.findings == []  # nothing else broke: the result still answers the call by id
    document = json.loads(out.read_text())
    if fmt == "session-dump":
        assert document["entries"][1]["trace_id"] == "t1" and document["entry_count"] == 4


def test_fix_command_end_to_end_with_json_report_and_audit(tmp_path, capsys):
    path, out = tmp_path / "session.json", tmp_path / "out.json"
    _openai(path, "save_memories", ARGS)
    assert main(["scan", "--json", str(path)]) == 1
    (found,) = json.loads(capsys.readouterr().out)["sessions"][0]["findings"]
    assert found["kind"] == "unknown-tool" and found["fix"]["rename_calls"] == [{"call": 0, "name": "save_memory"}]
    assert found["payload"]["closest"][0] == {"name": "save_memory", "score": 2.33}
    assert "Fix: rename the call to save_memory, keeping its id and arguments" in found["message"]
    assert "1.57 ahead of whiteboard, and the arguments validate against it" in found["message"]
    assert main(["fix", str(path), "--accept", "unknown-tool", "-o", str(out)]) == 0
    (entry,) = [json.loads(line) for line in out.with_name("out.json.audit.ndjson").read_text().splitlines()]
    assert entry["kind"] == "unknown-tool" and entry["tool"] == "save_memories"
    assert entry["rename_calls"] == [{"call": 0, "name": "save_memory"}]
    capsys.readouterr()
    assert main(["scan", str(out)]) == 0


def test_word_order_counts_as_alike(tmp_path):
    path = tmp_path / "session.json"
    _openai(path, "memory_save", ARGS)
    (finding,) = _unknown(path)
    assert finding.fix.rename_calls == ((0, "save_memory"),)


def test_two_close_candidates_offer_no_fix(tmp_path):
    save_note = {"type": "function", "function": {"name": "save_note", "parameters": SAVE_SCHEMA}}
    path = tmp_path / "session.json"
    _openai(path, "save_memo", ARGS, tools=(SAVE_MEMORY, save_note))
    (finding,) = _unknown(path)
    assert finding.fix is None
    assert "score within 0.5 of each other, so neither is clearly meant" in finding.message
    assert "correct it by hand in the review" in finding.message


def test_arguments_that_do_not_validate_offer_no_fix(tmp_path):
    path = tmp_path / "session.json"
    _openai(path, "save_memories", {"memory_type": "fact"})  # content is required
    (finding,) = _unknown(path)
    assert finding.fix is None and "the arguments do not validate against save_memory" in finding.message


def test_a_name_unlike_every_tool_offers_no_fix(tmp_path):
    path = tmp_path / "session.json"
    _openai(path, "zq", ARGS)
    (finding,) = _unknown(path)
    assert finding.fix is None and "save_memory's name is too unlike the called one" in finding.message


def test_a_call_without_id_is_renamed_with_the_result_that_names_it(tmp_path, capsys):
    path = tmp_path / "session.json"
    _gemini(path, "save_memories", ARGS, call_id=None)  # Gemini pairs a response with its call by name
    (finding,) = _unknown(path)
    assert finding.fix is not None and "its result, matched by name, is renamed too" in finding.message
    out = tmp_path / "fixed.json"
    assert main(["fix", str(path), "--accept", "unknown-tool", "-o", str(out)]) == 0
    contents = json.loads(out.read_text())["contents"]
    assert contents[1]["parts"][0]["functionCall"] == {"name": "save_memory", "args": ARGS}
    assert contents[2]["parts"][0]["functionResponse"]["name"] == "save_memory"
    assert not _unknown(out)


def test_a_recovered_call_of_an_unknown_tool_gets_no_fix(write_session):
    markup = '<tool_call>\n{"name": "save_memories", "arguments": %s}\n</tool_call>' % json.dumps(ARGS)
    path = write_session(
        [{"role": "user", "content": "Remember it."}, {"role": "assistant", "content": markup}],
        [SAVE_MEMORY, WHITEBOARD],
    )
    (finding,) = _unknown(path)
    assert finding.fix is None and finding.message.startswith(
        "Recovered call save_memories: 'save_memories' is not a defined tool"
    )
    assert "No automatic fix for a call recovered from text" in finding.message
    assert "this would make it valid: rename the call to save_memory" in finding.message
