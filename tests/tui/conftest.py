"""The fixture of the app's tests: the apps `inspector` would have run."""

from __future__ import annotations

import pytest

from inspector.tui.app import InspectorApp


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[InspectorApp]:
    """The apps `inspector` would run (their `run` is kept from blocking: the test drives them)."""
    apps: list[InspectorApp] = []
    monkeypatch.setattr(InspectorApp, "run", lambda self, *args, **kwargs: apps.append(self))
    return apps
