"""Decisions are kept by message, not by position: a session written again with a message inserted
at the start and one deleted in the middle keeps every decision on its own finding (OpenAI JSON,
Claude Code JSON Lines); a decision whose message is gone is kept in the review file and counted;
a review file of the previous version (positional keys) still resumes and is migrated."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from textual.pilot import Pilot

from inspector.model import ToolCall, ToolResult, Turn
from inspector.review.anchors import content_digest
from inspector.review.edits import Edit, proposal
from inspector.review.review import Review
from inspector.review.review_file import APPROVED, EDITED, PENDING, SKIPPED, finding_keys, review_path_for
from inspector.scan.scanner import scan_file
from inspector.sources import open_source
from tests.helpers.app import drive
from tests.helpers.pilot import press
from tests.helpers.samples import SESSIONS
from tests.helpers.timing import cpu_time

# The decision taken on each finding, in the order of the findings.
DECIDE = (APPROVED, SKIPPED, EDITED, SKIPPED, APPROVED, SKIPPED)


def open_review(path: Path) -> Review:
    return Review.open(open_source(path), scan_file(path))


def what(review: Review) -> list[tuple[str, str, str]]:
    """Each finding as the person sees it (its kind, its turn's text, its tool) with its decision."""
    session = review.results[0].session
    return [
        (
            finding.kind,
            session.turn_at(finding.turn).text + str(session.turn_at(finding.turn).tool_calls),
            review.status(0, index),
        )
        for index, finding in enumerate(review.findings(0))
    ]


def decide_each(review: Review) -> None:
    for index, status in enumerate(DECIDE[: len(review.findings(0))]):
        if status == APPROVED and review.can_approve(0, index):
            review.approve(0, index)
        elif status == EDITED:
            finding = review.findings(0)[index]
            start = proposal(finding, review.results[0].session.turn_at(finding.turn))
            review.edit(0, index, Edit("edited by hand", start.calls))
        else:
            review.skip(0, index)


def test_an_openai_session_redumped_with_a_message_inserted_and_one_deleted_keeps_every_decision(tmp_path: Path):
    path = Path(shutil.copy(SESSIONS / "memory-agent.openai.json", tmp_path / "memory-agent.openai.json"))
    review = open_review(path)
    decide_each(review)
    before = what(review)
    assert [status for *_, status in before] == list(DECIDE)
    document = json.loads(path.read_text())
    del document["messages"][13]  # the question turn 14's two findings answer
    document["messages"].insert(0, {"role": "user", "content": "(restored from the phone backup)"})
    path.write_text(json.dumps(document, indent=2))

    resumed = open_review(path)
    assert [finding.turn for finding in resumed.findings(0)] == [7, 9, 14, 14, 20, 32]
    assert what(resumed) == before
    assert resumed.unmatched() == 0
    finding = resumed.findings(0)[2]
    assert resumed.decided_fix(0, 2).text == "edited by hand" and finding.turn == 14


def test_a_claude_code_session_redumped_with_an_event_inserted_and_one_deleted_keeps_every_decision(tmp_path: Path):
    path = Path(shutil.copy(SESSIONS / "notes-agent.claude-code.jsonl", tmp_path / "notes-agent.claude-code.jsonl"))
    review = open_review(path)
    decide_each(review)
    before = what(review)
    assert [status for *_, status in before] == list(DECIDE)
    lines = path.read_text().splitlines()
    assert json.loads(lines[12])["message"]["content"].startswith("That was only text")
    inserted = json.loads(lines[2])
    inserted.update(
        uuid="00000000-0000-4000-8000-000000000001",
        message={"role": "user", "content": "Before anything: I use tabs, not spaces."},
    )
    path.write_text("\n".join([json.dumps(inserted)] + lines[:12] + lines[13:]) + "\n")

    resumed = open_review(path)
    assert [finding.turn for finding in resumed.findings(0)] == [6, 10, 13, 15, 16, 17]
    assert what(resumed) == before
    assert resumed.unmatched() == 0


def test_identical_replies_keep_their_own_decisions_after_an_insert(tmp_path: Path, write_session):
    reply = '{success: true, memory_type: "journal", content: "Long day."} Saved it.'
    path = write_session(
        [
            {"role": "user", "content": "Journal: long day."},
            {"role": "assistant", "content": reply},
            {"role": "user", "content": "Journal: long day."},
            {"role": "assistant", "content": reply},
        ]
    )
    review = open_review(path)
    review.skip(0, 0)
    review.approve(0, 1)
    document = json.loads(path.read_text())
    document["messages"].insert(0, {"role": "system", "content": "You keep a journal."})
    path.write_text(json.dumps(document))
    resumed = open_review(path)
    assert [resumed.status(0, 0), resumed.status(0, 1)] == [SKIPPED, APPROVED]


def test_a_decision_whose_message_is_gone_is_kept_in_the_file_and_counted(tmp_path: Path):
    path = Path(shutil.copy(SESSIONS / "memory-agent.openai.json", tmp_path / "memory-agent.openai.json"))
    review = open_review(path)
    decide_each(review)
    document = json.loads(path.read_text())
    assert document["messages"][20]["content"].startswith('{success: true, type: "board_updated"')
    del document["messages"][20]  # the fifth finding's message (approved)
    path.write_text(json.dumps(document, indent=2))
    review_file = review_path_for(path)

    async def look(pilot: Pilot, notes: list[str]) -> None:
        review = pilot.app.screen.review
        assert [review.status(0, index) for index in range(5)] == [APPROVED, SKIPPED, EDITED, SKIPPED, SKIPPED]
        assert notes == [
            f"1 decision in {review_file.name} matches no finding of {path.name} now (it changed "
            "since): kept in the file, not applied"
        ]
        await press(pilot, "u")  # nothing to undo; then decide again, which saves the file
        await press(pilot, "a")

    drive(path, look)
    saved = json.loads(review_file.read_text())
    assert len(saved["decisions"]) == 6  # the decision on the deleted message is still there
    assert open_review(path).unmatched() == 1


def write_version_2_review(path: Path, statuses: dict[int, str]) -> Path:
    """The review file the previous version wrote: decisions by (session place, positional key)."""
    keys = finding_keys(scan_file(path)[0].findings)
    review_file = review_path_for(path)
    review_file.parent.mkdir(parents=True, exist_ok=True)
    review_file.write_text(
        json.dumps(
            {
                "inspector_review": 2,
                "source": str(path),
                "unexported": True,
                "exports": [],
                "decisions": [
                    {
                        "session": 0,
                        "finding": keys[index],
                        "status": status,
                        "decided_at": "2026-11-21T09:00:00+00:00",
                        "edit": None,
                    }
                    for index, status in statuses.items()
                ],
                "executions": [],
            },
            indent=1,
        )
    )
    return review_file


def test_a_review_file_of_the_previous_version_resumes_and_is_migrated(tmp_path: Path):
    path = Path(shutil.copy(SESSIONS / "memory-agent.openai.json", tmp_path / "memory-agent.openai.json"))
    review_file = write_version_2_review(path, {0: APPROVED, 3: SKIPPED})
    review = open_review(path)
    assert [review.status(0, index) for index in range(6)] == [APPROVED, PENDING, PENDING, SKIPPED, PENDING, PENDING]
    assert review.unmatched() == 0
    review.approve(0, 5)  # saved in the new form: each decision with its message
    saved = json.loads(review_file.read_text())
    assert saved["inspector_review"] == 3 and all("message" in entry for entry in saved["decisions"])
    document = json.loads(path.read_text())
    document["messages"].insert(0, {"role": "user", "content": "(restored from the phone backup)"})
    path.write_text(json.dumps(document, indent=2))
    resumed = open_review(path)
    assert [resumed.status(0, index) for index in range(6)] == [APPROVED, PENDING, PENDING, SKIPPED, PENDING, APPROVED]


def test_many_identical_flagged_replies_with_a_neighbour_changed_resume_fast_each_on_its_own(
    tmp_path: Path, write_session
):
    reply = '{success: true, memory_type: "journal", content: "Same again."} Saved it.'
    messages = []
    for number in range(5000):  # a reply repeated in a loop: a hostile size for matching identical messages
        messages += [{"role": "user", "content": f"Journal entry {number}"}, {"role": "assistant", "content": reply}]
    path = write_session(messages)
    review = open_review(path)
    assert review.approve_all(0, "result-prefix") == 5000
    review.skip(0, 2500)
    for message in messages[::4]:
        message["content"] += " (edited)"  # every reply's question or the next one changed
    path.write_text(json.dumps({"messages": messages}))
    results = scan_file(path)
    started = cpu_time()
    resumed = Review.open(open_source(path), results)
    elapsed = cpu_time() - started
    assert (resumed.counts(0).approved, resumed.status(0, 2500)) == (4999, SKIPPED)
    assert elapsed < 1.5, elapsed  # weighing every identical reply for each would take ~3 s


def test_a_message_s_hash_is_the_one_earlier_versions_saved():
    """The hash naming a message in the review file stays what earlier versions wrote (a review
    saved before an upgrade resumes on its findings): its text with non-ASCII characters, a call's
    arguments as stored, a result's object holding a lone surrogate and NaN."""
    reply = Turn(
        3,
        "assistant",
        "Saved it to your journal — café",
        "msg_1",
        (ToolCall("call_1", "save_memory", '{"content": "x"}', {"content": "x"}),),
    )
    answer = Turn(
        4,
        "tool",
        "",
        None,
        (),
        (ToolResult("call_1", "save_memory", {"ok": True, "note": "é\ud800", "n": float("nan")}),),
    )
    assert (content_digest(reply), content_digest(answer)) == ("92675aedb1fb4359", "2e799a8abb95523f")
