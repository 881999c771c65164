"""The Textual app: the picker for a directory, or a session file straight in review."""

from __future__ import annotations

from pathlib import Path

from textual.app import App

from inspector.errors import InspectorError
from inspector.formats import session_files
from inspector.tui.picker import PickerScreen
from inspector.tui.review_screen import ReviewScreen


class InspectorApp(App[None]):
    """Review the findings of session files and export the repaired sessions."""

    TITLE = "inspector"

    def __init__(self, target: Path) -> None:
        """Raises `InspectorError` (one line) when `target` is a directory without session files."""
        super().__init__()
        self.target = target
        self.files = [target] if target.is_file() else session_files(target)
        if not self.files:
            raise InspectorError(f"{target}: no session files (*.json, *.jsonl) in this directory")

    def on_mount(self) -> None:
        if self.target.is_file():
            self.push_screen(ReviewScreen(self.target))
        else:
            self.push_screen(self._picker())

    def back_to_sessions(self) -> None:
        """Leave the review screen for the list of sessions (of its file, when it was opened directly)."""
        if isinstance(self.screen_stack[-2], PickerScreen):
            self.pop_screen()
        else:
            self.switch_screen(self._picker())

    def _picker(self) -> PickerScreen:
        where = self.target.name if self.target.is_file() else str(self.target)
        return PickerScreen(self.files, f"Sessions in {where} · Enter opens one")
