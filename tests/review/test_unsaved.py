"""When decisions cannot be saved (the state folder cannot be written), the app keeps deciding in
memory, says so once with where they could go, and never crashes; an export still works."""

import shutil
from pathlib import Path

import pytest
from textual.pilot import Pilot

from inspector.review.review import Review
from inspector.scan.scanner import scan_file
from inspector.sources import open_source
from inspector.support.state_folder import inspector_state_folder
from tests.helpers.app import drive
from tests.helpers.pilot import press
from tests.helpers.samples import SESSIONS

pytestmark = pytest.mark.slow  # drives the app with Pilot


def _block_the_state_folder() -> None:
    """A file where the reviews folder belongs: no review can be saved (even as root)."""
    inspector_state_folder().mkdir(parents=True, exist_ok=True)
    (inspector_state_folder() / "reviews").write_text("not a folder")


def test_a_review_that_cannot_be_saved_keeps_its_decisions_and_says_why_once(tmp_path: Path):
    path = Path(shutil.copy(SESSIONS / "memory-agent.openai.json", tmp_path / "memory-agent.openai.json"))
    _block_the_state_folder()
    review = Review.open(open_source(path), scan_file(path))
    review.approve(0, 0)
    review.skip(0, 1)
    assert review.status(0, 0) == "approved" and review.status(0, 1) == "skipped"
    notice = review.unsaved_notice()
    assert notice is not None and "Decisions cannot be saved" in notice and "XDG_STATE_HOME" in notice
    assert review.unsaved_notice() is None  # said once
    assert review.export(tmp_path / "out.json").applied == 1


def test_the_app_says_once_that_decisions_cannot_be_saved_and_goes_on(tmp_path: Path):
    path = Path(shutil.copy(SESSIONS / "memory-agent.openai.json", tmp_path / "memory-agent.openai.json"))
    _block_the_state_folder()

    async def decide(pilot: Pilot, notes: list[str]) -> None:
        await press(pilot, "a", "a", "s")
        review = pilot.app.screen.review
        assert [review.status(0, index) for index in range(3)] == ["approved", "approved", "skipped"]
        assert sum("Decisions cannot be saved" in note for note in notes) == 1

    drive(path, decide)
