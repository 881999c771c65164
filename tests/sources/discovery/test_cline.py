"""Finding the sessions of Cline's CLI and of the VS Code extensions Cline, Roo Code and Kilo Code
(`discovery.cline`, `cline_vscode`, `roo_code`, `kilo_code`), on a temporary home folder only: the
CLI's messages files where its variables put them, with the project its `<id>.json` names; each
extension's tasks in each editor's global storage on each system; what is not a session left out."""

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
        FoundSession("Cline CLI", second, "", 1_700_000_060, second.stat().st_size),
        FoundSession("Cline CLI", first, "/tmp/cl-work", 1_700_000_000, first.stat().st_size),
    ]


def test_each_variable_moves_the_cli_s_folder_and_an_empty_one_is_unset(empty_home: Path, tmp_path: Path):
    def cline_places(environ: dict[str, str]) -> list[Path]:
        return [place.path for place in places(empty_home, environ, "linux") if place.tool == "Cline CLI"]

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


def _task(storage: Path, extension: str, task_id: str, sample: str, modified: float) -> Path:
    task = storage / extension / "tasks" / task_id
    for side in ("ui_messages.json", "task_metadata.json"):
        (task / side).parent.mkdir(parents=True, exist_ok=True)
        (task / side).write_text("[]")
    return put(TOOL_SAMPLES / sample, task / "api_conversation_history.json", modified)


def test_the_vs_code_extensions_tasks_are_found_in_each_editor(empty_home: Path):
    code = empty_home / ".config" / "Code" / "User" / "globalStorage"
    cursor = empty_home / ".config" / "Cursor" / "User" / "globalStorage"
    cline = _task(code, "saoudrizwan.claude-dev", "1795800000000", "cline.api_conversation_history.json", 1_700_000_000)
    roo = _task(cursor, "rooveterinaryinc.roo-cline", "0f1c", "roo-code.api_conversation_history.json", 1_700_000_060)
    kilo = _task(code, "kilocode.kilo-code", "7a6b", "kilo-code.api_conversation_history.json", 1_700_000_120)
    (code / "saoudrizwan.claude-dev" / "state").mkdir()
    (code / "saoudrizwan.claude-dev" / "state" / "taskHistory.json").write_text("[]")
    assert [(found.tool, found.path) for found in discover(empty_home, {})] == [
        ("Kilo Code", kilo),
        ("Roo Code", roo),
        ("Cline (VS Code)", cline),
    ]


def test_the_editors_folders_on_each_system(empty_home: Path):
    def cline_places(environ: dict[str, str], platform: str) -> list[Path]:
        return [place.path for place in places(empty_home, environ, platform) if place.tool == "Cline (VS Code)"]

    tail = Path("Code") / "User" / "globalStorage" / "saoudrizwan.claude-dev" / "tasks"
    assert cline_places({}, "linux")[0] == empty_home / ".config" / tail
    assert cline_places({"XDG_CONFIG_HOME": "/x"}, "linux")[0] == Path("/x") / tail
    assert cline_places({}, "darwin")[0] == empty_home / "Library" / "Application Support" / tail
    assert (
        cline_places({"APPDATA": "C:/Users/me/AppData/Roaming"}, "win32")[0]
        == Path("C:/Users/me/AppData/Roaming") / tail
    )
    assert [path.parents[3].name for path in cline_places({}, "linux")] == [
        "Code",
        "Code - Insiders",
        "VSCodium",
        "Cursor",
        "Windsurf",
    ]


def test_scan_with_no_path_reads_a_task_in_its_own_format(empty_home: Path, capsys):
    code = empty_home / ".config" / "Code" / "User" / "globalStorage"
    _task(code, "saoudrizwan.claude-dev", "1795800000000", "cline.api_conversation_history.json", 1_700_000_000)
    assert main(["scan"]) == 1
    assert "(cline-task, 10 turns, 2 findings)" in capsys.readouterr().out
