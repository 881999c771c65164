"""Gemini CLI chat sessions: the 0.61 JSON Lines log the real CLI wrote (replayed), and the 0.20
JSON document; detected, read into turns, scanned, and written back unchanged or repaired in
the same container."""

import json
from dataclasses import replace

import pytest

from inspector.cli.main import main
from inspector.model import ASSISTANT, NOT_EXECUTED, SYSTEM, TOOL, USER
from inspector.repair.apply import apply_fixes
from inspector.scan.scanner import scan_file
from inspector.sources import FORMATS, load_sessions, render_sessions
from inspector.sources.files.document import read_document
from inspector.sources.formats import gemini, gemini_cli
from inspector.support.tools_file import load_tools_file
from tests.helpers.samples import SESSIONS, TOOL_SAMPLES
from tests.helpers.scanning import finding_triples

SAMPLES = TOOL_SAMPLES
SAMPLE = SAMPLES / "gemini-cli.session.jsonl"
CHECKPOINT = SESSIONS / "travel-agent.gemini.json"
FAKE = (
    '{success: true, memory_type: "journal", content: "I lost track of the refactor again."}'
    "You saw right through me. I saved that to your journal, and honestly: the refactor needs a smaller first step."
)
HERMES = 'Let me read it.\n<tool_call>{"name":"read_file","arguments":{"file_path":"notes.txt"}}</tool_call>'
TOOLS = [
    {
        "functionDeclarations": [
            {
                "name": "read_file",
                "parameters": {
                    "type": "object",
                    "properties": {"file_path": {"type": "string"}, "start_line": {"type": "number"}},
                    "required": ["file_path"],
                },
            },
            {
                "name": "list_directory",
                "parameters": {
                    "type": "object",
                    "properties": {"dir_path": {"type": "string"}},
                    "required": ["dir_path"],
                },
            },
        ]
    }
]


def _call(call_id, name, args, response, status="success"):
    return {
        "id": call_id,
        "name": name,
        "args": args,
        "status": status,
        "timestamp": "2025-10-02T09:00:05.000Z",
        "result": [{"functionResponse": {"id": call_id, "name": name, "response": response}}],
        "resultDisplay": "",
        "displayName": name,
        "description": "",
        "renderOutputAsMarkdown": True,
    }


def _message(message_id, kind, content, **extra):
    return {"id": message_id, "timestamp": "2025-10-02T09:00:00.000Z", "type": kind, "content": content, **extra}


# Made by hand in the shape Gemini CLI 0.20 wrote (one JSON document, string contents, no repeat
# of results as user messages, `info`/`error` notices), from the conversation of the 0.61 sample.
DOCUMENT = {
    "sessionId": "3f2a9c1e-0d4b-4e8a-9b1c-2d3e4f5a6b7c",
    "projectHash": "c343574f054fe414",
    "startTime": "2025-10-02T09:00:00.000Z",
    "lastUpdated": "2025-10-02T09:01:00.000Z",
    "messages": [
        _message("u1", "user", "Please save a journal memory: I lost track of the refactor again."),
        _message(
            "g1",
            "gemini",
            FAKE,
            thoughts=[],
            tokens={"input": 500, "output": 40, "total": 540},
            model="gemini-2.5-flash",
        ),
        _message("u2", "user", "Read notes.txt and tell me what it says."),
        _message("g2", "gemini", HERMES, thoughts=[{"subject": "Reading", "description": "the notes"}]),
        _message("i1", "info", "Switched to fallback model."),
        _message("u3", "user", "That was only text, nothing ran. Use the real read_file tool on notes.txt."),
        _message(
            "g3",
            "gemini",
            "Reading notes.txt with the real tool.",
            toolCalls=[
                _call(
                    "read_file-1",
                    "read_file",
                    {"path": "notes.txt"},
                    {"error": "params must have required property 'file_path'"},
                    "error",
                )
            ],
        ),
        _message(
            "g4",
            "gemini",
            "",
            toolCalls=[
                _call(
                    "read_file-2", "read_file", {"file_path": "notes.txt"}, {"output": "Meeting moved to Thursday.\n"}
                )
            ],
        ),
        _message(
            "g5",
            "gemini",
            "",
            toolCalls=[
                _call("list_directory-3", "list_directory", {"dir_path": "."}, {"output": "notes.txt (44 bytes)"})
            ],
        ),
        _message("e1", "error", "[API Error: quota exceeded]"),
        _message("g6", "gemini", "notes.txt says the meeting moved to Thursday."),
    ],
}


def _write(path, value, indent=2):
    path.write_text(json.dumps(value, indent=indent, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def _write_log(path, records):
    path.write_text(
        "".join(json.dumps(r, separators=(",", ":"), ensure_ascii=False) + "\n" for r in records), encoding="utf-8"
    )
    return path


def _shape(turns):
    """What a turn says, for comparing a repaired session with the one read back from its file."""

    def said(content):
        return content.get("output", content.get("error", content)) if isinstance(content, dict) else content

    return [
        (
            t.role,
            t.text,
            [(c.id, c.name, c.arguments) for c in t.tool_calls],
            [(r.call_id, r.name, said(r.content), r.is_error) for r in t.tool_results],
        )
        for t in turns
    ]


def _repair_and_reload(path, out, tools=()):
    """Apply every fix a scan proposes, write the file, and read it back: (repaired, reloaded)."""
    (result,) = scan_file(path, extra_tools=tools)
    repaired, applied = apply_fixes(result.session, result.findings)
    assert applied
    out.write_text(render_sessions([repaired]), encoding="utf-8")
    (reloaded,) = load_sessions(out)
    return repaired, reloaded


def test_detection_of_both_containers_and_of_no_other_file(tmp_path):
    assert load_sessions(SAMPLE)[0].format == "gemini-cli"
    assert load_sessions(_write(tmp_path / "chat.json", DOCUMENT))[0].format == "gemini-cli"
    for other in ("claude-code.jsonl", "codex.rollout.jsonl"):
        assert not gemini_cli.claims(read_document(SAMPLES / other))
    assert not gemini_cli.claims(read_document(CHECKPOINT))
    assert not gemini_cli.claims(
        read_document(_write(tmp_path / "ckpt.json", {"history": [{"role": "user", "parts": [{"text": "hi"}]}]}))
    )
    for path in (SAMPLE, tmp_path / "chat.json"):
        document = read_document(path)
        assert not gemini.claims(document)
        assert [name for name, file_format in FORMATS.items() if file_format.claims(document)] == ["gemini-cli"]


def test_the_log_is_replayed_into_turns(tmp_path):
    (session,) = load_sessions(SAMPLE)
    assert session.session_id == "b680cadb-f2e8-4427-a8c6-6cfd1f65ee1c"
    assert session.problems == ()
    turns = session.turns
    assert [(t.position, t.role) for t in turns] == [
        (0, SYSTEM),
        (1, USER),
        (2, ASSISTANT),
        (3, USER),
        (4, ASSISTANT),
        (5, USER),
        (6, ASSISTANT),
        (7, TOOL),
        (9, ASSISTANT),
        (10, TOOL),
        (12, ASSISTANT),
        (13, TOOL),
        (15, ASSISTANT),
    ]  # 8, 11, 14: results repeated
    assert turns[2].text == FAKE and turns[4].text == HERMES  # the last copies (in `$set.messages`, as parts)
    assert turns[1].text.startswith("Please save") and turns[0].text.startswith("<session_context>")
    (call,) = turns[6].tool_calls
    assert (call.id, call.name, call.arguments) == (
        "read_file__read_file_1795489933452_0",
        "read_file",
        {"path": "notes.txt"},
    )
    (error,) = turns[7].tool_results
    assert error.is_error and error.call_id == call.id
    assert error.content == {"error": "params must have required property 'file_path'"}
    assert turns[7].id == "e5df10fd-29e6-4773-88e3-0ba434ac704a_response"
    assert [r.is_error for t in turns[9:12:2] for r in t.tool_results] == [False, False]
    assert turns[10].tool_calls[0].arguments == {"dir_path": "."}


def test_the_context_the_cli_writes_is_a_system_turn_kept_as_written(tmp_path):
    """The CLI's own first message (`<session_context>` ..., or that sentence alone before the
    tag) is the CLI's context, not the person: a system turn holding its text as stored, written
    back unchanged; a person who quotes the tag later in a message is still the person."""
    (session,) = load_sessions(SAMPLE)
    context = session.turns[0]
    stored = context.raw["content"][0]["text"]
    assert (context.role, context.text, context.id) == (SYSTEM, stored, "d04923d38bb0f6017037e74183378ef4")
    assert [t.role for t in session.turns[:2]] == [SYSTEM, USER]
    older = "This is the Gemini CLI. We are setting up the context for our chat.\nMy operating system is: linux"
    quoted = "Why does my log start with <session_context>? " + "<session_context>" * 6000  # 100 KB
    path = _write(
        tmp_path / "chat.json",
        {
            **DOCUMENT,
            "messages": [_message("c0", "user", older), _message("u0", "user", quoted), *DOCUMENT["messages"]],
        },
    )
    (session,) = load_sessions(path)
    assert [(t.role, t.text) for t in session.turns[:3]] == [
        (SYSTEM, older),
        (USER, quoted),
        (USER, DOCUMENT["messages"][0]["content"]),
    ]
    assert render_sessions([session]) == path.read_text(encoding="utf-8")


def test_a_scan_finds_the_planted_problems_and_leaves_the_good_calls_clean(tmp_path):
    assert finding_triples(SAMPLE) == [
        (2, "result-prefix", None),
        (4, "tool-markup", "read_file"),
        (7, "tool-error", "read_file"),
    ]
    specs = _tool_specs(tmp_path)
    assert finding_triples(SAMPLE, specs) == [
        (2, "result-prefix", None),
        (4, "tool-markup", "read_file"),
        (6, "invalid-argument", "read_file"),
        (6, "unknown-parameter", "read_file"),
        (7, "tool-error", "read_file"),
    ]
    assert finding_triples(_write(tmp_path / "chat.json", DOCUMENT)) == [
        (1, "result-prefix", None),
        (3, "tool-markup", "read_file"),
        (7, "tool-error", "read_file"),
    ]


def _tool_specs(tmp_path):
    return load_tools_file(_write(tmp_path / "tools.json", TOOLS))


def test_round_trip_without_changes(tmp_path):
    for source in (SAMPLE, _write(tmp_path / "chat.json", DOCUMENT)):
        assert render_sessions(load_sessions(source)) == source.read_text(encoding="utf-8")


def test_lines_are_written_as_the_cli_writes_them():
    """A rewritten line is compact JSON with non-ASCII kept, which is byte for byte what the CLI wrote."""
    lines = SAMPLE.read_text(encoding="utf-8").splitlines()
    assert [json.dumps(json.loads(line), ensure_ascii=False, separators=(",", ":")) for line in lines] == lines


def test_a_repaired_log_replays_to_the_repaired_messages_and_keeps_every_other_line(tmp_path):
    out = tmp_path / "fixed.jsonl"
    repaired, reloaded = _repair_and_reload(SAMPLE, out, _tool_specs(tmp_path))
    assert _shape(reloaded.turns) == _shape(repaired.turns)
    before, after = SAMPLE.read_text().splitlines(), out.read_text().splitlines()
    assert len(after) == len(before)  # nothing appended: the new message is in `$set.messages`
    assert [i + 1 for i, (a, b) in enumerate(zip(before, after)) if a != b] == [18, 23]
    (new,) = [m for m in json.loads(after[17])["$set"]["messages"] if "toolCalls" in m]
    assert new["type"] == "gemini" and new["timestamp"] == "2026-11-24T03:12:13.412Z"
    (call,) = new["toolCalls"]
    assert call["status"] == "cancelled" and call["args"] == {"file_path": "notes.txt"}
    assert call["result"][0]["functionResponse"]["response"] == {"output": NOT_EXECUTED}
    assert json.loads(after[22])["toolCalls"][0]["args"] == {"file_path": "notes.txt"}
    assert finding_triples(out, _tool_specs(tmp_path)) == [(9, "tool-error", "read_file")]


def test_fix_command_on_the_json_document(tmp_path, capsys):
    source, out = _write(tmp_path / "chat.json", DOCUMENT), tmp_path / "fixed.json"
    assert main(["fix", str(source), "--accept", "all", "-o", str(out)]) == 1
    fixed = json.loads(out.read_text())
    assert [m["id"] for m in fixed["messages"]][:6] == ["u1", "g1", "u2", fixed["messages"][3]["id"], "g2", "i1"]
    assert fixed["messages"][1]["content"].startswith("You saw right through me.")
    assert fixed["messages"][4]["content"] == "Let me read it."
    assert fixed["messages"][4]["thoughts"] == DOCUMENT["messages"][3]["thoughts"]
    assert fixed["messages"][5:] == DOCUMENT["messages"][4:] and fixed["messages"][2] == DOCUMENT["messages"][2]
    assert {**fixed, "messages": None} == {**DOCUMENT, "messages": None}
    assert finding_triples(out) == [(9, "tool-error", "read_file")]
    (session,) = load_sessions(out)
    assert [p.split(" message")[0] for p in session.problems] == ["1 info", "1 error"]
    assert "[API Error: quota exceeded]" in session.problems[1]


def test_a_log_of_its_first_line_only_and_one_with_crlf_endings(tmp_path):
    one = tmp_path / "one.jsonl"
    one.write_text('{"sessionId":"s-1","projectHash":"p","startTime":"t","lastUpdated":"t","kind":"main"}\n')
    (session,) = load_sessions(one)
    assert (session.format, session.session_id, session.turns) == ("gemini-cli", "s-1", ())
    crlf = tmp_path / "crlf.jsonl"
    crlf.write_bytes(SAMPLE.read_bytes().replace(b"\n", b"\r\n"))
    assert render_sessions(load_sessions(crlf)) == crlf.read_bytes().decode("utf-8")
    _repair_and_reload(crlf, tmp_path / "fixed.jsonl")
    fixed, original = (tmp_path / "fixed.jsonl").read_bytes().split(b"\r\n"), crlf.read_bytes().split(b"\r\n")
    assert len(fixed) == len(original) and sum(a != b for a, b in zip(fixed, original)) == 1  # line 18


def _log(*messages, metadata=None):
    head = metadata or {"sessionId": "s-1", "projectHash": "p", "startTime": "t", "lastUpdated": "t", "kind": "main"}
    return [head, *messages]


def test_a_new_message_goes_before_the_first_copy_of_a_message_written_twice(tmp_path):
    hermes = _message("g2", "gemini", HERMES)
    records = _log(
        _message("u1", "user", [{"text": "Read notes.txt"}]),
        {"$set": {"lastUpdated": "x"}},
        hermes,
        {"$set": {"lastUpdated": "y"}},
        {**hermes, "tokens": {"total": 3}},
        _message("u2", "user", [{"text": "Thanks."}]),
    )
    source = _write_log(tmp_path / "log.jsonl", records)
    repaired, reloaded = _repair_and_reload(source, tmp_path / "fixed.jsonl")
    assert _shape(reloaded.turns) == _shape(repaired.turns)
    assert [t.role for t in reloaded.turns] == [USER, ASSISTANT, TOOL, ASSISTANT, USER]
    lines = (tmp_path / "fixed.jsonl").read_text().splitlines()
    original = source.read_text().splitlines()
    assert lines[:3] + lines[4:6] + lines[7:] == original[:5] + original[6:]  # one line in, one rewritten
    assert json.loads(lines[3])["toolCalls"][0]["name"] == "read_file"  # before the first copy of g2
    assert json.loads(lines[6]) == {**hermes, "content": "Let me read it.", "tokens": {"total": 3}}


def test_rewinds_drop_messages_and_an_unknown_id_drops_all(tmp_path):
    records = _log(
        _message("u1", "user", "one"),
        _message("g1", "gemini", "two"),
        _message("u2", "user", "three"),
        {"$rewindTo": "g1"},
        _message("g2", "gemini", "four"),
    )
    (session,) = load_sessions(_write_log(tmp_path / "log.jsonl", records))
    assert [t.text for t in session.turns] == ["one", "four"]
    (session,) = load_sessions(
        _write_log(tmp_path / "all.jsonl", records + [{"$rewindTo": "nowhere"}, _message("u3", "user", "five")])
    )
    assert [t.text for t in session.turns] == ["five"]


def test_a_cut_last_line_and_unknown_lines_are_problems_kept_in_place(tmp_path):
    text = SAMPLE.read_text(encoding="utf-8")
    odd = '{"$compact":{"upTo":"x"}}\n{"$compact":{"upTo":"y"}}\n[1, 2]\n'
    path = tmp_path / "cut.jsonl"
    path.write_text(text + odd + '{"id":"9e8dfcaa-70b5-41f5-982d-d4', encoding="utf-8")
    (session,) = load_sessions(path)
    assert len(session.turns) == len(load_sessions(SAMPLE)[0].turns)
    assert session.problems[0].startswith("line 41: cut off, the last line is not whole JSON")
    assert session.problems[1:] == (
        "2 lines with keys $compact (not a message, $set, $rewindTo or metadata record), kept, not read",
        "1 line that is not a JSON object, kept, not read",
    )
    assert render_sessions([session]) == path.read_text(encoding="utf-8")
    out = tmp_path / "fixed.jsonl"
    repaired, reloaded = _repair_and_reload(path, out)
    assert out.read_text().endswith(odd + '{"id":"9e8dfcaa-70b5-41f5-982d-d4')
    assert _shape(reloaded.turns) == _shape(repaired.turns)


def test_messages_that_are_not_objects_or_have_no_type_are_each_named_in_the_problems(tmp_path):
    messages = [*DOCUMENT["messages"], 7, [1], {"id": "x", "content": "no type"}]
    path = _write(tmp_path / "odd.json", {**DOCUMENT, "messages": messages})
    (session,) = load_sessions(path)
    assert len(session.turns) == len(load_sessions(_write(tmp_path / "plain.json", DOCUMENT))[0].turns)
    assert session.problems[-2:] == (
        "1 record without a message type not read as turns",
        "2 messages that are not JSON objects, kept (not read as turns)",
    )


def test_a_result_for_an_unanswered_call_goes_into_that_call(tmp_path):
    call = {
        k: v for k, v in _call("rf-1", "read_file", {"file_path": "a"}, {}).items() if k not in ("result", "status")
    }
    records = _log(
        _message("u1", "user", [{"text": "read a"}]),
        _message("g1", "gemini", "", toolCalls=[call]),
        _message("g2", "gemini", "Done."),
    )
    source = _write_log(tmp_path / "log.jsonl", records)
    assert finding_triples(source) == [(1, "orphan-call", "read_file")]
    repaired, reloaded = _repair_and_reload(source, tmp_path / "fixed.jsonl")
    assert _shape(reloaded.turns) == _shape(repaired.turns)
    lines = (tmp_path / "fixed.jsonl").read_text().splitlines()
    assert len(lines) == 4 and json.loads(lines[2])["toolCalls"][0]["status"] == "error"
    assert finding_triples(tmp_path / "fixed.jsonl") == [(2, "tool-error", "read_file")]


def test_a_renamed_call_renames_its_results_and_their_repeat(tmp_path):
    (session,) = load_sessions(SAMPLE)
    turns = list(session.turns)
    index = next(i for i, t in enumerate(turns) if t.position == 9)
    turns[index] = replace(
        turns[index], tool_calls=(replace(turns[index].tool_calls[0], name="read_text"),), edited=True
    )
    text = render_sessions([replace(session, turns=tuple(turns))])
    changed = [
        (i + 1, line)
        for i, (line, old) in enumerate(zip(text.splitlines(), SAMPLE.read_text().splitlines()))
        if line != old
    ]
    assert [number for number, _ in changed] == [28, 29]
    assert all('"name":"read_file"' not in line and '"name":"read_text"' in line for _, line in changed)


ODD_DOCUMENT = {
    "sessionId": "s",
    "projectHash": "p",
    "messages": [
        7,
        {"type": "gemini", "content": 3, "toolCalls": "x"},
        {"type": "user", "content": [None, {"functionResponse": 1}]},
        {
            "type": "gemini",
            "content": [{"text": 5}],
            "toolCalls": [{"id": {"a": 1}, "name": "t", "args": "{", "result": 5}],
        },
        {"type": "user", "content": [{"functionResponse": {"id": [1], "name": "t"}}]},
        {"type": "odd"},
    ],
}
ODD_LOG = [
    {"sessionId": "s", "projectHash": "p"},
    {"$set": {"messages": 3}},
    {"$rewindTo": 4},
    5,
    {"sessionId": "s", "projectHash": "p", "messages": [1, {"id": "m", "type": "user", "content": {"text": "hi"}}]},
    {
        "id": "g",
        "type": "gemini",
        "content": [{"text": '<tool_call>{"name": "t", "arguments": {}}</tool_call>'}],
        "toolCalls": [None, {"name": "t", "id": 3}],
    },
]


@pytest.mark.parametrize("name, write, value", [("odd.json", _write, ODD_DOCUMENT), ("odd.jsonl", _write_log, ODD_LOG)])
def test_odd_shapes_are_read_scanned_and_fixed_without_a_traceback(tmp_path, name, write, value):
    path = write(tmp_path / name, value)
    (session,) = load_sessions(path)
    assert session.problems
    assert main(["scan", str(path)]) in (0, 1)
    assert main(["fix", str(path), "--accept", "all", "-o", str(tmp_path / ("fixed." + name))]) in (0, 1)
