"""A folder scan picks its session files by suffix, and its Markdown and text files by what they
start with: Aider's logs and SWE-agent's `.traj` are scanned beside the JSON sessions, while a
README or notes that no format claims are left out without a word (by the CLI, the app's picker
and Spark's executors alike)."""

from __future__ import annotations

from collections import namedtuple
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable

from inspector.cli.main import main
from inspector.scan.spark.executor import ScanOptions, scan_files
from inspector.tui.app import InspectorApp
from inspector.tui.picker.screen import PickerScreen
from tests.helpers.pilot import play, rows
from tests.helpers.samples import TOOL_SAMPLES, copied

LOGS = ("aider.chat.history.md", "aider.llm-history.txt", "swe-agent.traj")
Row = namedtuple("Row", "path content")  # a row of Spark's `binaryFile` frame


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A folder of the Aider and SWE-agent samples, a README and notes."""
    directory = copied(LOGS, TOOL_SAMPLES, tmp_path / "work")
    (directory / "README.md").write_text("# A project\n\nSome words.\n", encoding="utf-8")
    (directory / "notes.txt").write_text("TO LLM, remember to ask\n", encoding="utf-8")
    return directory


def test_a_folder_scan_reads_the_text_logs_and_trajectories_and_leaves_other_text_out(folder, capsys):
    assert main(["scan", str(folder)]) == 1  # findings found
    out, err = capsys.readouterr()
    assert err == ""
    headers = [line.split("  (")[0] for line in out.splitlines() if line.startswith(str(folder))]
    assert headers == [str(folder / name) for name in LOGS]
    assert str(folder / "README.md") not in out and str(folder / "notes.txt") not in out


def test_a_json_file_no_format_claims_is_still_an_error_in_a_folder(folder, capsys):
    (folder / "config.json").write_text('{"a": 1}', encoding="utf-8")
    assert main(["scan", str(folder)]) == 2
    assert "config.json: not a recognised session format" in capsys.readouterr().err


def test_the_picker_lists_the_logs_and_not_the_readme(folder):
    async def scenario(pilot: Pilot) -> None:
        screen = pilot.app.screen
        assert isinstance(screen, PickerScreen)
        assert [row[0] for row in rows(screen.query_one(DataTable))] == list(LOGS)

    play(InspectorApp(folder), scenario, settled=True)


def test_spark_executors_scan_the_logs_and_leave_the_readme_out(folder):
    files = [Row(f"file:{path}", path.read_bytes()) for path in sorted(folder.iterdir())]
    scanned = list(scan_files(files, ScanOptions(), {}))
    assert [Path(scan.order).name for scan in scanned] == sorted(LOGS)
    assert all(scan.error is None and scan.summaries for scan in scanned)
