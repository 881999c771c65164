"""Finding OpenCode's and Kilo CLI's databases (`inspector.sources.discovery.opencode`, `kilo`), on
a temporary home folder only: the data folder, the variables that move it or name another
database, the date of the last write (the WAL's), and `scan` with no path reading each database's
sessions as the opencode schema."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from inspector.cli.main import main
from inspector.sources.discovery import FoundSession, agent_named, discover
from tests.helpers.home_sessions import put
from tests.helpers.samples import TOOL_SAMPLES

TOOLS = {"OpenCode": ("opencode", "OPENCODE_DB"), "Kilo CLI": ("kilo", "KILO_DB")}
each_tool = pytest.mark.parametrize("tool", list(TOOLS))


def database_in(data: Path, tool: str, modified: float = 1_700_000_000) -> Path:
    """The tool's sample where it keeps it under the data folder `data` (`~/.local/share`)."""
    app = TOOLS[tool][0]
    return put(TOOL_SAMPLES / f"{app}.db", data / app / f"{app}.db", modified)


@each_tool
def test_the_database_in_the_data_folder_is_found_as_one_history(tool, empty_home: Path):
    path = database_in(empty_home / ".local" / "share", tool)
    assert discover(empty_home, {}) == [FoundSession(tool, path, "", 1_700_000_000, path.stat().st_size)]
    assert agent_named(tool).history and agent_named(tool).resume == f"{TOOLS[tool][0]} --session {{id}}"


@each_tool
def test_its_date_is_the_last_write_its_wal_holds(tool, empty_home: Path):
    path = database_in(empty_home / ".local" / "share", tool)
    log = path.with_name(path.name + "-wal")
    log.write_bytes(b"")
    os.utime(log, (1_700_000_500, 1_700_000_500))
    assert [found.modified for found in discover(empty_home, {})] == [1_700_000_500]


@each_tool
def test_the_data_folder_and_the_database_variable_move_it(tool, empty_home: Path, tmp_path: Path):
    app, variable = TOOLS[tool]
    default = database_in(empty_home / ".local" / "share", tool)
    moved = database_in(tmp_path / "data", tool)
    elsewhere = put(TOOL_SAMPLES / f"{app}.db", tmp_path / "own.db", 1_700_000_000)
    beside = put(TOOL_SAMPLES / f"{app}.db", default.with_name("other.db"), 1_700_000_000)
    assert [f.path for f in discover(empty_home, {"XDG_DATA_HOME": str(tmp_path / "data")})] == [moved]
    assert [f.path for f in discover(empty_home, {variable: str(elsewhere)})] == [elsewhere]
    assert [f.path for f in discover(empty_home, {variable: "other.db"})] == [beside]
    assert [f.path for f in discover(empty_home, {variable: ""})] == [default]
    assert discover(empty_home, {variable: ":memory:"}) == []


def test_scan_with_no_path_reads_both_databases_as_opencode_sessions(empty_home: Path, capsys):
    for tool in TOOLS:
        database_in(empty_home / ".local" / "share", tool)
    assert main(["scan", "--json"]) == 1
    sessions = json.loads(capsys.readouterr().out)["sessions"]
    assert sorted((Path(s["path"]).name, s["format"]) for s in sessions) == [
        ("kilo.db", "opencode"),
        ("opencode.db", "opencode"),
    ]
    assert all(s["session_id"].startswith("ses_") and len(s["findings"]) == 4 for s in sessions)
