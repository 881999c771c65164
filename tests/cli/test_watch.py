"""`inspector watch`: the newest session file of the person's agents opened as `--follow` opens
one (a history database is not followed), under a temporary home holding every agent's sample."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import inspector.tui
from inspector.cli.main import main
from tests.helpers.home_sessions import every_agent_s_session


def test_watch_follows_the_newest_session_file(empty_home: Path, monkeypatch: pytest.MonkeyPatch):
    placed = every_agent_s_session(empty_home)
    os.utime(placed["Codex"], (1_800_000_000, 1_800_000_000))
    os.utime(placed["OpenCode"], (1_900_000_000, 1_900_000_000))  # a database: newer, but not followed
    opened: list[tuple[object, bool]] = []
    monkeypatch.setattr(inspector.tui, "run", lambda target, *rest: opened.append((target, rest[-1])) or 0)
    assert main(["watch"]) == 0
    assert opened == [(placed["Codex"], True)]


def test_watch_with_no_session_says_where_it_looked(capsys: pytest.CaptureFixture[str]):
    assert main(["watch"]) == 2
    error = capsys.readouterr().err
    assert error.startswith("inspector: error: no session file of your own to follow (Claude Code ~/.claude/projects, ")
    assert error.endswith("): give one to --follow\n")
