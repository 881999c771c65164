"""The list of hits on the search screen: two lines a hit (`hit_text`), the first highlighted
when an answer arrives; Enter (or a click) on one posts the list's `OptionSelected`."""

from __future__ import annotations

from collections.abc import Sequence

from textual.widgets import OptionList
from textual.widgets.option_list import Option

from inspector.search import Hit
from inspector.tui.search.hit_text import hit_text


class HitList(OptionList):
    """The hits of the latest answer, best first."""

    DEFAULT_CSS = """
    HitList { height: 1fr; border: none; }
    HitList > .option-list--option { padding: 0 1; }
    """

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        self.hits: list[Hit] = []

    def show(self, hits: Sequence[Hit]) -> None:
        """List `hits`, the first highlighted."""
        self.hits = list(hits)
        self.set_options(Option(hit_text(hit), id=str(number)) for number, hit in enumerate(self.hits))
        if self.hits:
            self.highlighted = 0

    def hit_at(self, index: int) -> Hit | None:
        """The hit at `index` in the list (None past its end)."""
        return self.hits[index] if 0 <= index < len(self.hits) else None
