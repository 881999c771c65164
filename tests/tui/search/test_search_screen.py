"""The search screen of every session, opened from the list of the person's own sessions
(ctrl+f) on a home folder holding every agent's real sample: the hits of the words typed (those
`inspector search` finds), the facets' counts (those `inspector search --facets` gives) and
narrowing by one from the keyboard, Enter opening a hit's session on its turn and Esc coming back
to the search as it was, then to the list."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot

from inspector.cli.main import main
from inspector.search import SearchFilter
from inspector.tui.picker.found import FoundPicker
from inspector.tui.review.screen import ReviewScreen
from inspector.tui.search.hit_list import HitList
from inspector.tui.search.hit_text import MATCHED
from tests.helpers.app import selected
from tests.helpers.home_sessions import every_agent_s_session
from tests.helpers.pilot import play, press, until
from tests.search.helpers import searched_json
from tests.tui.search.helpers import (
    answered,
    choose_facet,
    chosen_values,
    line,
    open_search,
    shown_counts,
    shown_hits,
    type_words,
)

pytestmark = pytest.mark.slow  # drives the app with Pilot

GEMINI_ID = "b680cadb-f2e8-4427-a8c6-6cfd1f65ee1c"


@pytest.fixture
def placed(empty_home: Path) -> dict[str, Path]:
    """Every agent's sample where that agent keeps it, by agent."""
    return every_agent_s_session(empty_home)


def run_app(opened: list, scenario) -> None:
    """Play `scenario` on the app `inspector` (no path) opened: the list of the person's sessions,
    scanned."""
    assert main([]) == 0
    [app] = opened
    play(app, scenario, size=(140, 40), settled=True)


def places(document: dict) -> list[tuple[str, int, str]]:
    return [(hit["path"], hit["turn"], hit["role"]) for hit in document["hits"]]


def test_typed_words_list_the_turns_inspector_search_finds(placed, opened, capsys):
    expected = searched_json(capsys, "Thursday", "--limit", "100")
    assert expected["hits"]

    async def scenario(pilot: Pilot) -> None:
        screen = await open_search(pilot)
        assert f"{len(placed)} session files indexed" in line(screen, "index")
        assert screen.query_one("#query").has_focus
        await type_words(pilot, screen, "Thursday")
        assert [(hit.path, hit.turn, hit.role) for hit in screen.query_one(HitList).hits] == places(expected)
        assert line(screen, "answer").startswith(f"{len(expected['hits'])} turns · ")
        gemini = [text for text in shown_hits(screen) if text.startswith("Gemini CLI · gm-work · ")]
        assert any(" · turn 15 assistant\n" in text and "moved to Thursday" in text for text in gemini)
        first = screen.query_one(HitList).get_option_at_index(0).prompt
        matched = [first.plain[span.start : span.end] for span in first.spans if span.style == MATCHED]
        assert matched and set(matched) == {"Thursday"}

    run_app(opened, scenario)


def test_a_facet_narrows_the_hits_and_the_counts_from_the_keyboard(placed, opened, capsys):
    no_words = searched_json(capsys, "", "--facets")
    every = searched_json(capsys, "notes", "--facets", "--limit", "100")
    narrowed = searched_json(capsys, "notes", "--facets", "--kind", "malformed-arguments", "--limit", "100")
    both = searched_json(capsys, "notes", "--facets", "--kind", "malformed-arguments", "--agent", "codex")
    assert narrowed["hits"] and len(narrowed["hits"]) < len(every["hits"])

    async def scenario(pilot: Pilot) -> None:
        screen = await open_search(pilot)
        assert shown_counts(screen) == {facet: counts for facet, counts in no_words["facets"].items() if counts}
        await type_words(pilot, screen, "notes")
        assert shown_counts(screen) == {facet: counts for facet, counts in every["facets"].items() if counts}
        assert len(shown_hits(screen)) == len(every["hits"])

        await choose_facet(pilot, screen, "kind", "malformed-arguments")
        await answered(pilot, screen, "notes", SearchFilter(kind="malformed-arguments"))
        assert shown_counts(screen) == {facet: counts for facet, counts in narrowed["facets"].items() if counts}
        hits = screen.query_one(HitList).hits
        assert [(hit.path, hit.turn, hit.role) for hit in hits] == places(narrowed)
        assert all("malformed-arguments" in text.split("\n")[0] for text in shown_hits(screen))
        assert chosen_values(screen) == ["malformed-arguments"]
        assert "kind malformed-arguments" in line(screen, "answer")

        await choose_facet(pilot, screen, "agent", "Codex")  # a second facet narrows further
        await answered(pilot, screen, "notes", SearchFilter(kind="malformed-arguments", agent="Codex"))
        assert shown_counts(screen) == {facet: counts for facet, counts in both["facets"].items() if counts}
        assert {hit.agent for hit in screen.query_one(HitList).hits} == {"Codex"}

        await choose_facet(pilot, screen, "kind", "malformed-arguments")  # chosen again: cleared
        await answered(pilot, screen, "notes", SearchFilter(agent="Codex"))
        assert chosen_values(screen) == ["Codex"]

    run_app(opened, scenario)


def test_enter_opens_the_hit_s_session_on_its_turn_and_esc_comes_back_to_the_search(placed, opened):
    async def scenario(pilot: Pilot) -> None:
        picker = pilot.app.screen
        assert isinstance(picker, FoundPicker)
        screen = await open_search(pilot)
        await type_words(pilot, screen, '"the folder holds only"')
        hits = screen.query_one(HitList).hits
        assert [(hit.agent, hit.turn, hit.role) for hit in hits] == [("Gemini CLI", 15, "assistant")]
        await press(pilot, "enter")  # from the words to the hits
        assert screen.query_one(HitList).has_focus
        await press(pilot, "enter")
        review = pilot.app.screen
        assert isinstance(review, ReviewScreen) and review.path == placed["Gemini CLI"]
        await until(pilot, lambda: review.review is not None, "the review to be read")
        await pilot.pause()
        assert selected(pilot) == 15  # not its first flagged turn, where a review opens otherwise
        assert review.shown.flagged and review.shown.flagged[0] != 15
        assert review.session is not None and review.session.session_id == GEMINI_ID
        assert "the folder holds only notes.txt" in review.session.turn_at(15).text

        await press(pilot, "escape")
        assert pilot.app.screen is screen
        assert screen.query_one("#query").value == '"the folder holds only"'
        assert screen.query_one(HitList).hits == hits

        await press(pilot, "slash", "ctrl+u")  # back to the words, cleared
        await type_words(pilot, screen, "whiteboard")  # a conversation of llm's history
        hits = screen.query_one(HitList).hits
        place = next(number for number, hit in enumerate(hits) if hit.agent == "llm")
        await press(pilot, "down", *["down"] * place)  # to the hits, then down to llm's first
        hit = hits[place]
        assert screen.query_one(HitList).highlighted == place
        await press(pilot, "enter")
        review = pilot.app.screen
        assert isinstance(review, ReviewScreen) and review.conversation == hit.session_id
        await until(pilot, lambda: review.review is not None, "the conversation to be read")
        await pilot.pause()
        assert selected(pilot) == hit.turn

        await press(pilot, "escape")
        assert pilot.app.screen is screen
        await press(pilot, "escape")
        assert pilot.app.screen is picker

    run_app(opened, scenario)
