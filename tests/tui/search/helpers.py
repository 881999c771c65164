"""Driving the search screen of every session as a person does: opening it from the list of
sessions (ctrl+f), typing words, choosing a facet from the keyboard, and reading what it shows."""

from __future__ import annotations

from textual.pilot import Pilot
from textual.widgets import Static

from inspector.search import SearchFilter
from inspector.tui.search.facet_list import FacetList
from inspector.tui.search.hit_list import HitList
from inspector.tui.search.screen import SearchScreen
from tests.helpers.pilot import press, until


async def open_search(pilot: Pilot) -> SearchScreen:
    """Press ctrl+f on the list of sessions; the search screen, once its index is up to date
    and its first answer (no words: the turns with findings) is shown."""
    await press(pilot, "ctrl+f")
    screen = pilot.app.screen
    assert isinstance(screen, SearchScreen)
    await until(pilot, lambda: screen.answer is not None, "the search screen's first answer")
    return screen


async def type_words(pilot: Pilot, screen: SearchScreen, words: str) -> None:
    """Type `words` in the (empty) query box, key by key, and wait for their answer."""
    await pilot.press(*words)
    await answered(pilot, screen, words)


async def answered(pilot: Pilot, screen: SearchScreen, words: str, chosen: SearchFilter | None = None) -> None:
    """Wait until the answer shown is that of `words` with the facets `chosen` (any, when None)."""

    def shown() -> bool:
        answer = screen.answer
        return answer is not None and answer.typed == words and (chosen is None or answer.chosen == chosen)

    await until(pilot, shown, f"the answer to {words!r}")
    await pilot.pause()


async def choose_facet(pilot: Pilot, screen: SearchScreen, facet: str, value: str) -> None:
    """Move to the facets with Tab, down to `value` of `facet`, and press Enter on it."""
    facets = screen.query_one(FacetList)
    for _ in range(3):
        if facets.has_focus:
            break
        await press(pilot, "tab")
    assert facets.has_focus
    for _ in range(facets.option_count + 1):
        at = facets.value_at(facets.highlighted) if facets.highlighted is not None else None
        if at is not None and (at.facet, at.value) == (facet, value):
            break
        await press(pilot, "down")
    else:
        raise AssertionError(f"{facet} {value} is not among the facets")
    await press(pilot, "enter")


def shown_hits(screen: SearchScreen) -> list[str]:
    """Each hit's lines as the screen shows them (plain text)."""
    hits = screen.query_one(HitList)
    return [str(hits.get_option_at_index(index).prompt) for index in range(hits.option_count)]


def shown_counts(screen: SearchScreen) -> dict[str, dict[str, int]]:
    """The counts the facets list shows under each heading ("findings by kind"), by value."""
    facets = screen.query_one(FacetList)
    counts: dict[str, dict[str, int]] = {}
    facet = ""
    for index in range(facets.option_count):
        text = str(facets.get_option_at_index(index).prompt)
        if text.startswith("findings by "):
            facet = text.removeprefix("findings by ")
            counts[facet] = {}
            continue
        count, _, value = text[2:].lstrip().partition("  ")
        counts[facet][value] = int(count.replace(",", ""))
    return counts


def chosen_values(screen: SearchScreen) -> list[str]:
    """The facet values shown as chosen (marked ✓)."""
    facets = screen.query_one(FacetList)
    prompts = (str(facets.get_option_at_index(index).prompt) for index in range(facets.option_count))
    return [prompt[2:].lstrip().partition("  ")[2] for prompt in prompts if prompt.startswith("✓")]


def line(screen: SearchScreen, name: str) -> str:
    """The text of the status line `name` ('index' or 'answer')."""
    return str(screen.query_one(f"#{name}", Static).visual)
