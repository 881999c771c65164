"""Finding Qwen Code's chats (`inspector.sources.discovery.qwen_code`), on a temporary home folder
only: its projects folder and the older temporary one, the variables that move them, what is left
out, the project of each chat, and `scan` with no path reading them as Qwen Code's."""

from __future__ import annotations

import json
from pathlib import Path

from inspector.cli.main import main
from inspector.sources.discovery import FoundSession, agent_named, discover
from tests.helpers.home_sessions import put
from tests.helpers.samples import TOOL_SAMPLES

CHAT = TOOL_SAMPLES / "qwen-code.jsonl"
SESSION_ID = "03435728-ffcc-4f6d-b037-8d2b8f20823d"


def chats_in(qwen: Path) -> Path:
    """The sample where Qwen Code keeps it under its folder `qwen` (`~/.qwen`)."""
    return put(CHAT, qwen / "projects" / "-tmp-qw-work" / "chats" / f"{SESSION_ID}.jsonl", 1_700_000_000)


def test_a_chat_in_the_projects_folder_is_found_with_its_working_folder(empty_home: Path):
    path = chats_in(empty_home / ".qwen")
    assert discover(empty_home, {}) == [
        FoundSession("Qwen Code", path, "/tmp/qw-work", 1_700_000_000, path.stat().st_size)
    ]
    assert agent_named("Qwen Code").resume == "qwen --resume {id}"


def test_the_older_temporary_folder_and_what_is_left_out(empty_home: Path):
    chats = empty_home / ".qwen" / "tmp" / ("ab" * 32) / "chats"
    chats.mkdir(parents=True)
    (chats / "session-1.json").write_text("{}")  # no cwd in its head: the folder's name is the project
    put(CHAT, chats / "session-2.jsonl", 1_700_000_000)
    for name in ("notes.txt", "session-2.jsonl.audit.ndjson", "session-2.jsonl.review.json", "../logs.json"):
        put(CHAT, chats / name, 1_700_000_000)
    put(CHAT, empty_home / ".qwen" / "projects" / "p" / "memory" / "x.jsonl", 1_700_000_000)
    found = {str(f.path.relative_to(empty_home)): f.project for f in discover(empty_home, {})}
    assert found == {
        f".qwen/tmp/{'ab' * 32}/chats/session-1.json": "ab" * 32,
        f".qwen/tmp/{'ab' * 32}/chats/session-2.jsonl": "/tmp/qw-work",
    }


def test_qwen_home_and_the_runtime_folder_move_it_and_an_empty_one_is_unset(empty_home: Path, tmp_path: Path):
    default = chats_in(empty_home / ".qwen")
    home = chats_in(tmp_path / "qwen-home")
    runtime = chats_in(tmp_path / "runtime")
    assert [f.path for f in discover(empty_home, {"QWEN_HOME": str(tmp_path / "qwen-home")})] == [home]
    both = {"QWEN_HOME": str(tmp_path / "qwen-home"), "QWEN_RUNTIME_DIR": str(tmp_path / "runtime")}
    assert [f.path for f in discover(empty_home, both)] == [runtime]
    assert [f.path for f in discover(empty_home, dict.fromkeys(both, ""))] == [default]


def test_scan_with_no_path_reads_the_chat_as_qwen_code(empty_home: Path, capsys):
    path = chats_in(empty_home / ".qwen")
    assert main(["scan", "--json"]) == 1
    (session,) = json.loads(capsys.readouterr().out)["sessions"]
    assert (session["path"], session["format"], session["session_id"]) == (str(path), "qwen-code", SESSION_ID)
    assert [(f["turn"], f["kind"]) for f in session["findings"]] == [(3, "result-prefix"), (7, "tool-markup")]
