"""The light theme's text reads at 4.5:1 or more (WCAG AA) against the backgrounds it is drawn
on: each text colour of the theme as the app registers it, and every character of the review
screen as drawn in it (headings, the JSON of call arguments, the status bar's counts, the
footer's keys). The contrast is WCAG's: (L1 + 0.05) / (L2 + 0.05) of the relative luminances."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from rich.color import Color as RichColor
from textual.color import Color

from inspector.tui.app import InspectorApp

pytestmark = pytest.mark.slow  # drives the app with Pilot

AA = 4.5
LIGHT = "textual-light"
TEXT_COLOURS = (
    "text",
    "text-muted",
    "text-primary",
    "text-secondary",
    "text-accent",
    "text-success",
    "text-warning",
    "text-error",
    "footer-key-foreground",
)
BACKGROUNDS = ("background", "surface", "panel")
LINES = "\u2500\u259f"  # box drawing and block elements: borders and scroll bars, not text


def luminance(red: int, green: int, blue: int) -> float:
    """WCAG 2's relative luminance of an sRGB colour."""

    def linear(channel: int) -> float:
        value = channel / 255
        return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4

    return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)


def contrast(one: tuple[int, int, int], other: tuple[int, int, int]) -> float:
    lighter, darker = sorted((luminance(*one), luminance(*other)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def test_the_contrast_formula_gives_wcag_s_known_ratios():
    assert contrast((0, 0, 0), (255, 255, 255)) == pytest.approx(21)
    assert contrast((0x76, 0x76, 0x76), (255, 255, 255)) == pytest.approx(4.54, abs=0.01)  # the AA grey on white
    assert contrast((0xA8, 0x6D, 0x1C), (0xE0, 0xE0, 0xE0)) == pytest.approx(3.27, abs=0.01)  # the old heading


def drawn(value: str, background: Color) -> tuple[int, int, int]:
    """The colour a theme value ('#7F4600', 'auto 87%', '#0178D4 80%') is drawn in on `background`:
    'auto' is the text colour Textual picks for it, a percentage its opacity over it."""
    name, _, percent = value.partition(" ")
    alpha = float(percent.rstrip("%")) / 100 if percent else 1.0
    colour = background.get_contrast_text(alpha) if name == "auto" else Color.parse(name).multiply_alpha(alpha)
    return (background + colour).rgb


def light_variables(path: Path) -> dict[str, str]:
    """The CSS variables of the light theme as the app registers it."""
    app = InspectorApp(path)

    async def run() -> dict[str, str]:
        async with app.run_test(size=(120, 40)) as pilot:
            app.theme = LIGHT
            await pilot.pause()
            return dict(app.theme_variables)

    return asyncio.run(run())


def test_each_text_colour_of_the_light_theme_reads_at_4_5_to_1_on_each_background(write_session):
    variables = light_variables(write_session([{"role": "user", "content": "Hello."}]))
    ratios = {
        (text, background): contrast(
            drawn(variables[text], Color.parse(variables[background])), Color.parse(variables[background]).rgb
        )
        for text in TEXT_COLOURS
        for background in BACKGROUNDS
    }
    assert {pair: round(ratio, 2) for pair, ratio in ratios.items() if ratio < AA} == {}


def broken_calls_session() -> dict:
    """A session whose call's arguments are JSON with a trailing comma (strings, a number, a
    constant: the repair shows them highlighted as they were), and a reply whose text pretends a
    result (a heading-rich fix)."""
    arguments = '{"path": "notes/today.md", "lines": 20, "follow": true, "encoding": null,}'
    return {
        "messages": [
            {"role": "user", "content": "Show me the start of today's notes."},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {"id": "call_1", "type": "function", "function": {"name": "read_file", "arguments": arguments}}
                ],
            },
            {"role": "tool", "tool_call_id": "call_1", "content": "# Today\n- run 5 km\n- call the bank"},
            {"role": "assistant", "content": "Today: run 5 km, call the bank."},
        ],
        "tools": [
            {
                "type": "function",
                "function": {
                    "name": "read_file",
                    "parameters": {
                        "type": "object",
                        "properties": {
                            "path": {"type": "string"},
                            "lines": {"type": "integer"},
                            "follow": {"type": "boolean"},
                            "encoding": {"type": ["string", "null"]},
                        },
                    },
                },
            }
        ],
    }


def low_contrast_text(path: Path, keys: tuple[str, ...]) -> dict[str, tuple[str, str, float]]:
    """Every run of text on the review screen of `path` in the light theme (after `keys`) drawn
    below 4.5:1: its text, with its colour, background and ratio."""
    app = InspectorApp(path)

    async def run() -> dict[str, tuple[str, str, float]]:
        async with app.run_test(size=(120, 40)) as pilot:
            app.theme = LIGHT
            await app.workers.wait_for_complete()
            await pilot.press(*keys)
            await pilot.pause()
            low = {}
            for strip in app.screen._compositor.render_strips():
                for segment in strip:
                    text = "".join(c for c in segment.text if not c.isspace() and not LINES[0] <= c <= LINES[1])
                    if text and segment.style is not None:
                        colour, background = segment.style.color, segment.style.bgcolor
                        ratio = contrast(*(RichColor.get_truecolor(c) for c in (colour, background)))
                        if ratio < AA:
                            low[text] = (colour.get_truecolor().hex, background.get_truecolor().hex, round(ratio, 2))
            return low

    return asyncio.run(run())


@pytest.mark.parametrize("keys", [(), ("w",)])
def test_every_character_of_the_review_screen_reads_at_4_5_to_1_in_the_light_theme(tmp_path: Path, keys):
    path = tmp_path / "notes.openai.json"
    path.write_text(json.dumps(broken_calls_session()))
    assert low_contrast_text(path, keys) == {}
