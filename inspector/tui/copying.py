"""Copying to the clipboard, from any screen. Textual copies through OSC 52, which some terminals
ignore, so every notice says the copy depends on it."""

from __future__ import annotations

from textual.app import App

from inspector.tui.notices import Tell

OSC52 = "if your terminal accepts OSC 52"


def copy_to_clipboard(app: App[object], text: str, what: str, tell: Tell) -> None:
    """Copy `text` and say what was copied, and that the terminal must accept OSC 52."""
    app.copy_to_clipboard(text)
    tell(f"Copied {what} ({OSC52})")
