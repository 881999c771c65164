"""How the objects a screen owns tell the person something (`Tell`): a notification whose text is
shown as it is, since it may hold paths and model text."""

from __future__ import annotations

from typing import Protocol

from textual.notifications import SeverityLevel


class Tell(Protocol):
    """`tell(message, title=..., severity=..., timeout=...)`: notify the person of `message`, with
    the options Textual's `notify` takes."""

    def __call__(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
    ) -> None:
        """Show the notification."""
