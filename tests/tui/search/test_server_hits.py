"""The search screen over a chat history kept on a PostgreSQL server: opened from the list of the
server's conversations (`inspector URL`, ctrl+f), it indexes the server's database with the
person's own sessions, and Enter on a hit opens its conversation on its turn; a server's hit in
the index that the app was not opened on says how to open it (its password is not kept)."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from inspector.cli.main import main
from inspector.model import ServerUrl
from inspector.tui.review.screen import ReviewScreen
from inspector.tui.search.hit_list import HitList
from inspector.tui.search.opening import SERVER_NOT_GIVEN
from tests.helpers.pilot import play, press, until
from tests.helpers.postgres_histories import build_rubyllm_postgres
from tests.search.helpers import searched_json
from tests.tui.search.helpers import open_search, type_words

pytestmark = pytest.mark.slow  # drives the app with Pilot

PASSWORD = "s3cret-pw"


def test_a_server_s_hit_opens_its_conversation_on_its_turn(postgres_db: str, opened, capsys):
    url = build_rubyllm_postgres(postgres_db).replace("postgres@", f"postgres:{PASSWORD}@")
    assert main([url]) == 0

    async def scenario(pilot: Pilot) -> None:
        screen = await open_search(pilot)
        await type_words(pilot, screen, "whiteboard")
        hits = screen.query_one(HitList).hits
        assert hits and {hit.path for hit in hits} == {str(ServerUrl(url))}
        assert all(PASSWORD not in hit.path for hit in hits)
        await press(pilot, "enter", "enter")  # to the hits, then open the first
        review = pilot.app.screen
        assert isinstance(review, ReviewScreen) and review.path == ServerUrl(url)
        assert review.conversation == hits[0].session_id
        await until(pilot, lambda: review.review is not None, "the conversation to be read")

    play(opened[0], scenario, size=(140, 40), settled=True)

    assert searched_json(capsys, "whiteboard")["hits"]  # it stays in the index, given or not
    assert main([]) == 0  # the person's own sessions (none): the server's hits are still found

    async def not_given(pilot: Pilot) -> None:
        screen = await open_search(pilot)
        await type_words(pilot, screen, "whiteboard")
        assert screen.query_one(HitList).hits
        await press(pilot, "enter", "enter")
        assert pilot.app.screen is screen
        assert [note.message for note in pilot.app._notifications][-1] == SERVER_NOT_GIVEN

    play(opened[1], not_given, size=(140, 40), settled=True, notifications=True)
