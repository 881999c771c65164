"""The picker of the person's own sessions takes what it shows of a file from the search index
when the file is as it was: a second start shows the turns, findings, rates and review status of
the files unchanged at once, without reading them; a file changed since is read again. What a search kept of a file shows as the file does read."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable, Static

from inspector.cli.main import main
from inspector.scan.rates import Rates
from inspector.scan.summary import SessionSummary
from inspector.search.anchor_blob import unpacked_anchors
from inspector.search.reading import read_file
from inspector.search.summary_blob import unpacked
from inspector.tui.conversations import ReadOptions
from inspector.tui.picker.found import FoundPicker
from inspector.tui.picker.rates import rate_parts
from inspector.tui.picker.rows import kept_file, scanned_file
from tests.helpers.home_sessions import put, sessions_of_every_tool
from tests.helpers.pilot import play, rows, until
from tests.helpers.samples import SESSIONS


def shown(opened: list, number: int) -> tuple[list[list[str]], str]:
    """The rows and the rates line the `number`th app's picker shows once every file is scanned."""
    seen: list[tuple[list[list[str]], str]] = []

    async def scenario(pilot: Pilot) -> None:
        picker = pilot.app.screen
        assert isinstance(picker, FoundPicker)
        await until(pilot, picker.scanned.is_set, "the scan")
        await pilot.pause()
        seen.append((rows(picker.query_one(DataTable)), str(picker.query_one("#rates", Static).visual)))

    play(opened[number], scenario, size=(140, 40))
    return seen[0]


@pytest.mark.slow  # drives the app with Pilot
def test_a_second_start_shows_unchanged_files_from_the_index_without_reading_them(
    empty_home: Path, opened: list, monkeypatch: pytest.MonkeyPatch
):
    sessions_of_every_tool(empty_home)
    put(SESSIONS / "finetune.openai.jsonl", empty_home / ".claude" / "projects" / "-p" / "a.jsonl", 1_700_000_300)
    changed = put(SESSIONS / "clean.openai.json", empty_home / ".claude" / "projects" / "-p" / "b.jsonl", 1_700_009_000)
    assert main([]) == 0
    first, first_rates = shown(opened, 0)
    assert ["13", "1 result-prefix", "pending"] in [row[3:] for row in first]
    assert first_rates.startswith("Rates: ")

    read: list[str] = []
    scan = ReadOptions.scan
    monkeypatch.setattr(
        ReadOptions, "scan", lambda self, source, start=0: read.append(source.format) or scan(self, source, start)
    )
    put(SESSIONS / "finetune.openai.jsonl", changed, 1_700_009_000)  # b.jsonl is another session now
    assert main([]) == 0
    second, second_rates = shown(opened, 1)

    assert read == ["openai"]  # b.jsonl alone: the others were taken from the index
    b_date = time.strftime("%Y-%m-%d %H:%M", time.localtime(1_700_009_000))
    expected = [row if row[2] != b_date else [*row[:3], "13", "1 result-prefix", "pending"] for row in first]
    assert expected != first
    assert second == expected
    assert second_rates != first_rates and second_rates.startswith("Rates: ")


@pytest.mark.parametrize("sample", sorted(path.name for path in SESSIONS.iterdir() if path.is_file()))
def test_a_file_kept_by_a_search_shows_as_it_does_read(sample: str):
    path = SESSIONS / sample
    options = ReadOptions()
    summaries: list[SessionSummary] = []
    read = scanned_file(options.scan(options.open(path)), by_id=False, summaries=summaries)
    indexed = read_file(path)
    assert indexed.summaries is not None and indexed.anchors is not None
    kept = kept_file(unpacked(indexed.summaries) or [], unpacked_anchors(indexed.anchors) or [])
    assert (kept.turns, kept.format, kept.kinds, kept.sessions) == (read.turns, read.format, read.kinds, read.sessions)
    assert rate_parts(kept.rates or Rates(), True) == rate_parts(read.rates or Rates(), True)
    assert kept_file(summaries, [keys.anchored for _, keys in read.sessions]).sessions == read.sessions
