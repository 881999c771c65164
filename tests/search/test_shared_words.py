"""The instructions an agent repeats in each of its sessions are indexed once: every session
holding them is found by their words, and they stay indexed while one such session remains."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from inspector.search import index_path
from tests.helpers.home_sessions import EVERY_AGENT
from tests.search.helpers import searched_json

INSTRUCTIONS_WORD = "skills_instructions"  # the Codex sample's instructions, sent in each session


@pytest.fixture
def two_codex_sessions(empty_home: Path) -> list[Path]:
    """The Codex sample twice where Codex keeps its sessions, its user's words changed in the second."""
    sample, where, _ = EVERY_AGENT["Codex"]
    first = empty_home / where
    second = first.with_name(f"{first.stem[:-8]}0000beef{first.suffix}")
    first.parent.mkdir(parents=True)
    first.write_text(sample.read_text(encoding="utf-8"), encoding="utf-8")
    second.write_text(sample.read_text(encoding="utf-8").replace("notes", "jottings"), encoding="utf-8")
    return [first, second]


def rows_holding(word: str) -> int:
    """The rows of words in the index that hold `word`."""
    with sqlite3.connect(index_path()) as connection:
        count: int = connection.execute("SELECT count(*) FROM turn_text WHERE turn_text MATCH ?", (word,)).fetchone()[0]
    return count


def found_in(document: dict[str, object]) -> set[str]:
    hits = document["hits"]
    assert isinstance(hits, list)
    return {hit["path"] for hit in hits}


def test_instructions_repeated_in_each_session_are_indexed_once_and_found_in_each(two_codex_sessions, capsys):
    first, second = two_codex_sessions
    assert found_in(searched_json(capsys, INSTRUCTIONS_WORD)) == {str(first), str(second)}
    assert found_in(searched_json(capsys, "jottings")) == {str(second)}  # what differs stays apart
    assert rows_holding(INSTRUCTIONS_WORD) == 1

    first.unlink()  # one session gone: the other still finds the words they shared
    assert found_in(searched_json(capsys, INSTRUCTIONS_WORD)) == {str(second)}
    assert rows_holding(INSTRUCTIONS_WORD) == 1

    second.write_text("", encoding="utf-8")  # the last one emptied: the shared words leave the index
    assert found_in(searched_json(capsys, INSTRUCTIONS_WORD)) == set()
    assert rows_holding(INSTRUCTIONS_WORD) == 0
