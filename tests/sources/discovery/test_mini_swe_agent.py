"""Finding mini-swe-agent's trajectories (`inspector.sources.discovery.mini_swe_agent`) on a
temporary home folder only: its global config folder on each system, the variables that move it,
and only `*.traj.json` files there."""

from __future__ import annotations

from pathlib import Path

from inspector.cli.main import main
from inspector.sources.discovery import FoundSession, discover, places
from tests.helpers.home_sessions import put
from tests.helpers.samples import TOOL_SAMPLES

TRAJECTORY = TOOL_SAMPLES / "mini-swe-agent.traj.json"
LAST_RUN = "last_mini_run.traj.json"


def test_the_last_run_is_found_in_mini_s_default_folder(empty_home: Path):
    folder = empty_home / ".config" / "mini-swe-agent"
    path = put(TRAJECTORY, folder / LAST_RUN, 1_700_000_000)
    (folder / ".env").write_text("MSWEA_MODEL_NAME=openai/mock\n")  # mini's settings, not a session
    assert discover(empty_home, {}) == [FoundSession("mini-swe-agent", path, "", 1_700_000_000, path.stat().st_size)]


def test_each_variable_moves_mini_s_folder_and_an_empty_one_is_unset(empty_home: Path, tmp_path: Path):
    moved = put(TRAJECTORY, tmp_path / "mini" / LAST_RUN, 1_700_000_000)
    xdg = put(TRAJECTORY, tmp_path / "xdg" / "mini-swe-agent" / LAST_RUN, 1_700_000_000)
    default = put(TRAJECTORY, empty_home / ".config" / "mini-swe-agent" / LAST_RUN, 1_700_000_000)
    found = {
        name: [session.path for session in discover(empty_home, environ)]
        for name, environ in {
            "moved": {"MSWEA_GLOBAL_CONFIG_DIR": str(tmp_path / "mini"), "XDG_CONFIG_HOME": str(tmp_path / "xdg")},
            "xdg": {"XDG_CONFIG_HOME": str(tmp_path / "xdg")},
            "empty": {"MSWEA_GLOBAL_CONFIG_DIR": ""},
        }.items()
    }
    assert found == {"moved": [moved], "xdg": [xdg], "empty": [default]}


def test_mini_s_folder_on_each_system(empty_home: Path):
    def mini(environ: dict[str, str], platform: str) -> Path:
        return {place.tool: place.path for place in places(empty_home, environ, platform)}["mini-swe-agent"]

    assert (
        mini({"XDG_CONFIG_HOME": "/x"}, "darwin") == empty_home / "Library" / "Application Support" / "mini-swe-agent"
    )
    assert mini({"LOCALAPPDATA": "C:/L"}, "win32") == Path("C:/L/mini-swe-agent/mini-swe-agent")
    assert mini({}, "win32") == empty_home / "AppData" / "Local" / "mini-swe-agent" / "mini-swe-agent"


def test_scan_with_no_path_reads_the_trajectory_found(empty_home: Path, capsys):
    path = put(TRAJECTORY, empty_home / ".config" / "mini-swe-agent" / LAST_RUN, 1_700_000_000)
    assert main(["scan"]) == 1
    out = capsys.readouterr().out
    assert f"{path}  (mini-swe-agent, 16 turns, 6 findings)" in out
