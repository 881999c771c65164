"""What every dialog of the app shares: the frame they are drawn in (a bordered box in the middle
of the screen, its buttons to the right), and a checkbox that only space ticks."""

from __future__ import annotations

from textual.binding import Binding
from textual.content import Content
from textual.widgets import Checkbox

DIALOG_CSS = """
{name} {{
    align: center middle;
}}
{name} > Vertical {{
    width: 80;
    max-width: 90%;
    height: auto;
    padding: 1 2;
    border: thick $primary;
    background: $surface;
}}
{name} .buttons {{
    height: auto;
    margin-top: 1;
    align-horizontal: right;
}}
{name} .buttons Button {{
    margin-left: 2;
}}
"""


class SpaceToggles(Checkbox, inherit_bindings=False):
    """A checkbox toggled by space only, so that enter reaches the dialog and exports; ticked it
    shows "X" in its box, else the box is empty, so its state reads without colour."""

    BINDINGS = [Binding("space", "toggle_button", "Toggle", show=False)]

    @property
    def _button(self) -> Content:
        """The box, in Textual's colours for a ticked or empty box, with "X" only when ticked."""
        box = super()._button
        return box if self.value else Content.assemble(box[:1], (" ", self.get_visual_style("toggle--button")), box[2:])
