"""A host app for one dialog: it pushes the dialog on mount and records what it is dismissed with."""

from __future__ import annotations

from textual.app import App
from textual.screen import Screen


class Host(App[None]):
    """Pushes one screen on mount and records the result it is dismissed with."""

    def __init__(self, screen: Screen) -> None:
        super().__init__()
        self.dialog, self.results = screen, []

    def on_mount(self) -> None:
        self.push_screen(self.dialog, self.results.append)
