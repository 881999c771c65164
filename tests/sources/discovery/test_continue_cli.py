"""Finding a person's Continue CLI sessions (`inspector.sources.discovery.continue_cli`), on a
temporary home folder only: the session files but the folder's `sessions.json` list, the project
from `workspaceDirectory`, `CONTINUE_GLOBAL_DIR`, and a scan with no path reading them as
`continue-cli`."""

from __future__ import annotations

import json
from pathlib import Path

from inspector.cli.main import main
from inspector.sources.discovery import FoundSession, discover
from tests.helpers.home_sessions import put
from tests.helpers.samples import TOOL_SAMPLES

SAMPLE = TOOL_SAMPLES / "continue.session.json"
SESSION_ID = "7f87b82d-f806-4554-9483-1078f3e49f6d"


def test_the_session_files_are_found_with_their_project_and_the_list_left_out(empty_home: Path):
    folder = empty_home / ".continue" / "sessions"
    session = put(SAMPLE, folder / f"{SESSION_ID}.json", 1_700_000_300)
    (folder / "sessions.json").write_text(json.dumps([{"sessionId": SESSION_ID, "title": "Untitled Session"}]))
    put(SAMPLE, folder / f"{SESSION_ID}.json.review.json", 1_700_000_300)
    put(SAMPLE, folder / f"{SESSION_ID}.json.bak", 1_700_000_300)
    put(SAMPLE, empty_home / ".continue" / "logs" / "cn.json", 1_700_000_300)
    size = session.stat().st_size
    assert discover(empty_home, {}) == [FoundSession("Continue CLI", session, "/tmp/cn-work", 1_700_000_300, size)]


def test_continue_global_dir_moves_the_folder(empty_home: Path, tmp_path: Path):
    put(SAMPLE, empty_home / ".continue" / "sessions" / "a.json", 1_700_000_000)
    moved = put(SAMPLE, tmp_path / "elsewhere" / "sessions" / "b.json", 1_700_000_000)
    assert [found.path for found in discover(empty_home, {"CONTINUE_GLOBAL_DIR": str(tmp_path / "elsewhere")})] == [
        moved
    ]


def test_scan_with_no_path_reads_them_as_continue_cli(empty_home: Path, capsys):
    put(SAMPLE, empty_home / ".continue" / "sessions" / f"{SESSION_ID}.json", 1_700_000_000)
    assert main(["scan", "--json"]) == 1
    (session,) = json.loads(capsys.readouterr().out)["sessions"]
    assert (session["format"], session["session_id"]) == ("continue-cli", SESSION_ID)
