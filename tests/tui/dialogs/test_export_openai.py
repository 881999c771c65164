"""The app's export dialog: "as OpenAI" writes the session as OpenAI Chat Completions JSON, and a
file that exists already is replaced only once the person agrees (never a word of `--force`)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Checkbox, Input, Static

from inspector.model import TOOL
from inspector.sources import load_sessions, open_source
from inspector.tui.dialogs.confirm import Confirm
from inspector.tui.dialogs.export import ExportDialog
from tests.helpers.app import drive
from tests.helpers.pilot import press
from tests.helpers.samples import SESSIONS

pytestmark = pytest.mark.slow  # drives the app with Pilot


@pytest.fixture
def anthropic_copy(tmp_path: Path) -> Path:
    """The Anthropic sample copied into tmp_path, so nothing is written into sessions/."""
    return Path(shutil.copy(SESSIONS / "support-agent.anthropic.json", tmp_path / "support-agent.anthropic.json"))


def _texts(path: Path) -> list[str]:
    return [turn.text for session in load_sessions(path) for turn in session.turns if turn.role != TOOL and turn.text]


async def _exported(pilot: Pilot) -> None:
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def test_export_as_openai(anthropic_copy):
    out = anthropic_copy.with_name("support-agent.fixed.openai.json")

    async def scenario(pilot: Pilot, notes: list[str]) -> None:
        await press(pilot, "x")
        dialog = pilot.app.screen
        assert isinstance(dialog, ExportDialog)
        path = dialog.query_one("#path", Input)
        assert path.value == str(
            anthropic_copy.with_name("support-agent.fixed.anthropic.json")
        )  # the own format by default
        dialog.query_one("#openai", Checkbox).value = True
        await pilot.pause()
        assert path.value == str(out) and dialog.query_one("#overwrite", Checkbox).disabled
        await press(pilot, "enter")
        await _exported(pilot)
        assert notes[-1].startswith(f"Wrote {out}")

    drive(anthropic_copy, scenario)
    written = open_source(out)
    assert written.format == "openai"
    assert _texts(out) == _texts(anthropic_copy)


def test_an_existing_file_is_replaced_only_once_the_person_agrees(anthropic_copy):
    out = anthropic_copy.with_name("mine.json")
    out.write_text("my notes\n")

    async def scenario(pilot: Pilot, notes: list[str]) -> None:
        await press(pilot, "x")
        pilot.app.screen.query_one("#path", Input).value = str(out)
        await press(pilot, "enter")
        confirm = pilot.app.screen
        assert isinstance(confirm, Confirm)
        question = str(confirm.query_one("#question", Static).visual)
        assert "exists already" in question and "--force" not in question
        await press(pilot, "n")  # keep it: back in the dialog, nothing written
        assert isinstance(pilot.app.screen, ExportDialog) and out.read_text() == "my notes\n"
        assert "Not replaced" in str(pilot.app.screen.query_one("#problem", Static).visual)

        await press(pilot, "enter")
        assert isinstance(pilot.app.screen, Confirm)
        await press(pilot, "y")
        await _exported(pilot)
        assert notes[-1].startswith(f"Wrote {out}")
        assert not any("--force" in note for note in notes)

    drive(anthropic_copy, scenario)
    assert open_source(out).format == "anthropic"


def test_as_openai_also_asks_before_replacing(anthropic_copy):
    out = anthropic_copy.with_name("support-agent.fixed.openai.json")
    out.write_text("older export\n")

    async def scenario(pilot: Pilot, notes: list[str]) -> None:
        await press(pilot, "x")
        pilot.app.screen.query_one("#openai", Checkbox).value = True
        await pilot.pause()
        path = pilot.app.screen.query_one("#path", Input)
        assert path.value == str(out.with_name("support-agent.fixed.1.openai.json"))  # the default never exists
        path.value = str(out)
        await press(pilot, "enter")
        assert isinstance(pilot.app.screen, Confirm)
        await press(pilot, "y")
        await _exported(pilot)
        assert notes[-1].startswith(f"Wrote {out}")

    drive(anthropic_copy, scenario)
    assert open_source(out).format == "openai"
