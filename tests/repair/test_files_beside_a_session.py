"""What an export over a session writes beside it (backup, audit, baseline) is never taken for a
session by its agent: agents list their sessions, and clean up the old ones, by names ending in
`.json` or `.jsonl` (Gemini CLI's retention cleanup deleted a `.baseline.json` beside a chat;
Claude Code's, an `.audit.jsonl`), so none of them ends so."""

import shutil

from inspector.review.review import Review
from inspector.review.review_error import ReviewError
from inspector.scan.scanner import scan_file
from inspector.sources import open_source
from tests.helpers.samples import TOOL_SAMPLES

CHAT = "session-2026-11-24T03-12-b680cadb.jsonl"  # named as Gemini CLI names a chat


def test_the_app_s_export_over_a_chat_leaves_beside_it_no_name_an_agent_lists(tmp_path):
    chats = tmp_path / ".gemini" / "tmp" / "project" / "chats"
    chats.mkdir(parents=True)
    chat = shutil.copy(TOOL_SAMPLES / "gemini-cli.session.jsonl", chats / CHAT)
    review = Review.open(open_source(chat), scan_file(chat))
    review.skip(0, 0)  # acknowledged: a baseline is written
    for index in range(1, len(review.findings(0))):
        try:
            review.approve(0, index)
        except ReviewError:  # (a finding with no automatic fix)
            review.skip(0, index)
    outcome = review.export(overwrite_input=True)
    assert outcome.applied >= 1 and outcome.baseline is not None
    beside = sorted(path.name for path in chats.iterdir() if path.name != CHAT)
    assert beside == [f"{CHAT}.audit.ndjson", f"{CHAT}.bak", f"{CHAT}.baseline.ndjson"]  # none ends in .json(l)
