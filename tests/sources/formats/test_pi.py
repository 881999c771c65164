"""Pi sessions: the JSON Lines file the real `pi` 0.73.1 wrote (`sessions/pi.session.jsonl`, see
`sessions/generate/README.md`), its header and tree of entries read as the `pi` format, the current
branch followed, its planted problems found, written back byte for byte, and repaired so that the
real `pi --session FILE` loaded it (`sessions/pi.resumed.session.jsonl`)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from inspector.cli.main import main
from inspector.model import ASSISTANT, TOOL, USER, Turn
from inspector.sources import FORMATS, load_sessions, render_sessions
from inspector.sources.files.document import read_document
from tests.helpers.frameworks import fix_all, format_read, other_samples, rendered_unchanged, specific_claims
from tests.helpers.samples import TOOL_SAMPLES
from tests.helpers.scanning import finding_triples

SESSION = TOOL_SAMPLES / "pi.session.jsonl"
RESUMED = TOOL_SAMPLES / "pi.resumed.session.jsonl"  # the repaired session, resumed by the real pi
SESSION_ID = "01a2209d-992a-7283-8031-61b36cba4445"
PLANTED = [(4, "result-prefix", None), (6, "tool-markup", "read"), (9, "tool-error", "read")]
FIXED_REPLY = (
    "You saw right through me. I saved that to your journal, and honestly: the refactor needs a smaller first step."
)


def entries(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def assert_one_chain(path: Path) -> list[dict]:
    """The file's entries after the header hang one from the one before, each id once."""
    chain = entries(path)[1:]
    ids = [entry["id"] for entry in chain]
    assert len(set(ids)) == len(ids)
    assert [entry["parentId"] for entry in chain] == [None] + ids[:-1]
    return chain


def lines_of(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines(keepends=True)


def write_lines(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(lines), encoding="utf-8")
    return path


@pytest.mark.parametrize("path", [SESSION, RESUMED], ids=lambda p: p.name)
def test_the_session_is_pi_and_no_other_specific_format_claims_it(path):
    assert specific_claims(path) == ["pi"]
    assert format_read(path) == "pi"


@pytest.mark.parametrize("path", other_samples("pi"), ids=lambda p: p.name)
def test_pi_claims_no_other_sample(path):
    assert not FORMATS["pi"].claims(read_document(path))


def test_turns_calls_results_and_models_are_read():
    (session,) = load_sessions(SESSION)
    assert session.format == "pi" and session.session_id == SESSION_ID and session.problems == ()
    assert [(t.position, t.role) for t in session.turns] == [
        (3, USER),
        (4, ASSISTANT),
        (5, USER),
        (6, ASSISTANT),
        (7, USER),
        (8, ASSISTANT),
        (9, TOOL),
        (10, ASSISTANT),
        (11, TOOL),
        (12, ASSISTANT),
        (13, TOOL),
        (14, ASSISTANT),
    ]
    lines = entries(SESSION)
    assert [t.id for t in session.turns] == [lines[t.position]["id"] for t in session.turns]
    assert [t.raw for t in session.turns] == [lines[t.position] for t in session.turns]
    assert {t.model for t in session.turns if t.role == ASSISTANT} == {"mock-coder"}
    assert {t.model for t in session.turns if t.role != ASSISTANT} == {None}
    calls = [(c.id, c.name, c.arguments) for t in session.turns for c in t.tool_calls]
    assert calls == [
        ("call_mock_bad_read", "read", {"file": "/tmp/pi-work/notes.txt"}),
        ("call_mock_good_read", "read", {"path": "/tmp/pi-work/notes.txt"}),
        ("call_mock_good_bash", "bash", {"command": "echo hi"}),
    ]
    results = [(r.call_id, r.name, r.is_error) for t in session.turns for r in t.tool_results]
    assert results == [
        ("call_mock_bad_read", "read", True),
        ("call_mock_good_read", "read", False),
        ("call_mock_good_bash", "bash", False),
    ]
    assert session.turns[8].tool_results[0].content == "Meeting moved to Thursday.\nBring the draft.\n"
    assert session.turns[0].text.startswith("Please save a journal memory")


def test_the_planted_problems_are_found_once_and_the_good_calls_are_clean():
    assert finding_triples(SESSION) == PLANTED


@pytest.mark.parametrize("path", [SESSION, RESUMED], ids=lambda p: p.name)
def test_round_trip_unchanged_is_byte_identical(path):
    assert rendered_unchanged(path) == path.read_text(encoding="utf-8")


def test_fix_splices_the_recovered_call_into_the_branch_and_rescans_clean(tmp_path, capsys):
    out = tmp_path / "fixed.jsonl"
    assert fix_all(SESSION, out, capsys)[0] == 1  # the failed call has no fix: a finding is left
    assert format_read(out) == "pi" and finding_triples(out) == [(11, "tool-error", "read")]
    chain = assert_one_chain(out)
    original, written = lines_of(SESSION), lines_of(out)
    assert written[:4] + written[9:] == original[:4] + original[7:]
    assert chain[3]["message"]["content"] == [{"type": "text", "text": FIXED_REPLY}]
    call, result, text = chain[5:8]
    assert (call["type"], call["message"]["role"], call["message"]["stopReason"]) == ("message", "assistant", "toolUse")
    assert {k: call["message"][k] for k in ("api", "provider", "model")} == {
        "api": "openai-completions",
        "provider": "mock",
        "model": "mock-coder",
    }
    (block,) = call["message"]["content"]
    assert (block["type"], block["name"], block["arguments"]) == (
        "toolCall",
        "read",
        {"path": "/tmp/pi-work/notes.txt"},
    )
    assert result["message"]["role"] == "toolResult" and result["message"]["toolCallId"] == block["id"]
    assert "not executed" in result["message"]["content"][0]["text"] and result["message"]["isError"] is False
    assert text["id"] == entries(SESSION)[6]["id"]
    assert text["message"]["content"] == [{"type": "text", "text": "Let me read it."}]
    assert all(len(new["id"]) == 8 for new in (call, result))


def test_the_real_pi_resumed_the_repaired_session_and_appended_to_it(tmp_path, capsys):
    """The resumed file is what fix writes, line for line, then the turn pi added to its last line."""
    out = tmp_path / "fixed.jsonl"
    fix_all(SESSION, out, capsys)
    written = lines_of(out)
    resumed = lines_of(RESUMED)
    assert resumed[: len(written)] == written
    chain = assert_one_chain(RESUMED)
    assert chain[-2]["message"]["content"] == [{"type": "text", "text": "Thanks. Is the meeting still on Thursday?"}]
    (session,) = load_sessions(RESUMED)
    assert session.problems == () and finding_triples(RESUMED) == [(11, "tool-error", "read")]
    assert session.turns[-1].text == "Yes: the notes say the meeting moved to Thursday."


def test_only_the_current_branch_is_read_and_the_others_are_kept(tmp_path, capsys):
    """An entry whose parent is the second user turn starts a branch; being last, it is where Pi goes on."""
    lines = lines_of(SESSION)
    second_user = json.loads(lines[5])
    branch = {**json.loads(lines[6]), "id": "b0b0b0b0", "parentId": second_user["id"]}
    branch["message"] = {**branch["message"], "content": [{"type": "text", "text": "It says to meet on Thursday."}]}
    path = write_lines(tmp_path / "branched.jsonl", lines + [json.dumps(branch) + "\n"])
    (session,) = load_sessions(path)
    assert [t.position for t in session.turns] == [3, 4, 5, 15]
    assert session.turns[-1].text == "It says to meet on Thursday." and session.problems == ()
    assert finding_triples(path) == [(4, "result-prefix", None)]
    out = tmp_path / "fixed.jsonl"
    assert fix_all(path, out, capsys)[0] == 0
    original, written = lines_of(path), lines_of(out)
    assert written[:4] + written[5:] == original[:4] + original[5:]


def test_unknown_types_and_roles_and_a_cut_line_are_counted(tmp_path):
    lines = lines_of(SESSION)
    odd = [
        '{"type":"checkpoint","id":"c1","parentId":null}\n',
        '{"type":"checkpoint"}\n',
        '{"type":"message","id":"c3","parentId":null,"message":{"role":"oracle","content":"hi"}}\n',
        "[1, 2]\n",
    ]
    cut = lines[-1][:120]
    path = write_lines(tmp_path / "odd.jsonl", lines[:3] + odd + lines[3:-1] + [cut])
    (session,) = load_sessions(path)
    cut_off, *unread = session.problems
    assert cut_off.startswith(f"line {len(lines) + 4}: cut off: invalid JSON (") and cut_off.endswith("kept as it is")
    assert unread == [
        "2 records of type 'checkpoint' (first at line 4) not read as turns, kept as they are",
        "1 record of type 'message' with the role 'oracle' (first at line 6) not read as turns, kept as it is",
        "1 line that is not a JSON object (first at line 7) not read as turns, kept as it is",
    ]
    assert render_sessions([session]) == path.read_text(encoding="utf-8")


def test_a_first_format_session_without_ids_is_read_in_file_order(tmp_path):
    stripped = []
    for entry in entries(SESSION):
        entry.pop("id", None) if entry["type"] != "session" else entry.pop("version")
        entry.pop("parentId", None)
        stripped.append(json.dumps(entry) + "\n")
    (session,) = load_sessions(write_lines(tmp_path / "v1.jsonl", stripped))
    assert len(session.turns) == 12 and session.turns[-1].id is None


def test_a_reply_edited_to_nothing_is_dropped_and_its_next_entry_rehung():
    (session,) = load_sessions(SESSION)
    turns = list(session.turns)
    turns[1] = replace(turns[1], text="", edited=True)
    written = render_sessions([replace(session, turns=tuple(turns))]).splitlines()
    original = SESSION.read_text(encoding="utf-8").splitlines()
    dropped = json.loads(original[4])
    assert len(written) == len(original) - 1 and dropped["id"] not in "".join(written)
    assert json.loads(written[4])["parentId"] == dropped["parentId"]
    assert written[5:] == original[6:]


def test_a_turn_added_at_the_end_goes_after_the_last_line_and_hangs_from_it():
    (session,) = load_sessions(SESSION)
    added = Turn(99, USER, "One more thing.")
    written = render_sessions([replace(session, turns=(*session.turns, added))]).splitlines()
    original = SESSION.read_text(encoding="utf-8").splitlines()
    assert written[:-1] == original
    new = json.loads(written[-1])
    assert new["parentId"] == json.loads(original[-1])["id"]
    assert new["message"]["content"] == [{"type": "text", "text": "One more thing."}]


def test_scan_unknowns_lists_entry_types_and_keys_pi_did_not_write(tmp_path, capsys):
    assert main(["scan", str(SESSION), str(RESUMED), "--unknowns"]) == 0
    lines = entries(SESSION)
    lines[4]["speculative"] = True
    lines.append({"type": "checkpoint", "id": "c1", "parentId": lines[-1]["id"]})
    drifted = write_lines(tmp_path / "drifted.jsonl", [json.dumps(entry) + "\n" for entry in lines])
    capsys.readouterr()
    assert main(["scan", str(drifted), "--unknowns", "--json"]) == 1
    rows = {
        (r["format"], r["version"], r["record_type"], r["key"]): r["count"]
        for r in json.loads(capsys.readouterr().out)["unknowns"]
    }
    assert rows == {("pi", "session v3", "message", "speculative"): 1, ("pi", "session v3", "checkpoint", None): 1}


def test_a_turn_added_to_a_file_with_blank_lines_is_written_once_after_the_last_entry(tmp_path):
    lines = lines_of(SESSION)
    path = write_lines(tmp_path / "blank.jsonl", lines[:5] + ["\n"] + lines[5:] + ["\n"])
    (session,) = load_sessions(path)
    written = render_sessions([replace(session, turns=(*session.turns, Turn(99, USER, "One more thing.")))])
    assert written.count("One more thing.") == 1
    *kept, new, blank = written.splitlines(keepends=True)
    assert kept == lines_of(path)[:-1] and blank == "\n"
    assert json.loads(new)["parentId"] == json.loads(lines[-1])["id"]


def test_a_call_whose_arguments_a_repair_corrected_is_written_in_its_block():
    (session,) = load_sessions(SESSION)
    turns = list(session.turns)
    (call,) = turns[5].tool_calls
    corrected = replace(
        call, arguments_raw='{"path": "/tmp/pi-work/notes.txt"}', arguments={"path": "/tmp/pi-work/notes.txt"}
    )
    turns[5] = replace(turns[5], tool_calls=(corrected,), edited=True)
    written = render_sessions([replace(session, turns=tuple(turns))]).splitlines(keepends=True)
    original = lines_of(SESSION)
    assert written[:8] + written[9:] == original[:8] + original[9:]
    text, block = json.loads(written[8])["message"]["content"]
    assert text == {"type": "text", "text": "Reading notes.txt with the real tool."}
    assert block == {
        "type": "toolCall",
        "id": "call_mock_bad_read",
        "name": "read",
        "arguments": {"path": "/tmp/pi-work/notes.txt"},
    }
