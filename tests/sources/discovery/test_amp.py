"""Finding a person's Amp threads (`inspector.sources.discovery.amp`), on a temporary home folder
only: each `T-*.json` thread file, its project from the thread's starting environment,
`XDG_DATA_HOME`, and a scan with no path reading them as `amp`."""

from __future__ import annotations

import json
from pathlib import Path

from inspector.cli.main import main
from inspector.sources.discovery import FoundSession, discover
from tests.helpers.home_sessions import put
from tests.helpers.samples import TOOL_SAMPLES

SAMPLE = TOOL_SAMPLES / "amp.thread.json"
THREAD_ID = "T-5f0c2a9e-3b1d-4c7e-9a2f-6d8e1b4c7a30"


def test_each_thread_file_is_found_with_its_project(empty_home: Path):
    threads = empty_home / ".local" / "share" / "amp" / "threads"
    thread = put(SAMPLE, threads / f"{THREAD_ID}.json", 1_700_000_300)
    put(SAMPLE, threads / f"{THREAD_ID}.json.bak", 1_700_000_300)  # fix --in-place's backup
    put(SAMPLE, threads / "settings.json", 1_700_000_300)
    assert discover(empty_home, {}) == [
        FoundSession("Amp", thread, "/tmp/amp-work", 1_700_000_300, thread.stat().st_size)
    ]


def test_xdg_data_home_moves_the_folder_and_an_empty_one_is_unset(empty_home: Path, tmp_path: Path):
    put(SAMPLE, empty_home / ".local" / "share" / "amp" / "threads" / "T-a.json", 1_700_000_000)
    moved = put(SAMPLE, tmp_path / "data" / "amp" / "threads" / "T-b.json", 1_700_000_000)
    assert [found.path for found in discover(empty_home, {"XDG_DATA_HOME": str(tmp_path / "data")})] == [moved]
    assert [found.path.name for found in discover(empty_home, {"XDG_DATA_HOME": ""})] == ["T-a.json"]


def test_scan_with_no_path_reads_them_as_amp(empty_home: Path, capsys):
    put(SAMPLE, empty_home / ".local" / "share" / "amp" / "threads" / f"{THREAD_ID}.json", 1_700_000_000)
    assert main(["scan", "--json"]) == 1
    (session,) = json.loads(capsys.readouterr().out)["sessions"]
    assert (session["format"], session["session_id"]) == ("amp", THREAD_ID)
