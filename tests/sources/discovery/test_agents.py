"""Finding a person's own sessions (`inspector.sources.discovery`), on a temporary home folder only:
the default places of Claude Code, Codex CLI, Gemini CLI and `llm`, the variables that move them,
what is left out, the project of each file, newest first, and reading no more than a file's head."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import inspector.sources.discovery as discovery
from inspector.cli.main import main
from inspector.sources.discovery import AGENTS, HEAD_BYTES, FoundSession, discover, places, shown_places
from tests.helpers.home_sessions import (
    CLAUDE_ID,
    CODEX_NAME,
    EVERY_AGENT,
    GEMINI_NAME,
    LINUX_PLACES_SHOWN,
    every_agent_s_session,
    put,
    sessions_of_every_tool,
)
from tests.helpers.samples import SESSIONS, TOOL_SAMPLES


def test_every_tool_s_default_place_newest_first_with_its_project(empty_home: Path):
    paths = sessions_of_every_tool(empty_home)
    found = discover(empty_home, {})
    assert found == [
        FoundSession("Gemini CLI", paths["gemini"], "/tmp/gm-work", 1_700_000_240, paths["gemini"].stat().st_size),
        FoundSession("llm", paths["llm"], "", 1_700_000_180, paths["llm"].stat().st_size),
        FoundSession("Codex", paths["codex"], "/tmp/cx-work", 1_700_000_120, paths["codex"].stat().st_size),
        FoundSession("Claude Code", paths["claude"], "/tmp/cc-work", 1_700_000_060, paths["claude"].stat().st_size),
    ]


def test_the_project_falls_back_on_the_folder_s_name(empty_home: Path):
    claude = empty_home / ".claude" / "projects" / "-home-me-proj"
    claude.mkdir(parents=True)
    # the first event with a cwd lies past the head: only the folder's name is known
    (claude / "a.jsonl").write_text(
        json.dumps({"type": "queue-operation", "content": "x" * HEAD_BYTES})
        + "\n"
        + json.dumps({"type": "user", "cwd": "/home/me/proj"})
        + "\n"
    )
    (claude / "b.jsonl").write_text('{"type":"summary","summary":"\\"cwd\\":\\"/not/a/key\\""}\n')
    (claude / "c.jsonl").write_text('{"type": "user", "cwd": "/home/me/spaced"}\n')  # as json.dumps writes it
    gemini = empty_home / ".gemini" / "tmp" / ("ab" * 32) / "chats"  # older versions: a hash, no .project_root
    gemini.mkdir(parents=True)
    (gemini / "session-1.json").write_text("{}")
    projects = {found.path.name: found.project for found in discover(empty_home, {})}
    assert projects == {
        "a.jsonl": "-home-me-proj",
        "b.jsonl": "-home-me-proj",
        "c.jsonl": "/home/me/spaced",
        "session-1.json": "ab" * 32,
    }


def test_what_is_not_a_person_s_session_is_left_out(empty_home: Path):
    project = empty_home / ".claude" / "projects" / "-p"
    for name in (
        f"{CLAUDE_ID}.jsonl",
        "agent-1a2b.jsonl",
        f"{CLAUDE_ID}/subagents/agent-1a2b.jsonl",
        "notes.json",
        f"{CLAUDE_ID}.jsonl.review.json",
        "x.audit.ndjson",
        f"{CLAUDE_ID}.jsonl.audit.jsonl",  # an audit as older versions named it
    ):
        put(TOOL_SAMPLES / "claude-code.jsonl", project / name, 1_700_000_000)
    codex = empty_home / ".codex"
    for name in (
        f"sessions/2026/11/24/{CODEX_NAME}",
        f"sessions/2026/11/24/{CODEX_NAME}.zst",
        f"sessions/{CODEX_NAME}",
        f"archived_sessions/{CODEX_NAME}",
        "sessions/2026/11/24/notes.jsonl",
    ):
        put(TOOL_SAMPLES / "codex.rollout.jsonl", codex / name, 1_700_000_000)
    chats = empty_home / ".gemini" / "tmp" / "p" / "chats"
    for name in (
        "session-1.jsonl",
        "session-2.json",
        "parent-id/sub-1.jsonl",
        "checkpoint-x.json",
        "../logs/session-1.jsonl",
        "session-1.jsonl.review.json",
    ):
        put(TOOL_SAMPLES / "gemini-cli.session.jsonl", chats / name, 1_700_000_000)
    found = sorted(str(found.path.relative_to(empty_home)) for found in discover(empty_home, {}))
    assert found == [
        f".claude/projects/-p/{CLAUDE_ID}.jsonl",
        f".codex/sessions/2026/11/24/{CODEX_NAME}",
        ".gemini/tmp/p/chats/session-1.jsonl",
        ".gemini/tmp/p/chats/session-2.json",
    ]


def test_each_variable_moves_its_tool_s_folder_and_an_empty_one_is_unset(empty_home: Path, tmp_path: Path):
    sessions_of_every_tool(empty_home)  # in the default places: not read once a variable moves them
    moved = sessions_of_every_tool(tmp_path / "elsewhere")
    environ = {
        "CLAUDE_CONFIG_DIR": str(tmp_path / "elsewhere" / ".claude"),
        "CODEX_HOME": str(tmp_path / "elsewhere" / ".codex"),
        "GEMINI_CLI_HOME": str(tmp_path / "elsewhere"),
        "LLM_USER_PATH": str(tmp_path / "elsewhere" / ".config" / "io.datasette.llm"),
    }
    assert {found.path for found in discover(empty_home, environ)} == set(moved.values())
    assert len(discover(empty_home, dict.fromkeys(environ, ""))) == 4  # the defaults, under empty_home

    xdg = tmp_path / "xdg"
    put(SESSIONS / "rails-chat.rubyllm.db", xdg / "io.datasette.llm" / "logs.db", 1_700_000_000)
    assert [found.path for found in discover(empty_home, {"XDG_CONFIG_HOME": str(xdg)}) if found.tool == "llm"] == [
        xdg / "io.datasette.llm" / "logs.db"
    ]


def test_gemini_s_sandbox_folder_and_llm_s_folder_on_each_system(empty_home: Path):
    sandboxed = put(
        TOOL_SAMPLES / "gemini-cli.session.jsonl",
        empty_home / ".cache" / ".gemini" / "tmp" / "p" / "chats" / GEMINI_NAME,
        1_700_000_000,
    )
    assert [found.path for found in discover(empty_home, {})] == [sandboxed]
    llm = {place.tool: place.path for place in places(empty_home, {"APPDATA": "C:/Users/me/AppData/Roaming"}, "win32")}
    assert llm["llm"] == Path("C:/Users/me/AppData/Roaming/io.datasette.llm/logs.db")
    llm = {place.tool: place.path for place in places(empty_home, {"XDG_CONFIG_HOME": "/x"}, "darwin")}
    assert llm["llm"] == empty_home / "Library" / "Application Support" / "io.datasette.llm" / "logs.db"


def test_the_places_looked_in_as_a_message_says_them(empty_home: Path):
    assert shown_places(places(empty_home, {}, "linux"), empty_home) == LINUX_PLACES_SHOWN


def test_only_each_file_s_head_is_read(empty_home: Path, monkeypatch: pytest.MonkeyPatch):
    project = empty_home / ".claude" / "projects" / "-p"
    project.mkdir(parents=True)
    event = json.dumps({"type": "user", "cwd": "/p", "message": {"content": "y" * 1000}}) + "\n"
    for number in range(5):
        (project / f"{number}.jsonl").write_text(event * 5000)  # 5 MB each
    read: list[int] = []
    real_read = os.read

    def counted(descriptor: int, size: int) -> bytes:
        data = real_read(descriptor, size)
        read.append(len(data))
        return data

    monkeypatch.setattr(os, "read", counted)
    found = discover(empty_home, {})
    assert [entry.project for entry in found] == ["/p"] * 5
    assert len(read) == 5 and max(read) == HEAD_BYTES


@pytest.mark.slow  # runs the real `llm` CLI
def test_the_real_llm_s_database_is_found_in_its_default_folder(empty_home: Path):
    environ = {key: value for key, value in os.environ.items() if key not in ("LLM_USER_PATH", "XDG_CONFIG_HOME")}
    done = subprocess.run(
        [sys.executable, "-m", "llm", "-m", "echo", "hi"],
        env=environ,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=empty_home,
    )
    assert done.returncode == 0, done.stderr
    [found] = discover(empty_home, {})
    assert (found.tool, found.path) == ("llm", empty_home / ".config" / "io.datasette.llm" / "logs.db")


def test_scan_with_no_path_scans_the_sessions_found(empty_home: Path, capsys):
    project = empty_home / ".claude" / "projects" / "-p"
    put(SESSIONS / "finetune.openai.jsonl", project / "a.jsonl", 1_700_000_000)  # a format read today
    real = sessions_of_every_tool(empty_home)
    code = main(["scan", "--json"])
    out, err = capsys.readouterr()
    report = json.loads(out)
    read = {entry["path"] for entry in report["sessions"]}
    assert str(project / "a.jsonl") in read
    for path in real.values():  # read, or said why not (until a reader of its format lands)
        assert str(path) in read or any(error.startswith(f"{path}: ") for error in report["errors"])
    assert code == (2 if report["errors"] else 1)


def test_every_agent_s_session_is_found_where_it_keeps_it_and_read_as_its_format(empty_home: Path, capsys):
    assert list(EVERY_AGENT) == [agent.name for agent in AGENTS]  # a new agent brings its sample here
    placed = every_agent_s_session(empty_home)
    found = discover(empty_home, {}, "linux")
    assert sorted((session.tool, str(session.path)) for session in found) == sorted(
        (agent, str(path)) for agent, path in placed.items()
    )
    assert main(["scan", "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["errors"] == []
    read = {(entry["path"], entry["format"]) for entry in report["sessions"]}
    assert read == {(str(placed[agent]), format_name) for agent, (_, _, format_name) in EVERY_AGENT.items()}


def test_scan_with_nothing_found_says_where_it_looked_and_exits_0(capsys):
    assert main(["scan"]) == 0
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"inspector: no sessions of your own found ({LINUX_PLACES_SHOWN}); give a path, or --samples\n"
    assert main(["scan", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["summary"]["sessions"] == 0


def test_scan_samples_scans_the_bundled_sessions_and_takes_no_path(capsys):
    assert main(["scan", "--samples", "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert {Path(entry["path"]).parent for entry in report["sessions"]} == {SESSIONS}
    assert main(["scan", "--samples", str(SESSIONS)]) == 2
    assert capsys.readouterr().err == "inspector: error: give paths or --samples, not both\n"


def test_scan_with_no_path_takes_session_but_not_table(empty_home: Path, capsys):
    put(SESSIONS / "finetune.openai.jsonl", empty_home / ".claude" / "projects" / "-p" / "a.jsonl", 1_700_000_000)
    assert main(["scan", "--session", "line 2"]) == 1
    assert "a.jsonl session line 2  (openai, 3 turns, 1 finding)" in capsys.readouterr().out
    assert main(["scan", "--session", "nope"]) == 2
    assert main(["scan", "--table", "t"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "inspector: error: no session 'nope' in your 1 session",
        "inspector: error: --table can only be used with the path of a file or database",
    ]


def test_every_agent_module_is_registered_once_and_looked_in():
    package = Path(discovery.__file__).parent
    modules = sorted(
        p.stem for p in package.glob("*.py") if p.stem not in ("__init__", "contract", "folders", "kept_in_folder")
    )
    registered = sorted(importlib.import_module(agent.places.__module__).__name__.rsplit(".", 1)[1] for agent in AGENTS)
    assert registered == modules
    looked = {place.tool for place in places(Path("/nowhere"), {}, "linux")}
    assert looked == {agent.name for agent in AGENTS}
