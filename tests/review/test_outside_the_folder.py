"""Reviewing writes nothing beside the reviewed file: the review is kept in the person's state
folder, and an export of a bundled sample, or of a session a tool keeps in its own folder, goes
to the current folder by default (the tool would list a file written there as one of its own)."""

import json
import shutil
from pathlib import Path

from inspector.review.review import Review
from inspector.review.review_file import review_path_for
from inspector.scan.scanner import scan_file
from inspector.sources import open_source
from inspector.sources.discovery import SAMPLES
from inspector.support.state_folder import inspector_state_folder
from tests.helpers.samples import TOOL_SAMPLES


def _review(path: Path) -> Review:
    return Review.open(open_source(path), scan_file(path))


def test_the_review_of_a_bundled_sample_is_kept_in_the_state_folder_and_its_export_goes_here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    before = sorted(path.name for path in SAMPLES.iterdir())
    review = _review(SAMPLES / "memory-agent.openai.json")
    review.approve(0, 0)
    assert review.review_path == review_path_for(SAMPLES / "memory-agent.openai.json")
    assert review.review_path.parent == inspector_state_folder() / "reviews" and review.review_path.exists()
    assert review.default_export_path() == tmp_path / "memory-agent.fixed.openai.json"
    outcome = review.export()
    assert outcome.out.parent == tmp_path and outcome.audit.parent == tmp_path
    assert sorted(path.name for path in SAMPLES.iterdir()) == before  # nothing written into sessions/
    assert json.loads(review.review_path.read_text())["exports"][0]["out"] == str(outcome.out)


def test_a_session_in_a_tools_own_folder_is_exported_to_the_current_folder(tmp_path, monkeypatch):
    folder = Path.home() / ".claude" / "projects" / "-work-proj"  # the test's own empty home
    folder.mkdir(parents=True)
    session = Path(shutil.copy(TOOL_SAMPLES / "claude-code.jsonl", folder / "75be298c.jsonl"))
    monkeypatch.chdir(tmp_path)
    review = _review(session)
    review.approve(0, 0)
    assert review.default_export_path() == tmp_path / "75be298c.fixed.jsonl"
    assert sorted(path.name for path in folder.iterdir()) == ["75be298c.jsonl"]


def test_a_file_elsewhere_is_exported_beside_itself_and_reviews_of_two_files_of_one_name_differ(tmp_path):
    first, second = tmp_path / "a" / "s.json", tmp_path / "b" / "s.json"
    for path in (first, second):
        path.parent.mkdir()
        shutil.copy(SAMPLES / "memory-agent.openai.json", path)
    assert _review(first).default_export_path() == tmp_path / "a" / "s.fixed.json"
    assert review_path_for(first) != review_path_for(second)
    assert review_path_for(first).name.startswith("s.json.")
