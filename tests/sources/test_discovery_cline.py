"""Finding Cline's sessions (`inspector.sources.discovery.cline`) on a temporary home folder only:
the CLI's messages files in their default folder and where its variables move it, the project
from each session's `<id>.json`, and what is not a session left out."""

from __future__ import annotations

import json
from pathlib import Path

from inspector.cli.main import main
from inspector.sources.discovery import FoundSession, discover, places
from tests.helpers.home_sessions import put
from tests.helpers.samples import TOOL_SAMPLES

SESSION_ID = "1795834866439_ewai0"


def _cline_session(sessions: Path, session_id: str, modified: float, cwd: str | None = "/tmp/cl-work") -> Path:
    folder = sessions / session_id
    messages = put(TOOL_SAMPLES / "cline.messages.json", folder / f"{session_id}.messages.json", modified)
    if cwd is not None:
        (folder / f"{session_id}.json").write_text(json.dumps({"version": 1, "session_id": session_id, "cwd": cwd}))
    return messages


def test_the_cli_s_sessions_are_found_with_their_project(empty_home: Path):
    sessions = empty_home / ".cline" / "data" / "sessions"
    first = _cline_session(sessions, SESSION_ID, 1_700_000_000)
    second = _cline_session(sessions, "1795834866440_other", 1_700_000_060, cwd=None)
    (sessions / "loose.messages.json").write_text("{}")  # not in a session's folder
    put(TOOL_SAMPLES / "cline.messages.json", sessions / "x" / "y.messages.json", 1_700_000_000)  # not its folder's
    (empty_home / ".cline" / "data" / "db").mkdir()
    (empty_home / ".cline" / "data" / "db" / "sessions.db").write_bytes(b"")
    assert discover(empty_home, {}) == [
        FoundSession("Cline", second, "", 1_700_000_060, second.stat().st_size),
        FoundSession("Cline", first, "/tmp/cl-work", 1_700_000_000, first.stat().st_size),
    ]


def test_each_variable_moves_the_cli_s_folder_and_an_empty_one_is_unset(empty_home: Path, tmp_path: Path):
    def cline_places(environ: dict[str, str]) -> list[Path]:
        return [place.path for place in places(empty_home, environ, "linux") if place.tool == "Cline"]

    assert cline_places({"CLINE_DIR": ""}) == [empty_home / ".cline" / "data" / "sessions"]
    assert cline_places({"CLINE_DIR": str(tmp_path / "c")}) == [tmp_path / "c" / "data" / "sessions"]
    assert cline_places({"CLINE_DIR": str(tmp_path / "c"), "CLINE_DATA_DIR": str(tmp_path / "d")}) == [
        tmp_path / "d" / "sessions"
    ]
    assert cline_places({"CLINE_DATA_DIR": str(tmp_path / "d"), "CLINE_SESSION_DATA_DIR": str(tmp_path / "s")}) == [
        tmp_path / "s"
    ]
    moved = _cline_session(tmp_path / "s", SESSION_ID, 1_700_000_000)
    assert [found.path for found in discover(empty_home, {"CLINE_SESSION_DATA_DIR": str(tmp_path / "s")})] == [moved]


def test_scan_with_no_path_reads_a_cline_session_in_its_own_format(empty_home: Path, capsys):
    _cline_session(empty_home / ".cline" / "data" / "sessions", SESSION_ID, 1_700_000_000)
    assert main(["scan"]) == 1
    assert f"session {SESSION_ID}  (cline, 12 turns, 2 findings)" in capsys.readouterr().out
