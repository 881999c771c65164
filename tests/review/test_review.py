"""The review core: decisions, undo, the review file (resume), and export of approved fixes only,
on a copy of the bundled memory-agent session (five unexecuted save_memory replies)."""

from __future__ import annotations

import json
import shlex
import shutil
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from inspector.cli.main import main
from inspector.errors import InspectorError
from inspector.repair.execute import execute_findings
from inspector.review.edits import Edit, EditedCall, proposal
from inspector.review.review import Review
from inspector.review.review_error import ReviewError
from inspector.review.review_file import APPROVED, EDITED, PENDING, SKIPPED
from inspector.scan.scanner import scan_file
from inspector.sources import load_sessions, open_source, session_files
from tests.helpers.samples import SESSIONS


def open_review(path: Path) -> Review:
    return Review.open(open_source(path), scan_file(path))


def index_of(review: Review, turn: int, number: int = 0) -> int:
    return [i for i, f in enumerate(review.findings(0)) if f.turn == turn][number]


def test_decisions_counts_and_undo_many_levels(session_copy):
    review = open_review(session_copy)
    assert review.counts(0).flagged == 6 and review.counts(0).pending == 6
    review.approve(0, index_of(review, 6))
    review.skip(0, index_of(review, 8))
    assert review.approve_all(0, "result-prefix") == 4
    counts = review.counts(0)
    assert (counts.approved, counts.skipped, counts.pending) == (5, 1, 0)
    assert review.undo() == "undid approve all 4 pending result-prefix"
    assert review.undo() == "undid skip result-prefix at turn 8"
    assert review.status(0, index_of(review, 8)) == PENDING
    assert review.status(0, index_of(review, 6)) == APPROVED
    assert review.undo() == "undid approve result-prefix at turn 6"
    assert review.undo() is None
    assert review.counts(0).pending == 6


def test_decidable_lists_what_approve_all_approves_and_approved_finding_carries_the_decided_fix(session_copy):
    review = open_review(session_copy)
    first, skipped = index_of(review, 6), index_of(review, 8)
    assert review.approved_finding(0, first) is None
    review.skip(0, skipped)
    pending = [i for i, f in enumerate(review.findings(0)) if f.kind == "result-prefix" and i != skipped]
    assert (
        review.decidable(0, "result-prefix", APPROVED) == pending
        and review.decidable(0, "no-such-kind", APPROVED) == []
    )
    assert review.approve_all(0, "result-prefix") == len(pending)
    assert review.decidable(0, "result-prefix", APPROVED) == [] and review.approved_finding(0, skipped) is None
    approved = review.approved_finding(0, first)
    assert approved.fix == review.findings(0)[first].fix and approved.turn == 6
    finding = review.findings(0)[first]
    start = proposal(finding, review.results[0].session.turn_at(finding.turn))
    review.edit(0, first, Edit("saved by hand", start.calls))
    edited = review.approved_finding(0, first)
    assert edited.fix == review.decided_fix(0, first) != finding.fix and edited.turn == finding.turn


def test_review_file_is_saved_at_once_and_resumed(session_copy):
    review = open_review(session_copy)
    review.approve(0, index_of(review, 6))
    review.skip(0, index_of(review, 14, 1))
    saved = json.loads(review.review_path.read_text())
    assert saved["unexported"] is True
    assert sorted(entry["status"] for entry in saved["decisions"]) == ["approved", "skipped"]

    resumed = open_review(session_copy)
    assert resumed.status(0, index_of(resumed, 6)) == APPROVED
    assert resumed.status(0, index_of(resumed, 14, 1)) == SKIPPED
    assert resumed.status(0, index_of(resumed, 14, 0)) == PENDING
    assert resumed.unexported


def test_review_file_is_not_taken_for_a_session(session_copy):
    review = open_review(session_copy)
    review.approve(0, index_of(review, 6))
    assert session_files(session_copy.parent) == [session_copy]


def test_a_review_file_of_a_newer_version_is_refused_and_left_as_it_is(session_copy):
    saved = session_copy.with_name(session_copy.name + ".review.json")
    saved.write_text('{"inspector_review": 4, "decisions": [], "notes": "kept by version 4"}')
    with pytest.raises(InspectorError, match="written by a newer inspector .format 4; this one reads up to 3."):
        open_review(session_copy)
    assert json.loads(saved.read_text())["notes"] == "kept by version 4"


def test_damaged_review_file_is_one_clear_error(session_copy):
    session_copy.with_name(session_copy.name + ".review.json").write_text('{"decisions": [{"session": 0}]}')
    with pytest.raises(InspectorError, match="the saved review is damaged.*move it away"):
        open_review(session_copy)


def test_export_applies_only_approved_and_edited_fixes(session_copy):
    review = open_review(session_copy)
    first, second = index_of(review, 6), index_of(review, 8)
    review.approve(0, first)
    finding = review.findings(0)[second]
    turn = review.results[0].session.turn_at(finding.turn)
    proposed = proposal(finding, turn)
    assert proposed.calls[0].name == "save_memory"
    edit = Edit(
        proposed.text, (EditedCall("save_memory", {"memory_type": "journal", "content": "Sam called me out."}),)
    )
    review.edit(0, second, edit)
    review.skip(0, index_of(review, 14))
    assert review.status(0, second) == EDITED

    outcome = review.export()
    assert outcome.out == session_copy.with_name("memory-agent.fixed.openai.json")
    assert outcome.applied == 2 and outcome.backup is None
    assert not review.unexported

    (session,) = load_sessions(outcome.out)
    recovered = [
        call for t in session.turns for call in t.tool_calls if call.id and call.id.startswith("call_inspector")
    ]
    assert [call.arguments["content"] for call in recovered] == [
        "Proud of Maya for moving to Leeds, but already missing our Sunday walks by the canal.",
        "Sam called me out.",
    ]
    remaining = next(r.findings for r in scan_file(outcome.out))
    assert sorted(f.turn for f in remaining if f.kind == "result-prefix") == [
        18,
        18,
        24,
        36,
    ]  # skipped and pending stay (4 turns were inserted before them)

    audit = [json.loads(line) for line in outcome.audit.read_text().splitlines()]
    edited = [entry for entry in audit if entry["edited"]]
    assert len(edited) == 1
    assert edited[0]["recovered_calls"][0]["arguments"]["content"] == "Sam called me out."
    assert edited[0]["proposed"]["recovered_calls"][0]["arguments"]["content"].startswith("Sam noticed I claimed")
    assert session_copy.read_bytes() == (SESSIONS / "memory-agent.openai.json").read_bytes()


def test_export_over_the_input_keeps_a_backup(session_copy):
    original = session_copy.read_bytes()
    review = open_review(session_copy)
    review.approve(0, index_of(review, 6))
    with pytest.raises(ReviewError, match="is the input"):
        review.export(session_copy)
    outcome = review.export(overwrite_input=True)
    assert outcome.out == session_copy
    assert outcome.backup.read_bytes() == original
    assert session_copy.read_bytes() != original
    exported = session_copy.read_bytes()
    assert main(["undo", str(session_copy)]) == 0  # the export over the input is undone as a fix in place
    assert session_copy.read_bytes() == original and Path(f"{session_copy}.bak.1").read_bytes() == exported


def test_an_edit_equal_to_the_proposal_is_an_approval(session_copy):
    review = open_review(session_copy)
    index = index_of(review, 6)
    finding = review.findings(0)[index]
    review.edit(0, index, proposal(finding, review.results[0].session.turn_at(finding.turn)))
    assert review.status(0, index) == APPROVED


def test_a_finding_without_fix_cannot_be_approved_but_can_be_edited(tmp_path):
    path = tmp_path / "coding-agent.dump.json"
    shutil.copy(SESSIONS / "coding-agent.dump.json", path)
    review = open_review(path)
    index = next(i for i, f in enumerate(review.findings(0)) if f.kind == "claimed-execution")
    assert not review.can_approve(0, index)
    with pytest.raises(ReviewError, match="no automatic fix"):
        review.approve(0, index)
    finding = review.findings(0)[index]
    turn = review.results[0].session.turn_at(finding.turn)
    review.edit(0, index, Edit("I have not run the code yet.", proposal(finding, turn).calls))
    outcome = review.export()
    (session,) = load_sessions(outcome.out)
    assert session.turn_at(finding.turn).text == "I have not run the code yet."


def test_default_export_path_never_overwrites_an_earlier_export(session_copy):
    review = open_review(session_copy)
    first = review.export()
    assert review.default_export_path() == session_copy.with_name("memory-agent.fixed.1.openai.json")
    assert first.out.exists()


def test_executions_are_kept_in_the_review_file_and_recorded_by_the_export(session_copy):
    executor = session_copy.with_name("save.py")
    executor.write_text(
        "import json, sys\nrequest = json.load(sys.stdin)\n"
        "print(json.dumps({'saved': request['arguments']['content']}))\n",
        encoding="utf-8",
    )
    command = shlex.join([sys.executable, str(executor)])
    review = open_review(session_copy)
    first = index_of(review, 6)
    review.approve(0, first)
    finding = replace(review.findings(0)[first], fix=review.decided_fix(0, first))
    review.record_execution(0, first, execute_findings(command, review.results[0].session, [finding]))
    (run,) = review.executions(0, first)
    assert run.ok and run.call.id == "call_inspector_6_0"

    resumed = open_review(session_copy)
    assert resumed.executions(0, first) == (run,) and resumed.unexported
    outcome = resumed.export()

    messages = json.loads(outcome.out.read_text())["messages"]
    answers = {m["tool_call_id"]: json.loads(m["content"]) for m in messages if m["role"] == "tool"}
    assert answers["call_inspector_6_0"] == {"saved": run.output["saved"]} == run.output
    (entry,) = [json.loads(line) for line in outcome.audit.read_text().splitlines()]
    assert [(e["call_id"], e["command"], e["ok"]) for e in entry["executions"]] == [
        ("call_inspector_6_0", command, True)
    ]


def test_a_review_of_one_conversation_of_a_database_shares_the_review_file_and_exports_in_place(tmp_path):
    from inspector.detect import detect_findings
    from inspector.scan.scanner import ScanResult, iter_scan
    from tests.helpers.rubyllm import build_rubyllm, messages_of

    database = build_rubyllm(tmp_path / "app.db")
    before = messages_of(database)
    session = open_source(database).session("2")
    one = Review.open(open_source(database), [ScanResult(session, detect_findings(session))])
    one.approve(0, 0)
    whole = Review.open(
        open_source(database), list(iter_scan(open_source(database)))
    )  # decisions are kept by conversation id
    assert [whole.status(number, 0) for number in (0, 1, 2)] == [PENDING, APPROVED, PENDING]
    third = open_source(database).session("3")
    assert Review.open(open_source(database), [ScanResult(third, detect_findings(third))]).status(0, 0) == PENDING

    outcome = one.export(overwrite_input=True)
    assert outcome.applied == 1 and outcome.backup is not None and messages_of(outcome.backup) == before
    assert [row for row in messages_of(database) if row[1] != 2] == [row for row in before if row[1] != 2]
    kinds = {
        result.session.session_id: [f.kind for f in result.findings] for result in iter_scan(open_source(database))
    }
    assert kinds == {"1": ["result-prefix"], "2": [], "3": ["tool-markup"], "4": []}


def test_a_database_exported_in_place_refuses_a_conversation_written_to_since_it_was_read(tmp_path):
    import sqlite3

    from inspector.scan.scanner import iter_scan
    from tests.helpers.rubyllm import build_rubyllm, messages_of

    database = build_rubyllm(tmp_path / "app.db")
    review = Review.open(open_source(database), list(iter_scan(open_source(database), only="2")))
    review.approve(0, 0)
    with sqlite3.connect(database) as conn:  # the chat application answers in that conversation meanwhile
        conn.execute("UPDATE messages SET content = 'edited by the app' WHERE chat_id = 2 AND role = 'user'")
    written = messages_of(database)
    with pytest.raises(InspectorError, match="conversation 2 is no longer as it was read .*; rolled back"):
        review.export(overwrite_input=True)
    assert messages_of(database) == written and review.status(0, 0) == APPROVED and review.unexported
