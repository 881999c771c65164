"""Finding a person's Factory Droid sessions (`inspector.sources.discovery.factory_droid`), on a
temporary home folder only: each project folder's sessions and the older ones kept in the sessions
folder itself, their project from `session_start`, `FACTORY_HOME_OVERRIDE`, what is left out, and a
scan with no path reading them as `factory-droid`."""

from __future__ import annotations

import json
from pathlib import Path

from inspector.cli.main import main
from inspector.sources.discovery import FoundSession, agent_named, discover
from tests.helpers.home_sessions import put
from tests.helpers.samples import TOOL_SAMPLES

SAMPLE = TOOL_SAMPLES / "factory-droid.jsonl"
SESSION_ID = "9d5712b0-2785-4fc2-980d-14dfa58a29d9"


def test_each_project_s_sessions_are_found_with_their_project(empty_home: Path):
    root = empty_home / ".factory" / "sessions"
    session = put(SAMPLE, root / "-tmp-dr-work" / f"{SESSION_ID}.jsonl", 1_700_000_300)
    older = put(SAMPLE, root / "0b1c.jsonl", 1_700_000_200)
    (root / "-tmp-dr-work" / f"{SESSION_ID}.settings.json").write_text('{"model": "custom:Mock-0"}')
    put(SAMPLE, root / "-tmp-dr-work" / f"{SESSION_ID}.settings.json.bak", 1_700_000_300)
    put(SAMPLE, root / "-tmp-dr-work" / f"{SESSION_ID}.jsonl.audit.ndjson", 1_700_000_300)  # what fix writes
    put(SAMPLE, empty_home / ".factory" / "logs" / "console.jsonl", 1_700_000_300)
    assert discover(empty_home, {}) == [
        FoundSession("Factory Droid", session, "/tmp/dr-work", 1_700_000_300, session.stat().st_size),
        FoundSession("Factory Droid", older, "/tmp/dr-work", 1_700_000_200, older.stat().st_size),
    ]
    assert agent_named("Factory Droid").resume == "droid --resume {id}"


def test_the_project_falls_back_on_the_folder_s_name(empty_home: Path):
    folder = empty_home / ".factory" / "sessions" / "-home-me-proj"
    folder.mkdir(parents=True)
    (folder / "a.jsonl").write_text('{"type":"message","id":"m1","message":{"role":"user","content":[]}}\n')
    assert [found.project for found in discover(empty_home, {})] == ["-home-me-proj"]


def test_factory_home_override_moves_the_folder_and_an_empty_one_is_unset(empty_home: Path, tmp_path: Path):
    put(SAMPLE, empty_home / ".factory" / "sessions" / "-p" / "a.jsonl", 1_700_000_000)
    moved = put(SAMPLE, tmp_path / "elsewhere" / ".factory" / "sessions" / "-p" / "b.jsonl", 1_700_000_000)
    override = {"FACTORY_HOME_OVERRIDE": str(tmp_path / "elsewhere")}
    assert [found.path for found in discover(empty_home, override)] == [moved]
    assert [found.path.name for found in discover(empty_home, {"FACTORY_HOME_OVERRIDE": ""})] == ["a.jsonl"]


def test_scan_with_no_path_reads_them_as_factory_droid(empty_home: Path, capsys):
    put(SAMPLE, empty_home / ".factory" / "sessions" / "-tmp-dr-work" / f"{SESSION_ID}.jsonl", 1_700_000_000)
    assert main(["scan", "--json"]) == 1
    (session,) = json.loads(capsys.readouterr().out)["sessions"]
    assert (session["format"], session["session_id"]) == ("factory-droid", SESSION_ID)
