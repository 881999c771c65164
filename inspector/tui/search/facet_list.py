"""The facets beside the hits: under a heading for each facet, each value with its count of
findings, the chosen one marked; Enter on a value chooses it (or clears it, when chosen)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from inspector.support.safe_text import one_line
from inspector.tui.search.facets import FacetValue

CHOSEN, NOT_CHOSEN = "✓ ", "  "


class FacetList(OptionList):
    """The values of every facet with their counts."""

    DEFAULT_CSS = """
    FacetList { width: 36; max-width: 40%; height: 1fr; border-left: vkey $panel-lighten-2; }
    """

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        self.values: list[FacetValue] = []

    def show(self, values: Sequence[FacetValue]) -> None:
        """List `values`, facet by facet, keeping the highlight on the value it was on."""
        was = self.value_at(self.highlighted) if self.highlighted is not None else None
        self.values = list(values)
        options: list[Option] = []
        facet = None
        for number, value in enumerate(self.values):
            if value.facet != facet:
                facet = value.facet
                options.append(Option(Text(f"findings by {facet}", style="bold"), disabled=True))
            options.append(Option(_line(value), id=str(number), disabled=not value.choosable))
        if not options:
            options.append(Option(Text("no findings in what matches"), disabled=True))
        self.set_options(options)
        if was is not None:
            again = next((n for n, v in enumerate(self.values) if (v.facet, v.value) == (was.facet, was.value)), None)
            if again is not None:
                self.highlighted = self.get_option_index(str(again))

    def value_at(self, index: int) -> FacetValue | None:
        """The facet value of the option at `index` (None for a heading)."""
        option_id = self.get_option_at_index(index).id
        return self.values[int(option_id)] if option_id is not None else None


def _line(value: FacetValue) -> Text:
    """A value's line: its mark when chosen, its count, its name (cut to the list's width)."""
    line = Text(CHOSEN if value.chosen else NOT_CHOSEN, style="bold", no_wrap=True, overflow="ellipsis")
    line.append(f"{value.count:>5,}  ")
    line.append(one_line(value.value), style="bold" if value.chosen else "")
    return line
