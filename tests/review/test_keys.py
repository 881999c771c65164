"""A database's review decisions are kept by conversation id: a conversation added to the history
before the person resumes leaves every decision on its own conversation, a review file of the
previous version (which kept them by place) resumes as it did, and decisions that can no longer
be applied (their conversation or finding gone) are reported, in the app and by its export."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable

from inspector.detect import detect_findings
from inspector.review.review import Review
from inspector.review.review_file import APPROVED, PENDING, finding_keys, review_path_for
from inspector.scan.scanner import ScanResult, iter_scan
from inspector.sources import open_source
from inspector.tui.app import InspectorApp
from tests.helpers.app import approve, export_with_defaults, play_noting, reviewed
from tests.helpers.chat_log import CHAT_LOG, JOURNAL, LEEDS, TEMPO, bodies, build_chat_log
from tests.helpers.pilot import play, until

pytestmark = pytest.mark.slow  # drives the app with Pilot

FIXED_JOURNAL = "You saw right through me. I noted how scattered this week felt."
FIXED_LEEDS = "Done, it is on your list."


def scanned(database: Path, conversation: str) -> ScanResult:
    session = open_source(database, table=CHAT_LOG.table, mapping=CHAT_LOG.mapping).session(conversation)
    return ScanResult(session, detect_findings(session))


def test_a_conversation_added_before_resuming_leaves_each_decision_on_its_own_conversation(tmp_path: Path):
    database = build_chat_log(tmp_path / "app.db", {"a-journal": JOURNAL, "c-leeds": LEEDS})
    play(InspectorApp(database, session="c-leeds", named=CHAT_LOG), approve)
    # the same request made again in a new chat, listed between the two: c-leeds moves to place 3
    build_chat_log(database, {"b-leeds-again": LEEDS})

    async def resume(pilot: Pilot) -> None:
        table = pilot.app.screen.query_one(DataTable)
        await until(pilot, lambda: table.row_count == 3, "the picker to list 3 rows")
        statuses = {}
        for _ in range(3):
            await pilot.press("enter")
            review = await reviewed(pilot)
            statuses[review.session.session_id] = review.review.status(0, 0)
            await pilot.press("escape", "down")
        assert statuses == {"a-journal": PENDING, "b-leeds-again": PENDING, "c-leeds": APPROVED}
        await pilot.press("up", "enter")  # c-leeds again, to export from it
        await reviewed(pilot)
        await export_with_defaults(pilot)

    notes = play_noting(InspectorApp(database, named=CHAT_LOG), resume)
    assert not any("not applied" in note or "cannot be applied" in note for note in notes)
    by_thread = {thread: body for _, thread, speaker, body in bodies(tmp_path / "app.fixed.db") if speaker == "ai"}
    assert by_thread == {"a-journal": JOURNAL[1][1], "c-leeds": FIXED_LEEDS, "b-leeds-again": LEEDS[1][1]}


def write_version_1_review(database: Path, decisions: list[tuple[int, str]]) -> Path:
    """The review file the previous version wrote beside the database: decisions by (place in the
    database, finding key)."""
    path = database.with_name(database.name + ".review.json")
    path.write_text(
        json.dumps(
            {
                "inspector_review": 1,
                "source": database.name,
                "unexported": True,
                "exports": [],
                "decisions": [
                    {
                        "session": place,
                        "finding": key,
                        "status": "approved",
                        "decided_at": "2026-11-21T09:00:00+00:00",
                        "edit": None,
                    }
                    for place, key in decisions
                ],
                "executions": [],
            },
            indent=1,
        )
    )
    return path


def test_a_review_file_of_the_previous_version_resumes_by_place_and_is_saved_by_id(tmp_path: Path):
    database = build_chat_log(tmp_path / "app.db", {"journal": JOURNAL, "leeds": LEEDS, "tempo": TEMPO})
    (leeds_key,) = finding_keys(scanned(database, "leeds").findings)
    earlier_file = write_version_1_review(database, [(1, leeds_key), (7, leeds_key)])
    review_file = review_path_for(database, CHAT_LOG.table_key)

    async def resume(pilot: Pilot) -> None:
        review = await reviewed(pilot)
        assert review.review.status(0, 0) == APPROVED  # place 2 is leeds, as the previous version read it
        await pilot.press("s")  # a new decision saves the file in the new form

    notes = play_noting(InspectorApp(database, session="leeds", named=CHAT_LOG), resume)
    assert notes == [
        f"{review_file.name} was saved by an earlier version, which kept decisions by the conversations' "
        "places: they are read by today's places (check them if conversations were added or removed "
        "since) and kept by id from the next decision",
        "1 decision on conversation number 8 of an earlier version's list, no longer in app.db, "
        f"cannot be applied (kept in {review_file.name})",
    ]
    assert json.loads(earlier_file.read_text())["inspector_review"] == 1  # the earlier file is left as it was
    saved = json.loads(review_file.read_text())
    assert saved["inspector_review"] == 3
    assert not Review.open(
        CHAT_LOG.open(database), [scanned(database, "leeds")], conversations=["journal", "leeds"]
    ).read_by_place
    assert [(entry.get("conversation"), entry.get("session"), entry["status"]) for entry in saved["decisions"]] == [
        ("leeds", None, "skipped"),
        (None, 7, "approved"),
    ]


def test_decisions_on_a_conversation_gone_from_the_database_are_reported_and_not_applied(tmp_path: Path):
    database = build_chat_log(tmp_path / "app.db", {"journal": JOURNAL, "leeds": LEEDS})
    for conversation in ("journal", "leeds"):
        play(InspectorApp(database, session=conversation, named=CHAT_LOG), approve)
    with sqlite3.connect(database) as conn:
        conn.execute("DELETE FROM chat_log WHERE thread = 'leeds'")
    conn.close()

    async def export_journal(pilot: Pilot) -> None:
        review = await reviewed(pilot)
        assert review.review.status(0, 0) == APPROVED
        await export_with_defaults(pilot)

    notes = play_noting(InspectorApp(database, session="journal", named=CHAT_LOG), export_journal)
    review_file = review_path_for(database, CHAT_LOG.table_key)
    gone = f"on conversation 'leeds', no longer in app.db, cannot be applied (kept in {review_file.name})"
    assert notes[0] == f"1 decision {gone}"
    assert notes[1].startswith(f"Wrote {tmp_path / 'app.fixed.db'}\n1 fix applied")
    assert notes[2] == f"Approved fixes {gone}"
    assert [body for _, _, speaker, body in bodies(tmp_path / "app.fixed.db") if speaker == "ai"] == [FIXED_JOURNAL]
    saved = json.loads(review_file.read_text())
    assert sorted(entry["conversation"] for entry in saved["decisions"]) == ["journal", "leeds"]  # nothing lost


def test_a_decision_whose_finding_changed_is_reported_and_not_applied(tmp_path: Path):
    database = build_chat_log(tmp_path / "app.db", {"journal": JOURNAL})
    review = Review.open(CHAT_LOG.open(database), [scanned(database, "journal")])
    review.approve(0, 0)
    with sqlite3.connect(database) as conn:  # the reply was rewritten since: its fake result is longer
        conn.execute(
            'UPDATE chat_log SET body = \'{success: true, memory_type: "journal", content: '
            "\"Feels very scattered.\"}' || ? WHERE speaker = 'ai'",
            (FIXED_JOURNAL,),
        )
    conn.close()

    async def look(pilot: Pilot) -> None:
        review = await reviewed(pilot)
        assert review.review.status(0, 0) == PENDING

    notes = play_noting(InspectorApp(database, session="journal", named=CHAT_LOG), look)
    review_file = review_path_for(database, CHAT_LOG.table_key)
    assert notes == [
        f"1 decision in {review_file.name} matches no finding of this conversation now (it changed "
        "since): kept in the file, not applied"
    ]


def test_a_session_files_decisions_stay_keyed_by_place(tmp_path: Path, write_session):
    path = write_session([{"role": "user", "content": "Journal it."}, {"role": "assistant", "content": JOURNAL[1][1]}])
    results = list(iter_scan(open_source(path)))
    Review.open(open_source(path), results).approve(0, 0)
    saved = json.loads(review_path_for(path).read_text())
    assert [(entry["session"], entry["status"]) for entry in saved["decisions"]] == [(0, "approved")]
    resumed = Review.open(open_source(path), list(iter_scan(open_source(path))))
    assert resumed.status(0, 0) == APPROVED and resumed.unmatched() == 0
    path.write_text(path.read_text().replace("Feels scattered", "Feels very scattered"))  # its span grows
    changed = Review.open(open_source(path), list(iter_scan(open_source(path))))
    assert changed.status(0, 0) == PENDING and changed.unmatched() == 1


def test_undo_of_a_step_on_a_conversation_that_changed_before_it_was_opened_shows_nothing(tmp_path: Path):
    """A step approved a conversation not read into the review; the conversation changed before the
    review opened it, so the step's finding is no longer among its findings: the undo shows no
    finding for it, and still gives the decision back."""
    database = build_chat_log(tmp_path / "app.db", {"journal": JOURNAL, "leeds": LEEDS})
    review = Review.open(CHAT_LOG.open(database), [scanned(database, "journal")])
    elsewhere = review.decidable_elsewhere(scanned(database, "leeds"), "result-prefix", APPROVED)
    assert review.decide_all("result-prefix", APPROVED, [], elsewhere) == (1, 1)
    with sqlite3.connect(database) as conn:  # the reply was rewritten since: its finding is another
        conn.execute("UPDATE chat_log SET body = '{\"ok\": true, \"added\": 1}' || body WHERE thread = 'leeds'")
    conn.close()
    review.include(scanned(database, "leeds"))

    assert review.undo_target() is None
    assert review.undo() == "undid approve all 1 pending result-prefix"
    saved = json.loads(review_path_for(database, CHAT_LOG.table_key).read_text())
    assert saved["decisions"] == []
