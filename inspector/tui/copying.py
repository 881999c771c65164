"""Copying to the clipboard, from any screen. Textual copies through OSC 52, which some terminals
ignore, so every notice says the copy depends on it."""

from __future__ import annotations

from collections.abc import Callable

from textual.app import App

OSC52 = "if your terminal accepts OSC 52"


def copy_to_clipboard(app: App, text: str, what: str, tell: Callable[..., object]) -> None:
    """Copy `text` and say what was copied, and that the terminal must accept OSC 52."""
    app.copy_to_clipboard(text)
    tell(f"Copied {what} ({OSC52})")
