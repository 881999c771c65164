"""Finding a person's sessions when a tool's folder holds symbolic links that loop or lead nowhere:
each such entry costs only itself (said in one line on stderr), never the folder it sits in."""

from __future__ import annotations

import json
import os
from pathlib import Path

from inspector.cli.main import main
from inspector.sources.discovery import discover, kept_by_a_tool
from tests.helpers.home_sessions import CLAUDE_ID, CODEX_NAME, put, sessions_of_every_tool
from tests.helpers.samples import TOOL_SAMPLES


def _loop(folder: Path, first: str, second: str) -> None:
    """`first -> second -> first` in `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    os.symlink(second, folder / first)
    os.symlink(first, folder / second)


def test_a_looping_session_link_beside_a_real_session_costs_only_itself(empty_home: Path, capsys):
    paths = sessions_of_every_tool(empty_home)
    _loop(paths["claude"].parent, "a.jsonl", "b.jsonl")
    _loop(paths["codex"].parent, "rollout-a.jsonl", "rollout-b.jsonl")
    found = {session.path for session in discover(empty_home, {})}
    assert found == set(paths.values())
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 4 and all(line.startswith("inspector: ") for line in err)
    assert any(line.startswith(f"inspector: {paths['claude'].parent / 'a.jsonl'}: skipped (") for line in err)


def test_a_looping_folder_link_costs_only_itself(empty_home: Path, capsys):
    projects = empty_home / ".claude" / "projects"
    session = put(TOOL_SAMPLES / "claude-code.jsonl", projects / "-tmp-cc-work" / f"{CLAUDE_ID}.jsonl", 1_700_000_000)
    _loop(projects, "-loop-a", "-loop-b")
    days = empty_home / ".codex" / "sessions" / "2026" / "11"
    rollout = put(TOOL_SAMPLES / "codex.rollout.jsonl", days / "24" / CODEX_NAME, 1_700_000_100)
    _loop(days, "25", "26")
    assert [found.path for found in discover(empty_home, {})] == [rollout, session]
    assert len(capsys.readouterr().err.splitlines()) == 4


def test_scan_with_no_path_reads_the_sessions_beside_a_loop(empty_home: Path, capsys):
    paths = sessions_of_every_tool(empty_home)
    _loop(paths["claude"].parent, "a.jsonl", "b.jsonl")
    main(["scan", "--json"])
    out, err = capsys.readouterr()
    read = {entry["path"] for entry in json.loads(out)["sessions"]}
    assert str(paths["claude"]) in read
    assert "no sessions of your own found" not in err


def test_a_tool_s_folder_that_loops_leaves_an_export_beside_its_file(empty_home: Path, tmp_path: Path):
    _loop(empty_home, ".claude", ".claude-b")
    assert not kept_by_a_tool(tmp_path / "session.jsonl")
    assert kept_by_a_tool(empty_home / ".claude" / "projects" / "-p" / "a.jsonl")
