"""The command palette's view of a screen's keys: every binding with a description is a command.

One list of bindings per screen feeds the footer, the help screen (`?`) and the palette, so the
three can never disagree.
"""

from __future__ import annotations

from functools import partial
from typing import TypeVar

from textual.binding import Binding
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.screen import Screen

Result = TypeVar("Result")  # what the screen gives back when it closes


def described_bindings(screen: Screen[Result]) -> list[tuple[str, str, str]]:
    """(keys as shown, description, action) of each binding of `screen` that has a description."""
    rows = []
    for binding in type(screen).BINDINGS:
        if isinstance(binding, Binding) and binding.description:
            # A binding's own display names all its keys (`N` for `N,shift+n`); else each key's, once.
            keys = binding.key_display or "/".join(
                dict.fromkeys(screen.app.get_key_display(Binding(key, "")) for key in binding.key.split(","))
            )
            rows.append((keys, binding.tooltip or binding.description, binding.action))
    return rows


def help_rows(screen: Screen[Result]) -> list[tuple[str, str]]:
    """(keys, description) of each described binding, for the help screen, then the app's own
    keys (any screen) and the palette's key."""
    rows = [(keys, description) for keys, description, _ in described_bindings(screen)]
    app_keys = [
        (screen.app.get_key_display(binding), binding.tooltip or binding.description)
        for binding in type(screen.app).BINDINGS
        if isinstance(binding, Binding) and binding.tooltip
    ]
    return (
        rows + app_keys + [(screen.app.get_key_display(Binding("ctrl+p", "")), "Command palette: every action by name")]
    )


class ScreenKeys(Provider):
    """Offers the current screen's key actions in the command palette."""

    def _commands(self) -> list[tuple[str, str, str]]:
        return described_bindings(self.screen)

    async def discover(self) -> Hits:
        """Every key action, before anything is typed."""
        for keys, description, action in self._commands():
            yield DiscoveryHit(description, partial(self.screen.run_action, action), help=f"key: {keys}")

    async def search(self, query: str) -> Hits:
        """The key actions whose description matches `query`."""
        matcher = self.matcher(query)
        for keys, description, action in self._commands():
            score = matcher.match(description)
            if score > 0:
                yield Hit(
                    score,
                    matcher.highlight(description),
                    partial(self.screen.run_action, action),
                    text=description,
                    help=f"key: {keys}",
                )
