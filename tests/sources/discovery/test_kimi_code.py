"""Finding a person's Kimi Code sessions (`inspector.sources.discovery.kimi_code`), on a temporary
home folder only: the main agent's wire file of each session folder, its subagents' wire files
beside it, the project from the session's `state.json`, and `KIMI_CODE_HOME` moving the folder."""

from __future__ import annotations

import json
from pathlib import Path

from inspector.sources import load_sessions
from inspector.sources.discovery import FoundSession, discover, subagents_of
from tests.helpers.home_sessions import put
from tests.helpers.samples import TOOL_SAMPLES

MAIN = TOOL_SAMPLES / "kimi-code.delegating.wire.jsonl"
SUBAGENT = TOOL_SAMPLES / "kimi-code.subagent.wire.jsonl"
SESSION = "session_43cbd41d-7876-411c-91c5-519f61e529c7"


def _session(sessions: Path, cwd: str) -> Path:
    """A session folder as Kimi Code 2.1 leaves it after a delegating turn: both agents' wire
    files, its `state.json` and its log."""
    folder = sessions / "wd_proj_72a12d5a82f4" / SESSION
    put(MAIN, folder / "agents" / "main" / "wire.jsonl", 1_700_000_100)
    put(SUBAGENT, folder / "agents" / "agent-0" / "wire.jsonl", 1_700_000_200)
    (folder / "logs").mkdir()
    (folder / "logs" / "kimi-code.log").write_text("log\n")
    (folder / "state.json").write_text(json.dumps({"id": SESSION, "cwd": cwd, "agents": {}}))
    return folder


def test_the_main_agent_s_wire_file_is_found_with_its_subagent_s(empty_home: Path):
    folder = _session(empty_home / ".kimi-code" / "sessions", "/home/me/proj")
    (folder.parent / "stray.jsonl").write_text("{}\n")
    (folder / "agents" / "agent-1").mkdir()  # a subagent folder with no wire file (yet)
    main = folder / "agents" / "main" / "wire.jsonl"
    subagent = folder / "agents" / "agent-0" / "wire.jsonl"
    assert discover(empty_home, {}) == [
        FoundSession("Kimi Code", main, "/home/me/proj", 1_700_000_100, main.stat().st_size)
    ]
    assert subagents_of(discover(empty_home, {})[0]) == (subagent,)
    (subagent,) = load_sessions(folder / "agents" / "agent-0" / "wire.jsonl")
    assert subagent.session_id == f"{SESSION}/agent-0"


def test_kimi_code_home_moves_the_folder(empty_home: Path, tmp_path: Path):
    _session(empty_home / ".kimi-code" / "sessions", "/home/me/proj")
    moved = _session(tmp_path / "kimi" / "sessions", "/srv/other")
    found = discover(empty_home, {"KIMI_CODE_HOME": str(tmp_path / "kimi")})
    assert [(f.path, f.project) for f in found] == [(moved / "agents" / "main" / "wire.jsonl", "/srv/other")]
