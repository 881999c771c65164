"""The fixtures of the app's tests: a copy of a sample session to review, and the apps `inspector`
would have run."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from inspector.tui.app import InspectorApp
from tests.helpers.samples import SESSIONS


@pytest.fixture
def session_copy(tmp_path: Path) -> Path:
    """The memory-agent sample copied into tmp_path, so nothing is written into the package."""
    return Path(shutil.copy(SESSIONS / "memory-agent.openai.json", tmp_path / "memory-agent.openai.json"))


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[InspectorApp]:
    """The apps `inspector` would run (their `run` is kept from blocking: the test drives them)."""
    apps: list[InspectorApp] = []
    monkeypatch.setattr(InspectorApp, "run", lambda self, *args, **kwargs: apps.append(self))
    return apps
