"""Finding a person's Pi sessions (`inspector.sources.discovery.pi`), on a temporary home folder
only: each project's `<timestamp>_<uuid>.jsonl`, its project from the session header's `cwd`,
`PI_CODING_AGENT_DIR` and `PI_CODING_AGENT_SESSION_DIR`, and a scan with no path reading them as `pi`."""

from __future__ import annotations

import json
from pathlib import Path

from inspector.cli.main import main
from inspector.sources.discovery import FoundSession, agent_named, discover
from tests.helpers.home_sessions import put
from tests.helpers.samples import TOOL_SAMPLES

SAMPLE = TOOL_SAMPLES / "pi.session.jsonl"
SESSION_ID = "01a2209d-992a-7283-8031-61b36cba4445"
NAME = f"2026-11-28T05-25-29-002Z_{SESSION_ID}.jsonl"


def test_each_project_s_session_files_are_found_with_their_project(empty_home: Path):
    project = empty_home / ".pi" / "agent" / "sessions" / "--tmp-pi-work--"
    session = put(SAMPLE, project / NAME, 1_700_000_300)
    put(SAMPLE, project / f"{NAME}.audit.ndjson", 1_700_000_300)  # what fix writes beside a session
    put(SAMPLE, project / f"{NAME}.bak", 1_700_000_300)  # fix --in-place's backup
    put(SAMPLE, empty_home / ".pi" / "agent" / "models.json", 1_700_000_300)
    assert discover(empty_home, {}) == [
        FoundSession("Pi", session, "/tmp/pi-work", 1_700_000_300, session.stat().st_size)
    ]


def test_the_agent_folder_and_the_sessions_folder_are_moved_and_empty_ones_are_unset(empty_home: Path, tmp_path: Path):
    put(SAMPLE, empty_home / ".pi" / "agent" / "sessions" / "--p--" / "a.jsonl", 1_700_000_000)
    moved = put(SAMPLE, tmp_path / "agent" / "sessions" / "--p--" / "b.jsonl", 1_700_000_000)
    flat = put(SAMPLE, tmp_path / "flat" / "c.jsonl", 1_700_000_000)  # a sessions folder has no project folders
    in_home = put(SAMPLE, empty_home / "pi-sessions" / "d.jsonl", 1_700_000_000)
    assert [f.path for f in discover(empty_home, {"PI_CODING_AGENT_DIR": str(tmp_path / "agent")})] == [moved]
    environ = {"PI_CODING_AGENT_DIR": str(tmp_path / "agent"), "PI_CODING_AGENT_SESSION_DIR": str(tmp_path / "flat")}
    assert [f.path for f in discover(empty_home, environ)] == [flat]
    assert [f.path for f in discover(empty_home, {"PI_CODING_AGENT_SESSION_DIR": "~/pi-sessions"})] == [in_home]
    empty = {"PI_CODING_AGENT_DIR": "", "PI_CODING_AGENT_SESSION_DIR": ""}
    assert [f.path.name for f in discover(empty_home, empty)] == ["a.jsonl"]


def test_scan_with_no_path_reads_them_as_pi_and_names_the_resume_command(empty_home: Path, capsys):
    put(SAMPLE, empty_home / ".pi" / "agent" / "sessions" / "--tmp-pi-work--" / NAME, 1_700_000_000)
    assert main(["scan", "--json"]) == 1
    (session,) = json.loads(capsys.readouterr().out)["sessions"]
    assert (session["format"], session["session_id"]) == ("pi", SESSION_ID)
    assert agent_named("Pi").resume.format(id=SESSION_ID) == f"pi --session {SESSION_ID}"
