"""Qwen Code chats: the JSON Lines file the real `qwen` 0.24.4 wrote (`sessions/qwen-code.jsonl`,
see `sessions/generate/README.md`), Claude Code's envelope around Gemini contents, read as its
own format (not Claude Code's), its planted problems found, written back byte for byte, and
repaired so that the real `qwen --resume` loaded it (`sessions/clean.qwen-code.resumed.jsonl`)."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from inspector.cli.main import main
from inspector.model import ASSISTANT, TOOL, USER
from inspector.sources import FORMATS, load_sessions, render_sessions
from inspector.sources.files.document import read_document
from tests.helpers.frameworks import fix_all, format_read, other_samples, rendered_unchanged, specific_claims
from tests.helpers.samples import TOOL_SAMPLES
from tests.helpers.scanning import finding_triples

CHAT = TOOL_SAMPLES / "qwen-code.jsonl"
RESUMED = TOOL_SAMPLES / "clean.qwen-code.resumed.jsonl"  # the repaired chat, resumed by the real qwen
SESSION_ID = "03435728-ffcc-4f6d-b037-8d2b8f20823d"
PLANTED = [(3, "result-prefix", None), (7, "tool-markup", "read_file")]
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def assert_one_chain(path: Path) -> list[dict]:
    """The file's records hang one from the one before, each uuid once."""
    chain = records(path)
    uuids = [r["uuid"] for r in chain]
    assert len(set(uuids)) == len(uuids)
    assert [r["parentUuid"] for r in chain] == [None] + uuids[:-1]
    return chain


def write_lines(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(lines), encoding="utf-8")
    return path


@pytest.mark.parametrize("path", [CHAT, RESUMED], ids=lambda p: p.name)
def test_the_chat_is_qwen_code_and_no_other_specific_format_claims_it(path):
    assert specific_claims(path) == ["qwen-code"]
    assert format_read(path) == "qwen-code"


@pytest.mark.parametrize("path", other_samples("qwen-code"), ids=lambda p: p.name)
def test_qwen_code_claims_no_other_sample(path):
    assert not FORMATS["qwen-code"].claims(read_document(path))


def test_turns_calls_results_and_models_are_read():
    (session,) = load_sessions(CHAT)
    assert session.format == "qwen-code" and session.session_id == SESSION_ID and session.problems == ()
    assert [(t.position, t.role) for t in session.turns] == [
        (0, USER),
        (3, ASSISTANT),
        (4, USER),
        (7, ASSISTANT),
        (8, USER),
        (11, ASSISTANT),
        (13, TOOL),
        (15, ASSISTANT),
        (17, TOOL),
        (19, ASSISTANT),
    ]
    lines = records(CHAT)
    assert [t.id for t in session.turns] == [lines[t.position]["uuid"] for t in session.turns]
    assert {t.model for t in session.turns if t.role == ASSISTANT} == {"qwen3-coder-plus"}
    assert {t.model for t in session.turns if t.role != ASSISTANT} == {None}
    calls = [(c.id, c.name, c.arguments) for t in session.turns for c in t.tool_calls]
    assert calls == [
        ("call_mock_good", "read_file", {"file_path": "/tmp/qw-work/notes.txt"}),
        ("call_mock_good_shell", "run_shell_command", {"command": "echo hi", "description": "Print hi"}),
    ]
    results = [(r.call_id, r.name, r.is_error) for t in session.turns for r in t.tool_results]
    assert results == [("call_mock_good", "read_file", False), ("call_mock_good_shell", "run_shell_command", False)]
    assert session.turns[6].tool_results[0].content == {"output": "Meeting moved to Thursday.\nBring the draft.\n"}


def test_the_planted_problems_are_found_once_and_the_good_calls_are_clean():
    assert finding_triples(CHAT) == PLANTED


@pytest.mark.parametrize("path", [CHAT, RESUMED], ids=lambda p: p.name)
def test_round_trip_unchanged_is_byte_identical(path):
    assert rendered_unchanged(path) == path.read_text(encoding="utf-8")


def test_fix_splices_the_recovered_call_into_the_chain_and_rescans_clean(tmp_path, capsys):
    out = tmp_path / "fixed.jsonl"
    assert fix_all(CHAT, out, capsys)[0] == 0
    assert format_read(out) == "qwen-code" and finding_triples(out) == []
    chain = assert_one_chain(out)
    original = CHAT.read_text(encoding="utf-8").splitlines(keepends=True)
    written = out.read_text(encoding="utf-8").splitlines(keepends=True)
    assert written[:3] + written[4:7] + written[10:] == original[:3] + original[4:7] + original[8:]
    fixed_reply = (
        "You saw right through me. I saved that to your journal, and honestly: the refactor needs a smaller first step."
    )
    assert chain[3]["message"]["parts"] == [{"text": fixed_reply}]
    call, result, text = chain[7:10]
    assert (call["type"], call["message"]["role"], call["model"]) == ("assistant", "model", "qwen3-coder-plus")
    (part,) = call["message"]["parts"]
    assert part["functionCall"]["name"] == "read_file" and part["functionCall"]["args"] == {"file_path": "notes.txt"}
    assert result["type"] == "tool_result" and result["toolCallResult"]["callId"] == part["functionCall"]["id"]
    assert result["message"]["parts"][0]["functionResponse"]["id"] == part["functionCall"]["id"]
    assert text["uuid"] == records(CHAT)[7]["uuid"] and text["message"]["parts"] == [{"text": "Let me read it."}]
    for new in (call, result):
        assert {k: new[k] for k in ("sessionId", "cwd", "version")} == {
            "sessionId": SESSION_ID,
            "cwd": "/tmp/qw-work",
            "version": "0.24.4",
        }


def test_the_real_qwen_resumed_the_repaired_chat_and_appended_to_it(tmp_path, capsys):
    """The resumed file is what fix writes (but for the new records' uuids), then the turn qwen added."""
    out = tmp_path / "fixed.jsonl"
    fix_all(CHAT, out, capsys)
    written = out.read_text(encoding="utf-8").splitlines()
    resumed = RESUMED.read_text(encoding="utf-8").splitlines()
    new_uuids = {r["uuid"] for r in records(out)} - {r["uuid"] for r in records(CHAT)}
    assert len(new_uuids) == 2

    def blank(line: str) -> str:
        return UUID.sub(lambda m: "<new>" if m.group(0) not in {r["uuid"] for r in records(CHAT)} else m.group(0), line)

    assert [blank(line) for line in resumed[: len(written)]] == [blank(line) for line in written]
    chain = assert_one_chain(RESUMED)
    assert chain[-4]["message"]["parts"] == [{"text": "Thanks. Is anything else in notes.txt?"}]
    (session,) = load_sessions(RESUMED)
    assert session.problems == () and finding_triples(RESUMED) == []
    assert session.turns[-1].text == "Nothing else: only those two lines."


def test_an_error_status_unknown_types_and_a_cut_line_are_read_as_such(tmp_path):
    lines = CHAT.read_text(encoding="utf-8").splitlines(keepends=True)
    failed = json.loads(lines[13])
    failed["toolCallResult"]["status"] = "error"
    odd = ['{"type":"telemetry-blob","uuid":"x"}\n', '{"type":"telemetry-blob"}\n', "[1, 2]\n"]
    cut = lines[-1][:120]
    path = write_lines(
        tmp_path / "odd.jsonl", lines[:2] + odd + lines[2:13] + [json.dumps(failed) + "\n"] + lines[14:-1] + [cut]
    )
    (session,) = load_sessions(path)
    cut_off, *unread = session.problems
    assert cut_off.startswith(f"line {len(lines) + 3}: cut off: invalid JSON (") and cut_off.endswith("kept as it is")
    assert unread == [
        "2 records of type 'telemetry-blob' (first at line 3) not read as turns, kept as they are",
        "1 record that is not a JSON object (first at line 5) not read as turns, kept as it is",
    ]
    (result,) = [r for t in session.turns for r in t.tool_results if r.call_id == "call_mock_good"]
    assert result.is_error
    assert render_sessions([session]) == path.read_text(encoding="utf-8")


def test_a_subagent_thread_is_its_own_session(tmp_path):
    lines = CHAT.read_text(encoding="utf-8").splitlines(keepends=True)
    side = [
        json.dumps({**json.loads(line), "isSidechain": True, "agentId": "explore-7f3c"}) + "\n" for line in lines[8:12]
    ]
    path = write_lines(tmp_path / "side.jsonl", lines + side)
    main, subagent = load_sessions(path)
    assert main.session_id == SESSION_ID and len(main.turns) == 10
    assert subagent.session_id == f"{SESSION_ID}/agent-explore-7f3c"
    assert [t.role for t in subagent.turns] == [USER, ASSISTANT]


def test_a_reply_that_is_only_markup_becomes_the_call(tmp_path, capsys):
    lines = CHAT.read_text(encoding="utf-8").splitlines(keepends=True)
    path = write_lines(tmp_path / "markup.jsonl", lines[:7] + [lines[7].replace("Let me read it.\\n", "")] + lines[8:])
    out = tmp_path / "fixed.jsonl"
    fix_all(path, out, capsys)
    chain = assert_one_chain(out)
    reply, result, user = chain[7:10]
    assert reply["uuid"] == json.loads(lines[7])["uuid"]
    (part,) = reply["message"]["parts"]
    assert part["functionCall"]["name"] == "read_file"
    assert (result["type"], user["type"]) == ("tool_result", "user")
    assert finding_triples(out) == []


def test_a_reply_edited_to_nothing_is_dropped_and_its_children_rehung():
    (session,) = load_sessions(CHAT)
    turns = list(session.turns)
    turns[1] = replace(turns[1], text="", edited=True)
    written = render_sessions([replace(session, turns=tuple(turns))]).splitlines()
    original = CHAT.read_text(encoding="utf-8").splitlines()
    dropped = json.loads(original[3])
    assert len(written) == len(original) - 1 and dropped["uuid"] not in "".join(written)
    assert json.loads(written[3])["parentUuid"] == dropped["parentUuid"]
    assert written[4:] == original[5:]


def test_scan_unknowns_lists_a_newer_release_s_record_types_and_keys(tmp_path, capsys):
    assert main(["scan", str(CHAT), str(RESUMED), "--unknowns"]) == 0
    lines = [json.loads(line) for line in CHAT.read_text(encoding="utf-8").splitlines()]
    for record in lines[10:]:
        record["version"] = "0.25.0"
    lines[11]["speculativeDraft"] = {"id": 1}
    lines.append({"uuid": "u", "type": "checkpoint", "version": "0.25.0"})
    drifted = write_lines(tmp_path / "drifted.jsonl", [json.dumps(record) + "\n" for record in lines])
    capsys.readouterr()
    assert main(["scan", str(drifted), "--unknowns", "--json"]) == 1
    rows = {
        (r["format"], r["version"], r["record_type"], r["key"]): r["count"]
        for r in json.loads(capsys.readouterr().out)["unknowns"]
    }
    assert rows == {
        ("qwen-code", "0.25.0", "assistant", "speculativeDraft"): 1,
        ("qwen-code", "0.25.0", "checkpoint", None): 1,
    }
