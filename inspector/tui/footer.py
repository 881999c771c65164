"""A footer that keeps the keys a screen needs most in view on a narrow terminal.

Textual's footer lists a screen's shown bindings in order and cuts off what does not fit, so on
80 columns the last keys (search, copy...) were lost. This one hides keys that do not apply now
(the screen says which), then, while the keys are wider than the footer, those the screen names
as least needed, in that order; every key still works, and the help (`?`) lists them all.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey  # the footer's own key widget, which it composes


class FittingFooter(Footer):
    """A compact footer showing the keys that apply and fit, least needed hidden first."""

    def __init__(self, dropped_first: Sequence[str], applies: Callable[[str], bool] = lambda action: True) -> None:
        """`dropped_first`: the actions of the keys hidden first when they do not all fit, in
        that order; `applies(action)`: whether a key is shown at all now."""
        super().__init__(compact=True, show_command_palette=False)
        self.dropped_first = tuple(dropped_first)
        self.applies = applies
        self._composed: tuple[tuple[str, str, str, bool, str], ...] | None = None  # the keys composed

    def bindings_changed(self, screen: Screen[object]) -> None:
        """Compose the keys again when the screen's keys changed (Textual says so on every change
        of focus); when only what applies may have, fit the same keys again."""
        shown = _shown_bindings(screen)
        if shown == self._composed and self._bindings_ready:
            self.call_after_refresh(self.fit)
            return
        super().bindings_changed(screen)

    def compose(self) -> ComposeResult:
        self._composed = _shown_bindings(self.screen) if self._bindings_ready else None
        for widget in super().compose():
            if isinstance(widget, FooterKey):
                # compact from the start: a key made compact once mounted has its styles worked
                # out again, one key at a time
                widget.add_class("-compact", update=False)
            yield widget
        self.call_after_refresh(self.fit)

    def on_resize(self) -> None:
        self.fit()

    def fit(self) -> None:
        """Show the keys that apply, then hide the least needed until the rest fit the width."""
        keys = list(self.query(FooterKey))
        for key in keys:
            key.display = self.applies(key.action)
        used = sum(_width(key) for key in keys if key.display)
        for action in self.dropped_first:
            for key in keys:
                if used <= self.size.width:
                    return
                if key.action == action and key.display:
                    key.display = False
                    used -= _width(key)

    def shown_actions(self) -> list[str]:
        """The actions of the keys in view (what a test or the person sees)."""
        return [key.action for key in self.query(FooterKey) if key.display]


def _shown_bindings(screen: Screen[object]) -> tuple[tuple[str, str, str, bool, str], ...]:
    """What the footer's keys are composed from: each shown binding's key, action, description,
    whether it is enabled, and its tooltip."""
    return tuple(
        (binding.key, binding.action, binding.description, enabled, tooltip)
        for _node, binding, enabled, tooltip in screen.active_bindings.values()
        if binding.show
    )


def _width(key: FooterKey) -> int:
    """The columns a key takes in the footer: its text and its margin."""
    return key.render().cell_len + key.styles.margin.width
