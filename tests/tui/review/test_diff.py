"""The review app's diff, driven through the real app with Textual's Pilot: the original side marks
only the fault and the repair side only what changed (text, and arguments key by key), the whole
turn as the export will write it (`w`), the mark of a turn whose findings were decided
differently, and diff colours that read on light and dark themes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from textual.color import Color
from textual.content import Content
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widgets import Static

from inspector.review.review_file import APPROVED, SKIPPED
from inspector.sources import load_sessions
from inspector.tui.review.detail_content import CHANGED, INSERTED, REMOVED, SUSPECT
from inspector.tui.review.turn_list import STATUS_GLYPHS, TurnList
from tests.helpers.app import drive, finding_text, selected
from tests.helpers.pilot import press
from tests.helpers.samples import SESSIONS, TOOL_SAMPLES

pytestmark = pytest.mark.slow  # drives the app with Pilot

DIFF_STYLES = (REMOVED, INSERTED, CHANGED)
CORE = '{success: true, memory_type: "core", content: "Sam is training for a half marathon in May (Leeds, 11 May)."}'
JOURNAL = '{success: true, memory_type: "journal", content: "First 10k without stopping today. Felt unstoppable."}'


@pytest.fixture
def sample(tmp_path: Path):
    """A copy of a bundled sample in tmp_path, so nothing is written into sessions/."""
    return lambda name: Path(shutil.copy(SESSIONS / name, tmp_path / name))


def pane(pilot: Pilot, name: str) -> Content:
    return pilot.app.screen.query_one(f"#{name}", Static).visual


def marks(content: Content, *styles: str) -> list[str]:
    """The text of each span of `content` styled with one of `styles`, in order."""
    return [content.plain[span.start : span.end] for span in sorted(content.spans) if span.style in styles]


def test_an_extra_brace_is_the_only_mark_and_the_repaired_arguments_show_no_change(sample):
    async def scenario(pilot: Pilot, notes: list[str]) -> None:
        assert selected(pilot) == 2 and "malformed-arguments" in finding_text(pilot)
        assert marks(pane(pilot, "original"), *DIFF_STYLES) == ["}"]  # of '..."limit": 10}}'
        repair = pane(pilot, "repair")
        assert marks(repair, *DIFF_STYLES) == [] and "same arguments" in repair.plain

    drive(sample("analyst-agent.openai.json"), scenario)


def test_a_wrong_type_marks_its_quotes_and_only_that_argument(sample):
    async def scenario(pilot: Pilot, notes: list[str]) -> None:
        await press(pilot, "n")
        assert selected(pilot) == 6 and "wrong-type" in finding_text(pilot)
        assert marks(pane(pilot, "original"), *DIFF_STYLES) == ['"', '"']  # "limit": "5" as recorded
        assert marks(pane(pilot, "repair"), INSERTED, REMOVED) == []
        assert marks(pane(pilot, "repair"), CHANGED) == ["changed", '"limit": 5']  # the legend, then the key

    drive(sample("analyst-agent.openai.json"), scenario)


def test_a_fake_result_is_marked_and_the_text_after_the_fix_gains_nothing(sample):
    async def scenario(pilot: Pilot, notes: list[str]) -> None:
        assert selected(pilot) == 6
        original = pane(pilot, "original")
        fake = pilot.app.screen.session.turn_at(6).text.split("}")[0] + "}"
        assert marks(original, SUSPECT) == [fake]
        assert marks(original, *DIFF_STYLES) == [fake + "\n\n"]  # the fix cuts the object and the blank line
        repair = pane(pilot, "repair")
        assert marks(repair, INSERTED) == ["added", '"memory_type": "journal"', marks(repair, INSERTED)[2]]
        assert marks(repair, INSERTED)[2].startswith('"content": "Proud of Maya')
        assert marks(repair, REMOVED, CHANGED) == []

    drive(sample("memory-agent.openai.json"), scenario)


def test_a_nested_repair_marks_the_nested_key_only(write_session):
    query = {
        "type": "function",
        "function": {
            "name": "query",
            "parameters": {
                "type": "object",
                "properties": {
                    "table": {"type": "string"},
                    "filter": {
                        "type": "object",
                        "properties": {"month": {"type": "string"}, "limit": {"type": "integer"}},
                    },
                },
            },
        },
    }
    arguments = {"table": "trials", "filter": {"month": "2026-10", "limit": "10"}}
    path = write_session(
        [
            {"role": "user", "content": "October signups?"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {"id": "c1", "type": "function", "function": {"name": "query", "arguments": json.dumps(arguments)}}
                ],
            },
            {"role": "tool", "tool_call_id": "c1", "content": "[412]"},
        ],
        [query],
    )

    async def scenario(pilot: Pilot, notes: list[str]) -> None:
        assert selected(pilot) == 1 and "wrong-type" in finding_text(pilot)
        assert marks(pane(pilot, "repair"), CHANGED) == ["changed", '"limit": 10']
        assert marks(pane(pilot, "original"), REMOVED) == ['"', '"']

    drive(path, scenario)


def test_the_whole_turn_view_shows_the_turn_as_exported(sample, tmp_path: Path):
    path = sample("memory-agent.openai.json")
    out = tmp_path / "out.openai.json"

    async def scenario(pilot: Pilot, notes: list[str]) -> None:
        screen = pilot.app.screen
        await press(pilot, "n", "n", "a")  # approve the first of turn 14's two findings only
        assert selected(pilot) == 14 and screen.review.status(0, 2) == APPROVED
        await press(pilot, "w")
        repair, original = pane(pilot, "repair"), pane(pilot, "original")
        assert screen.query_one("#repair-pane").border_title == "As exported"
        assert "1 of 2 fixes approved" in finding_text(pilot)
        assert CORE not in repair.plain and JOURNAL in repair.plain  # the pending fix is not applied
        assert marks(original, *DIFF_STYLES) == [CORE] and marks(original, SUSPECT) == [CORE, JOURNAL]
        assert marks(repair, *DIFF_STYLES) == ["added", '"memory_type": "core"', marks(repair, INSERTED)[2]]
        exported_text = repair.plain.split("\n\n")[0].removeprefix("Text as exported\n")
        screen.review.export(out)
        written = [turn.text for turn in load_sessions(out)[0].turns if "That's huge, Sam!" in turn.text]
        assert written == [exported_text]

        await press(pilot, "s")  # skip the other: still shown as exported, and the turn's mark is mixed
        await press(pilot, "N")
        assert selected(pilot) == 14 and marks(pane(pilot, "repair"), *DIFF_STYLES)[:2] == [
            "added",
            '"memory_type": "core"',
        ]
        await press(pilot, "w")
        assert screen.query_one("#repair-pane").border_title == "Repair" and "finding 1 of 2" in finding_text(pilot)

    drive(path, scenario)


def test_the_whole_turn_view_shows_the_calls_exported_as_recorded(sample):
    """A call no approved fix changes is exported as recorded: the whole-turn view lists it beside
    the text, where it showed the text alone (the call seemed dropped); once its fix is approved it
    is the corrected call."""

    async def scenario(pilot: Pilot, notes: list[str]) -> None:
        assert selected(pilot) == 2 and "malformed-arguments" in finding_text(pilot)
        await press(pilot, "w")
        kept = pane(pilot, "repair").plain
        assert "Call kept as recorded query_db\n" in kept and '"limit": 10}}' in kept
        await press(pilot, "w", "a", "N", "w")
        assert selected(pilot) == 2 and "its fix approved, applied as the export will apply it" in finding_text(pilot)
        fixed = pane(pilot, "repair").plain
        assert "Call kept as recorded" not in fixed and "Corrected call query_db" in fixed

    drive(sample("analyst-agent.openai.json"), scenario)


def test_a_turn_with_one_fix_approved_and_one_skipped_is_marked_mixed(sample):
    async def scenario(pilot: Pilot, notes: list[str]) -> None:
        screen = pilot.app.screen
        await press(pilot, "n", "n", "a", "s")
        assert [screen.review.status(0, index) for index in (2, 3)] == [APPROVED, SKIPPED]
        await press(pilot, "N")
        turns = screen.query_one(TurnList)
        assert selected(pilot) == 14
        line = "".join(segment.text for segment in turns.render_line(turns.cursor - turns.scroll_offset.y))
        assert f"{STATUS_GLYPHS['mixed']} result-prefix" in line and STATUS_GLYPHS["approved"] not in line

    drive(sample("memory-agent.openai.json"), scenario)


def contrast(foreground: Color, background: Color) -> float:
    """The WCAG contrast ratio of two colours (1 to 21)."""

    def luminance(color: Color) -> float:
        channels = [value / 255 for value in color.rgb]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    lighter, darker = sorted((luminance(foreground), luminance(background)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def tinted_segments(widget: Static) -> list[tuple[str, float]]:
    """The text and contrast of each drawn segment whose background is not the widget's own."""
    own = widget.rich_style.bgcolor
    found = []
    for strip in widget.render_lines(Region(0, 0, widget.size.width, widget.size.height)):
        for segment in strip:
            style = segment.style
            if segment.text.strip() and style and style.bgcolor and style.bgcolor != own:
                found.append(
                    (segment.text, contrast(Color.from_rich_color(style.color), Color.from_rich_color(style.bgcolor)))
                )
    return found


@pytest.mark.parametrize("theme", ["textual-light", "textual-dark"])
def test_the_diff_colours_read_on_light_and_dark_themes(sample, theme: str):
    async def scenario(pilot: Pilot, notes: list[str]) -> None:
        pilot.app.theme = theme
        screen = pilot.app.screen
        for keys, turn in ((("n", "n"), 10), (("n", "n", "n"), 16)):  # an enum value corrected; a key renamed
            await press(pilot, *keys)
            assert selected(pilot) == turn
            for name in ("original", "repair"):
                tinted = tinted_segments(screen.query_one(f"#{name}", Static))
                assert tinted and all(ratio >= 4.5 for _, ratio in tinted), tinted
        turns = screen.query_one(TurnList)
        rows = turns.render_lines(Region(0, 0, turns.size.width, turns.size.height))
        assert all(segment.style.bgcolor is not None for row in rows for segment in row)  # never the terminal's own

    drive(sample("analyst-agent.openai.json"), scenario)


def test_a_call_whose_agent_kept_only_its_parse_error_is_shown_as_that(tmp_path: Path):
    """Copilot CLI kept its parser's error in place of the view call's arguments: the original says
    so above the error, where it showed the error as if it were the arguments."""
    copy = Path(shutil.copy(TOOL_SAMPLES / "copilot-cli.events.jsonl", tmp_path / "events.jsonl"))

    async def scenario(pilot: Pilot, notes: list[str]) -> None:
        for _ in range(6):  # the flagged turns before it
            if selected(pilot) == 19:
                break
            await press(pilot, "n")
        assert selected(pilot) == 19
        shown = pane(pilot, "original").plain
        lost = "Its arguments did not parse; the agent kept its parser's error in their place, not the text:"
        assert f"Call as recorded view\n{lost}\nExpected property name or '}}'" in shown
        assert "kept its parser's error" in finding_text(pilot)

    drive(copy, scenario)


def test_a_turn_nothing_flags_says_whether_the_session_is_clean(sample):
    """A session with no finding says so where a finding's repair would be; in a flagged session,
    a turn nothing flags says that of the turn alone."""

    async def clean(pilot: Pilot, notes: list[str]) -> None:
        assert pane(pilot, "repair").plain == "Nothing flagged in this session."

    async def flagged(pilot: Pilot, notes: list[str]) -> None:
        await press(pilot, "home")
        assert selected(pilot) == 0 and pane(pilot, "repair").plain == "Nothing flagged in this turn."

    drive(sample("clean.openai.json"), clean)
    drive(sample("memory-agent.openai.json"), flagged)
