"""Finding a person's Copilot CLI sessions (`inspector.sources.discovery.copilot_cli`), on a
temporary home folder only: each session folder's event log, its project from `session.start`,
`COPILOT_HOME`, the older versions' session files, what is left out, and a scan with no path reading them as `copilot-cli`."""

from __future__ import annotations

import json
from pathlib import Path

from inspector.cli.main import main
from inspector.sources.discovery import FoundSession, discover
from tests.helpers.home_sessions import put
from tests.helpers.samples import TOOL_SAMPLES

SAMPLE = TOOL_SAMPLES / "copilot-cli.events.jsonl"
HISTORY = TOOL_SAMPLES / "copilot-cli.history.json"  # the older versions' session file
SESSION_ID = "8475b83d-2258-4619-b1b9-acae139dc21a"


def test_each_session_folder_s_log_is_found_with_its_project(empty_home: Path):
    state = empty_home / ".copilot" / "session-state"
    log = put(SAMPLE, state / SESSION_ID / "events.jsonl", 1_700_000_300)
    (state / SESSION_ID / "workspace.yaml").write_text(f"id: {SESSION_ID}\ncwd: /tmp/cp-work\n")
    put(SAMPLE, state / SESSION_ID / "events.jsonl.bak", 1_700_000_300)  # fix --in-place's backup
    put(SAMPLE, state / SESSION_ID / "events.jsonl.audit.ndjson", 1_700_000_300)
    put(SAMPLE, state / "other" / "checkpoints" / "events.jsonl", 1_700_000_300)
    older = put(HISTORY, empty_home / ".copilot" / "history-session-state" / "session_a_1.json", 1_700_000_300)
    put(HISTORY, empty_home / ".copilot" / "history-session-state" / "notes.txt", 1_700_000_300)
    assert discover(empty_home, {}) == [
        FoundSession("Copilot CLI", older, "", 1_700_000_300, older.stat().st_size),
        FoundSession("Copilot CLI", log, "/tmp/cp-work", 1_700_000_300, log.stat().st_size),
    ]


def test_copilot_home_moves_the_folder_and_an_empty_one_is_unset(empty_home: Path, tmp_path: Path):
    put(SAMPLE, empty_home / ".copilot" / "session-state" / "a" / "events.jsonl", 1_700_000_000)
    moved = put(SAMPLE, tmp_path / "elsewhere" / "session-state" / "b" / "events.jsonl", 1_700_000_000)
    assert [found.path for found in discover(empty_home, {"COPILOT_HOME": str(tmp_path / "elsewhere")})] == [moved]
    assert [found.path.parent.name for found in discover(empty_home, {"COPILOT_HOME": ""})] == ["a"]


def test_scan_with_no_path_reads_them_as_copilot_cli(empty_home: Path, capsys):
    put(SAMPLE, empty_home / ".copilot" / "session-state" / SESSION_ID / "events.jsonl", 1_700_000_000)
    assert main(["scan", "--json"]) == 1
    (session,) = json.loads(capsys.readouterr().out)["sessions"]
    assert (session["format"], session["session_id"]) == ("copilot-cli", SESSION_ID)
