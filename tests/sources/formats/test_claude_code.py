"""Claude Code JSON Lines: recognised, read into turns (one per API response), scanned for what the
real sample plants, written back byte for byte, and repaired with new events spliced into the
`parentUuid` chain the way Claude Code writes real ones."""

import json
import uuid
from dataclasses import replace
from pathlib import Path

from inspector.cli.main import main
from inspector.model import ASSISTANT, TOOL, USER, ToolCall, ToolResult
from inspector.scan.scanner import scan_file
from inspector.sources import FORMATS, load_sessions, render_sessions
from inspector.sources.files.document import document_of_bytes, read_document
from inspector.sources.formats import claude_code
from tests.helpers.samples import SESSIONS, TOOL_SAMPLES

SAMPLES = TOOL_SAMPLES
SAMPLE = SAMPLES / "claude-code.jsonl"
SAMPLE_ID = "75be298c-69f7-4eae-9118-77047fde8a3b"
SESSION_KEYS = ("isSidechain", "userType", "entrypoint", "cwd", "sessionId", "version", "gitBranch", "timestamp")


class Chain:
    """A Claude Code session built event by event, each the child of the one before."""

    def __init__(self, session_id: str = "5e55a0f1-0000-4000-8000-000000000001", **keys) -> None:
        self.events: list[dict] = []
        self.last: str | None = None
        self.keys = {"isSidechain": False, **keys}
        self.envelope = {
            "userType": "external",
            "entrypoint": "cli",
            "cwd": "/tmp/w",
            "sessionId": session_id,
            "version": "2.1.197",
            "gitBranch": "main",
        }

    def add(self, body: dict, **extra) -> dict:
        number = len(self.events) + 1
        event = {
            "parentUuid": self.last,
            **self.keys,
            **body,
            "uuid": f"00000000-0000-4000-8000-{number:012d}",
            "timestamp": f"2026-11-24T03:13:{number:02d}.000Z",
            **extra,
            **self.envelope,
        }
        self.events.append(event)
        self.last = event["uuid"]
        return event

    def user(self, content) -> dict:
        return self.add({"type": "user", "message": {"role": "user", "content": content}})

    def assistant(self, message_id: str, *blocks: dict) -> dict:
        message = {
            "id": message_id,
            "type": "message",
            "role": "assistant",
            "model": "claude-sonnet-4-5",
            "content": list(blocks),
            "stop_reason": None,
            "stop_sequence": None,
        }
        return self.add({"message": message, "requestId": "req_" + message_id, "type": "assistant"})

    def result(self, tool_id: str, content: str, is_error: bool = False) -> dict:
        block = {
            "tool_use_id": tool_id,
            "type": "tool_result",
            "content": content,
            **({"is_error": True} if is_error else {}),
        }
        return self.add({"type": "user", "message": {"role": "user", "content": [block]}}, toolUseResult=content)

    def write(self, path: Path, extra: list[dict] = ()) -> Path:
        path.write_text(
            "".join(json.dumps(e, separators=(",", ":")) + "\n" for e in [*self.events, *extra]), encoding="utf-8"
        )
        return path


def text(value: str) -> dict:
    return {"type": "text", "text": value}


def tool_use(tool_id: str, name: str, arguments: dict) -> dict:
    return {"type": "tool_use", "id": tool_id, "name": name, "input": arguments}


def records(path: Path) -> list:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def assert_one_chain(path: Path, sidechain: bool = False) -> list[dict]:
    """Every parentUuid resolves, there is one root, and the file's order is the chain's order."""
    chain = [e for e in records(path) if "uuid" in e and e.get("isSidechain", False) is sidechain]
    uuids = [e["uuid"] for e in chain]
    assert len(set(uuids)) == len(uuids)
    assert [e["parentUuid"] for e in chain] == [None] + uuids[:-1]
    return chain


def test_recognised_and_no_other_format_claims_it_nor_it_theirs():
    document = read_document(SAMPLE)
    assert claude_code.claims(document)
    assert [
        name for name, file_format in FORMATS.items() if name != "claude-code" and file_format.claims(document)
    ] == []
    for other in ("codex.rollout.jsonl", "gemini-cli.session.jsonl", "agents-sdk.items.json"):
        assert not claude_code.claims(read_document(SAMPLES / other))
    assert not claude_code.claims(read_document(SESSIONS / "quickstart.openai.jsonl"))


def test_a_session_is_claimed_when_a_parent_uuid_stands_in_its_first_records():
    """A file is looked through to its end for a message event once one of its first `CLAIM_LOOK`
    records holds a `parentUuid` (Claude Code's first is within a few lines); else it is another
    agent's."""
    queued = json.dumps({"type": "queue-operation", "operation": "enqueue", "sessionId": SAMPLE_ID}) + "\n"
    events = SAMPLE.read_text()  # (its own first two records are queue operations too)
    found_late = document_of_bytes("s.jsonl", (queued * (claude_code.CLAIM_LOOK - 3) + events).encode())
    assert claude_code.claims(found_late) and len(found_late.value) > claude_code.CLAIM_LOOK
    assert not claude_code.claims(document_of_bytes("s.jsonl", (queued * claude_code.CLAIM_LOOK + events).encode()))


def test_a_qwen_code_chat_in_the_same_envelope_is_not_claimed():
    """Qwen Code writes Claude Code's envelope around a Gemini `Content` (`role: model`, `parts`)."""
    qwen = read_document(SAMPLES / "qwen-code.jsonl")
    assert not claude_code.claims(qwen)
    line = json.loads(SAMPLE.read_text().splitlines()[0])
    for message in ({"role": "user", "parts": [{"text": "hi"}]}, {"role": "user", "content": "hi", "parts": []}):
        assert not claude_code.claims(document_of_bytes("s.jsonl", json.dumps({**line, "message": message}).encode()))


def test_the_sample_reads_one_turn_per_response_with_unparsed_inputs_as_raw_text():
    (session,) = load_sessions(SAMPLE)
    assert (session.format, session.session_id, session.problems, session.tools) == ("claude-code", SAMPLE_ID, (), ())
    turns = {t.position: t for t in session.turns}
    assert [t.position for t in session.turns] == [2, 5, 8, 9, 12, 13, 15, 16, 17, 18, 20, 21, 22, 23]
    assert [t.role for t in session.turns] == [USER, ASSISTANT] * 3 + [TOOL, ASSISTANT] * 4
    two = turns[13]  # msg_mock_02: a text event and a tool_use event, read as one reply
    assert (two.text, two.id, len(two.raw)) == (
        "Reading notes.txt with the real tool.",
        "ede17546-cf3c-4ee4-8afe-71be6ce81ebf",
        2,
    )
    assert two.tool_calls == (
        ToolCall("toolu_mock_broken_read", "Read", '{"file_path": "/tmp/cc-work/notes.txt"', None),
    )
    assert (
        turns[16].tool_calls[0].arguments_raw.endswith('"Print hi"}}}}') and turns[16].tool_calls[0].arguments is None
    )
    assert (turns[15].tool_results[0].name, turns[15].tool_results[0].is_error) == ("Read", True)
    assert turns[18].tool_calls == (
        ToolCall(
            "toolu_mock_good_read",
            "Read",
            {"file_path": "/tmp/cc-work/notes.txt"},
            {"file_path": "/tmp/cc-work/notes.txt"},
        ),
    )
    assert turns[20].tool_results == (
        ToolResult("toolu_mock_good_read", "Read", "1\tMeeting moved to Thursday.\n2\tBring the draft.\n3\t"),
    )
    assert turns[5].text.startswith("{success: true, memory_type:")


def test_scan_finds_what_is_planted_and_the_good_calls_stay_clean():
    (result,) = scan_file(SAMPLE)
    found = [(f.turn, f.kind, f.tool) for f in result.findings]
    assert found == [
        (5, "result-prefix", None),
        (9, "tool-markup", "Read"),
        (13, "malformed-arguments", "Read"),
        (15, "tool-error", "Read"),
        (16, "malformed-arguments", "Bash"),
        (17, "tool-error", "Bash"),
    ]
    bash = next(f for f in result.findings if f.kind == "malformed-arguments" and f.tool == "Bash")
    assert (
        bash.arguments == {"command": "echo hi", "description": "Print hi"} and "3 extra closing braces" in bash.message
    )


def test_round_trip_without_fixes_is_byte_for_byte():
    assert render_sessions(load_sessions(SAMPLE)) == SAMPLE.read_text(encoding="utf-8")


def test_fix_splices_recovered_calls_into_the_chain_and_keeps_other_lines(tmp_path, capsys):
    out = tmp_path / "fixed.jsonl"
    assert main(["fix", str(SAMPLE), "--accept", "all", "-o", str(out)]) == 1
    before, after = SAMPLE.read_text().splitlines(), out.read_text().splitlines()
    assert len(after) == len(before) + 2
    changed = {5, 9, 14, 16}  # 0-based: the fake result, the markup, the two broken inputs
    kept = [line for number, line in enumerate(before) if number not in changed]
    assert [line for line in after if line in set(before)] == kept
    chain = assert_one_chain(out)
    fixed = next(e for e in chain if e.get("message", {}).get("id") == "msg_mock_01")
    call_event, result_event = chain[chain.index(fixed) - 2 : chain.index(fixed)]
    original = records(SAMPLE)[9]
    assert fixed["parentUuid"] == result_event["uuid"] and call_event["parentUuid"] == original["parentUuid"]
    assert fixed["message"]["content"] == [text("Let me read it.")] and fixed["uuid"] == original["uuid"]
    assert call_event["type"] == "assistant" and call_event["message"]["content"] == [
        tool_use("call_inspector_9_0", "Read", {"file_path": "notes.txt"})
    ]
    assert result_event["message"]["content"][0]["tool_use_id"] == "call_inspector_9_0"
    assert (
        "not executed" in result_event["toolUseResult"]
        and result_event["sourceToolAssistantUUID"] == call_event["uuid"]
    )
    for new in (call_event, result_event):
        assert uuid.UUID(new["uuid"]).version == 4
        assert {k: new[k] for k in SESSION_KEYS} == {k: original[k] for k in SESSION_KEYS}
    inputs = [
        b["input"]
        for e in chain
        if e["type"] == "assistant"
        for b in e["message"]["content"]
        if b["type"] == "tool_use"
    ]
    assert {"file_path": "/tmp/cc-work/notes.txt"} in inputs and {
        "command": "echo hi",
        "description": "Print hi",
    } in inputs
    assert not any("__unparsedToolInput" in json.dumps(i) for i in inputs)
    assert [f.kind for r in scan_file(out) for f in r.findings] == ["tool-error", "tool-error"]


def test_parallel_calls_answered_from_their_own_events_read_as_one_reply(tmp_path):
    chain = Chain()
    chain.user("read both")
    chain.assistant("msg_1", text("Reading both."))
    first = chain.assistant("msg_1", tool_use("toolu_a", "Read", {"file_path": "a"}))
    second = chain.assistant("msg_1", tool_use("toolu_b", "Read", {"file_path": "b"}))
    chain.result("toolu_a", "A")["parentUuid"] = first["uuid"]  # Claude Code hangs a result from its call's event
    chain.result("toolu_b", "B")["parentUuid"] = second["uuid"]
    chain.assistant("msg_2", text("Both read."))
    path = chain.write(tmp_path / "s.jsonl")
    (session,) = load_sessions(path)
    assert [(t.role, len(t.raw), len(t.tool_calls)) for t in session.turns] == [
        (USER, 1, 0),
        (ASSISTANT, 3, 2),
        (TOOL, 1, 0),
        (TOOL, 1, 0),
        (ASSISTANT, 1, 0),
    ]
    assert scan_file(path)[0].findings == []
    assert render_sessions([session]) == path.read_text()


def test_an_edited_reply_re_renders_only_its_own_events(tmp_path):
    chain = Chain()
    chain.user("hi")
    chain.assistant("msg_1", text("First part. "))
    chain.assistant("msg_1", text("Second part."))
    chain.assistant("msg_1", tool_use("toolu_1", "Read", {"file_path": "a"}))
    path = chain.write(tmp_path / "s.jsonl")
    (session,) = load_sessions(path)
    reply = session.turns[1]
    assert (reply.text, len(reply.raw)) == ("First part. Second part.", 3)
    edited = replace(reply, text="Second part.", edited=True)
    out_lines = render_sessions([replace(session, turns=(session.turns[0], edited))]).splitlines()
    lines = path.read_text().splitlines()
    assert len(out_lines) == 3 and out_lines[0] == lines[0] and out_lines[2] == lines[3]
    assert json.loads(out_lines[1]) == {**chain.events[2], "parentUuid": chain.events[0]["uuid"]}  # moved up


def test_results_for_unanswered_calls_go_just_after_them(tmp_path, capsys):
    chain = Chain()
    chain.user("run it")
    chain.assistant("msg_1", tool_use("toolu_1", "Bash", {"command": "echo hi"}))
    chain.user("stop")
    chain.add({"type": "system", "subtype": "turn_duration"})
    chain.user("read it")
    chain.assistant("msg_2", tool_use("toolu_2", "Read", {"file_path": "a"}))
    path = chain.write(tmp_path / "s.jsonl", [{"type": "last-prompt", "leafUuid": chain.last, "sessionId": "x"}])
    out = tmp_path / "out.jsonl"
    assert main(["fix", str(path), "--accept", "orphan-call", "-o", str(out)]) == 0
    events = assert_one_chain(out)
    assert [e["type"] for e in events] == ["user", "assistant", "user", "user", "system", "user", "assistant", "user"]
    for number in (2, 7):
        assert events[number]["message"]["content"][0]["is_error"] is True
        assert events[number]["sourceToolAssistantUUID"] == events[number - 1]["uuid"]
    assert records(out)[-1]["type"] == "last-prompt"
    assert [
        f.kind for f in scan_file(out)[0].findings
    ] == []  # the two answers added are inspector's own, not tool errors


def test_a_reply_that_is_only_markup_becomes_the_call(tmp_path, capsys):
    chain = Chain()
    chain.user("read notes")
    chain.assistant("msg_1", text('<tool_call>{"name": "Read", "arguments": {"file_path": "notes.txt"}}</tool_call>'))
    chain.user("thanks")
    path = chain.write(tmp_path / "s.jsonl")
    out = tmp_path / "out.jsonl"
    assert main(["fix", str(path), "--accept", "tool-markup", "-o", str(out)]) == 0
    events = assert_one_chain(out)
    assert [e["uuid"] for e in events][:2] == [e["uuid"] for e in chain.events[:2]]
    assert events[1]["message"]["content"] == [tool_use("call_inspector_1_0", "Read", {"file_path": "notes.txt"})]
    assert events[2]["message"]["content"][0]["tool_use_id"] == "call_inspector_1_0"
    assert events[3]["message"]["content"] == "thanks"


def test_replaced_arguments_and_a_new_name_are_written_into_the_tool_use_block(tmp_path):
    chain = Chain()
    chain.user("go")
    chain.assistant("msg_1", text("Looking."), tool_use("toolu_1", "read_file", {"file_path": "a"}))
    path = chain.write(tmp_path / "s.jsonl")
    (session,) = load_sessions(path)
    reply = session.turns[1]
    call = replace(reply.tool_calls[0], name="Read", arguments_raw={"file_path": "b"}, arguments={"file_path": "b"})
    out = render_sessions([replace(session, turns=(session.turns[0], replace(reply, tool_calls=(call,), edited=True)))])
    written = json.loads(out.splitlines()[1])
    assert written["message"]["content"] == [text("Looking."), tool_use("toolu_1", "Read", {"file_path": "b"})]
    assert {k: v for k, v in written.items() if k != "message"} == {
        k: v for k, v in chain.events[1].items() if k != "message"
    }


def test_subagent_threads_are_their_own_sessions(tmp_path, capsys):
    main_chain, side = Chain(), Chain(isSidechain=True, agentId="a1b2")
    main_chain.user("delegate")
    side.user("sub task")
    side.assistant("msg_s", text('<tool_call>{"name": "Read", "arguments": {"file_path": "x"}}</tool_call>'))
    for event in side.events:
        event["uuid"] = event["uuid"].replace("00000000", "11111111")
        event["parentUuid"] = event["parentUuid"] and event["parentUuid"].replace("00000000", "11111111")
    main_chain.assistant("msg_m", text("Done."))
    path = tmp_path / "s.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in [main_chain.events[0], *side.events, main_chain.events[1]]))
    sessions = load_sessions(path)
    assert [s.session_id for s in sessions] == [
        main_chain.envelope["sessionId"],
        main_chain.envelope["sessionId"] + "/agent-a1b2",
    ]
    assert [len(s.turns) for s in sessions] == [2, 2]
    out = tmp_path / "out.jsonl"
    assert main(["fix", str(path), "--accept", "all", "-o", str(out)]) == 0
    assert [e["message"]["content"] for e in assert_one_chain(out)] == [
        e["message"]["content"] for e in main_chain.events
    ]
    side_out = assert_one_chain(out, sidechain=True)
    assert len(side_out) == 3 and all(e["agentId"] == "a1b2" for e in side_out)
    assert side_out[1]["message"]["content"] == [tool_use("call_inspector_2_0", "Read", {"file_path": "x"})]


def test_unknown_types_and_a_cut_last_line_are_problems_and_kept(tmp_path, capsys):
    lines = SAMPLE.read_text().splitlines(keepends=True)
    odd = ['{"type":"telemetry-blob","sessionId":"x"}\n', '{"type":"telemetry-blob"}\n', "[1, 2]\n"]
    path = tmp_path / "s.jsonl"
    path.write_text("".join(lines[:3] + odd + lines[3:-2]) + lines[-2][:200], encoding="utf-8")
    (session,) = load_sessions(path)
    assert session.problems[0].startswith(f"line {len(lines) + 2}: cut off: invalid JSON (")
    assert session.problems[1:] == (
        "2 events of type 'telemetry-blob' (first at line 4) not read as turns, kept as they are",
        "1 line that is not a JSON object (first at line 6) not read as turns, kept as it is",
    )
    assert len(session.turns) == 13  # the cut final reply is not read
    assert render_sessions([session]) == path.read_text(encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert main(["fix", str(path), "--accept", "all", "-o", str(out)]) == 1
    assert out.read_text(encoding="utf-8").endswith("\n" + lines[-2][:200])  # still the last line, still cut


def test_a_one_line_file_is_read_and_written(tmp_path):
    chain = Chain()
    chain.user("just one")
    path = chain.write(tmp_path / "one.jsonl")
    (session,) = load_sessions(path)
    assert [t.text for t in session.turns] == ["just one"]
    assert render_sessions([session]) == path.read_text()


def test_a_raw_line_separator_inside_a_string_does_not_split_the_line(tmp_path):
    chain = Chain()
    chain.user("one\u2028two")
    chain.assistant("msg_1", text("ok"))
    path = chain.write(tmp_path / "s.jsonl")
    path.write_text(path.read_text().replace("\\u2028", "\u2028"), encoding="utf-8")
    assert [t.text for t in load_sessions(path)[0].turns] == ["one\u2028two", "ok"]


NEWEST = SAMPLES / "claude-code.v2.1.332.jsonl"  # the same scenario, by Claude Code 2.1.332
NEWER_TYPES = {"api-request", "api-request-shape", "api-request-blob", "atis-latch", "tools-used", "cost-state"}


def test_a_newer_release_s_request_records_and_state_events_are_known_and_kept(tmp_path, capsys):
    (session,) = load_sessions(NEWEST)
    assert session.problems == ()
    assert {event["type"] for event in records(NEWEST)} >= NEWER_TYPES
    (result,) = scan_file(NEWEST)
    assert [(f.kind, f.tool) for f in result.findings] == [
        ("result-prefix", None),
        ("tool-markup", "Read"),
        ("malformed-arguments", "Read"),
        ("tool-error", "Read"),
        ("malformed-arguments", "Bash"),
        ("tool-error", "Bash"),
    ]
    assert render_sessions(load_sessions(NEWEST)) == NEWEST.read_text(encoding="utf-8")
    out = tmp_path / "fixed.jsonl"
    assert main(["fix", str(NEWEST), "--accept", "all", "-o", str(out)]) == 1
    newer = [line for line in NEWEST.read_text().splitlines() if json.loads(line)["type"] in NEWER_TYPES]
    assert [line for line in out.read_text().splitlines() if json.loads(line)["type"] in NEWER_TYPES] == newer
    assert load_sessions(out)[0].problems == ()
    assert [f.kind for r in scan_file(out) for f in r.findings] == ["tool-error", "tool-error"]
