"""Two tables of one database, each read with `--table T --map ...`, keep their reviews apart:
a decision on a conversation of one never shows on the conversation of the same id in the
other, in the picker or the review. A database read without `--table` keeps the review file
name earlier versions gave it, so saved reviews still load."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable

from inspector.review.review_file import APPROVED, PENDING, review_path_for
from inspector.sources.location import location
from inspector.sources.postgres.history import PostgresHistory
from inspector.sources.schemas.table import parse_map
from inspector.support.state_folder import inspector_state_folder
from inspector.tui.app import InspectorApp
from inspector.tui.conversations import ReadOptions
from tests.helpers.app import approve, reviewed
from tests.helpers.chat_log import CHAT_LOG, JOURNAL, MAP, build_chat_log
from tests.helpers.pilot import play, rows, until

pytestmark = pytest.mark.slow  # drives the app with Pilot

ARCHIVE = ReadOptions("chat_archive", parse_map(MAP))


def with_archive(path: Path) -> Path:
    """The `chat_log` database at `path` with a second table, `chat_archive`, holding the same
    conversations under the same thread ids (an app that moves old chats aside)."""
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE chat_archive AS SELECT * FROM chat_log")
    conn.close()
    return path


def statuses(app: InspectorApp) -> list[list[str]]:
    """The picker's (conversation, status) rows once every conversation is scanned."""
    shown: list[list[str]] = []

    async def scenario(pilot: Pilot) -> None:
        picker = pilot.app.screen
        await until(pilot, picker.scanned.is_set, "the picker to scan every conversation")
        await pilot.pause()
        shown.extend([row[1], row[5]] for row in rows(picker.query_one(DataTable)))

    play(app, scenario)
    return shown


def test_a_decision_on_one_tables_conversation_stays_off_the_other_tables(tmp_path: Path):
    database = with_archive(build_chat_log(tmp_path / "app.db", {"journal": JOURNAL}))
    play(InspectorApp(database, session="journal", named=CHAT_LOG), approve)

    seen = {}

    async def look(pilot: Pilot) -> None:
        review = await reviewed(pilot)
        seen["status"] = review.review.status(0, 0)

    play(InspectorApp(database, session="journal", named=ARCHIVE), look)
    assert seen["status"] == PENDING
    assert statuses(InspectorApp(database, named=ARCHIVE)) == [["journal", "pending"]]
    assert statuses(InspectorApp(database, named=CHAT_LOG)) == [["journal", "decided"]]
    play(InspectorApp(database, session="journal", named=CHAT_LOG), look)
    assert seen["status"] == APPROVED
    assert review_path_for(database, CHAT_LOG.table_key) != review_path_for(database, ARCHIVE.table_key)


def test_the_same_table_read_with_other_columns_is_reviewed_apart_but_the_maps_order_does_not_matter(tmp_path: Path):
    database = build_chat_log(tmp_path / "app.db", {"journal": JOURNAL})
    reordered = ReadOptions("chat_log", parse_map(",".join(reversed(MAP.split(",")))))
    whole_table = ReadOptions("chat_log", parse_map("role=speaker,content=body"))
    assert review_path_for(database, reordered.table_key) == review_path_for(database, CHAT_LOG.table_key)
    assert review_path_for(database, whole_table.table_key) != review_path_for(database, CHAT_LOG.table_key)
    assert CHAT_LOG.open(database).table_key == CHAT_LOG.table_key  # the review and the picker agree


def test_a_database_read_without_table_keeps_the_review_file_name_of_earlier_versions(tmp_path: Path):
    database = build_chat_log(tmp_path / "app.db", {"journal": JOURNAL})
    earlier_name = f"app.db.{hashlib.sha256(str(database.resolve()).encode()).hexdigest()[:12]}.review.json"
    assert review_path_for(database) == inspector_state_folder() / "reviews" / earlier_name
    assert ReadOptions().table_key is None


def test_a_server_databases_tables_are_reviewed_apart_without_connecting():
    url = location("postgresql://someone@127.0.0.1:1/app")
    notes = PostgresHistory(url, table_name="notes", mapping={"role": "who", "content": "body"})
    archive = PostgresHistory(url, table_name="notes_archive", mapping={"role": "who", "content": "body"})
    assert PostgresHistory(url).table_key is None
    assert review_path_for(url, notes.table_key) != review_path_for(url, archive.table_key)
    assert notes.table_key == ReadOptions("notes", {"content": "body", "role": "who"}).table_key
    assert review_path_for(url, None) == review_path_for(url)
