"""The turn list: every turn of a session, one line each, rendered through Textual's line API.

Only the lines on screen are built (like Toolong's log view), so a session of 200,000 turns costs
one integer per row, not a widget per turn. Model text is shown as plain `Text`, neutralised; the
places of a search's text in it are highlighted (`highlight`).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.cache import LRUCache
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from inspector.model import ToolResult, Turn
from inspector.support.safe_text import preview
from inspector.tui.review.search import SessionSearch
from inspector.view.results import result_line

# A flagged turn whose findings were decided differently: some fixes approved (or edited), others skipped.
MIXED = "mixed"
# One glyph per review status of a turn, so a decided turn reads at a glance, and what each means
# (the help screen's legend).
MARKS = (
    ("pending", "•", "a finding still to decide"),
    ("approved", "✓", "fixes approved"),
    ("edited", "✎", "a fix edited and approved"),
    ("skipped", "–", "findings skipped"),
    (MIXED, "±", "some fixes approved, others skipped"),
)
STATUS_GLYPHS = {status: glyph for status, glyph, _ in MARKS}


@dataclass(frozen=True)
class TurnMark:
    """How a flagged turn is marked: its finding kinds, worst severity and review status (that of
    each of its findings, or `MIXED`)."""

    kinds: str
    severity: str
    status: str


class TurnList(ScrollView, can_focus=True):
    """A virtualised list of turns with a cursor; posts `TurnList.Selected` when the cursor moves."""

    COMPONENT_CLASSES = {
        "turn-list--cursor",
        "turn-list--error",
        "turn-list--warning",
        "turn-list--info",
        "turn-list--muted",
        "turn-list--match",
    }
    DEFAULT_CSS = """
    TurnList { background: $surface; overflow-x: hidden; }
    TurnList > .turn-list--cursor { background: $accent 50%; text-style: bold; }
    TurnList > .turn-list--error { color: $text-error; }
    TurnList > .turn-list--warning { color: $text-warning; }
    TurnList > .turn-list--info { color: $text-primary; }
    TurnList > .turn-list--muted { color: $text-muted; }
    TurnList > .turn-list--match { color: $text; background: $warning-muted; text-style: bold; }
    """
    BINDINGS = [
        Binding("down", "move(1)", "Down", show=False),
        Binding("up", "move(-1)", "Up", show=False),
        Binding("pagedown", "page(1)", "Page down", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("home,g", "jump(0)", "First turn", show=False),
        Binding("end,G", "jump(-1)", "Last turn", show=False),
    ]

    cursor = reactive(0, always_update=True, init=False)

    class Selected(Message):
        """The cursor moved to the turn at `position` (None when the list is empty)."""

        def __init__(self, position: int | None) -> None:
            super().__init__()
            self.position = position

        def can_replace(self, message: Message) -> bool:
            """A later selection supersedes a pending one, so held-down keys do not queue up detail redraws."""
            return isinstance(message, TurnList.Selected)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._turns: Sequence[Turn] = ()
        self._positions: list[int] = []  # the position of each turn, for bisection
        self._marks: dict[int, TurnMark] = {}
        self._rows: list[int] = []  # indices into _turns of the rows shown
        self._flagged_only = False
        self._search: SessionSearch | None = None
        self._lines: LRUCache[tuple[int, int, bool], Strip] = LRUCache(1024)
        self._call_names: dict[str, str] | None = None  # each call's tool by its id, when first needed

    # ---- content -------------------------------------------------------------------------------

    def show_turns(self, turns: Sequence[Turn]) -> None:
        """Show `turns`, unmarked (`update_marks` marks the flagged ones)."""
        self._turns = turns
        self._call_names = None
        self._positions = [turn.position for turn in turns]
        self._marks = {}
        self._rebuild_rows(keep=None)

    def update_marks(self, marks: dict[int, TurnMark]) -> None:
        """Replace the marks of the given positions (after a decision) and redraw."""
        self._marks.update(marks)
        self._lines.clear()
        self.refresh()

    def highlight(self, search: SessionSearch | None) -> None:
        """Highlight the places of `search`'s text in the lines (None: no search)."""
        self._search = search
        self._lines.clear()
        self.refresh()

    @property
    def flagged_only(self) -> bool:
        """Whether only flagged turns are listed."""
        return self._flagged_only

    def set_flagged_only(self, flagged_only: bool) -> None:
        """List only flagged turns (or all), keeping the selected turn when it is still listed."""
        self._flagged_only = flagged_only
        self._rebuild_rows(keep=self.position)

    def _rebuild_rows(self, keep: int | None) -> None:
        if self._flagged_only:
            self._rows = sorted(bisect_left(self._positions, p) for p in self._marks)
        else:
            self._rows = list(range(len(self._turns)))
        self._lines.clear()
        self.virtual_size = Size(self.scrollable_content_region.width, len(self._rows))
        target = self._nearest_row(keep) if keep is not None else 0
        self.cursor = min(target, max(len(self._rows) - 1, 0))
        self.refresh()

    # ---- navigation ----------------------------------------------------------------------------

    @property
    def position(self) -> int | None:
        """The position of the selected turn."""
        if not self._rows:
            return None
        return self._turns[self._rows[self.cursor]].position

    def select_position(self, position: int) -> None:
        """Move the cursor to the turn at `position` (listing every turn if it is hidden)."""
        row = self._row_of(position)
        if row is None and self._flagged_only:
            self.set_flagged_only(False)
            row = self._row_of(position)
        if row is not None:
            self.cursor = row

    def _row_of(self, position: int) -> int | None:
        index = bisect_left(self._positions, position)
        if index >= len(self._positions) or self._positions[index] != position:
            return None
        if not self._flagged_only:
            return index
        row = bisect_left(self._rows, index)
        return row if row < len(self._rows) and self._rows[row] == index else None

    def _nearest_row(self, position: int) -> int:
        index = bisect_left(self._positions, position)
        return min(bisect_left(self._rows, index), max(len(self._rows) - 1, 0))

    def next_position(self, candidates: Sequence[int], forward: bool) -> int | None:
        """The first of the sorted `candidates` after (or before) the selected turn, wrapping round."""
        if not candidates:
            return None
        here = self.position if self.position is not None else -1
        if forward:
            index = bisect_right(candidates, here)
            return candidates[index % len(candidates)]
        index = bisect_left(candidates, here) - 1
        return candidates[index % len(candidates)]

    def action_move(self, step: int) -> None:
        """Move the cursor by `step` rows."""
        if self._rows:
            self.cursor = max(0, min(len(self._rows) - 1, self.cursor + step))

    def action_page(self, direction: int) -> None:
        """Move the cursor by one screenful."""
        self.action_move(direction * max(self.scrollable_content_region.height - 1, 1))

    def action_jump(self, row: int) -> None:
        """Move the cursor to the first (0) or last (-1) row."""
        if self._rows:
            self.cursor = row % len(self._rows)

    def watch_cursor(self, old: int, new: int) -> None:
        self.refresh_line(old)
        self.refresh_line(new)
        self.scroll_to_region(Region(0, new, 1, 1), animate=False, immediate=True, force=True)
        self.post_message(self.Selected(self.position))

    def on_click(self, event: events.Click) -> None:
        row = event.y + self.scroll_offset.y
        if 0 <= row < len(self._rows):
            self.cursor = row

    def on_resize(self) -> None:
        self._lines.clear()
        self.virtual_size = Size(self.scrollable_content_region.width, len(self._rows))
        self.call_after_refresh(self._keep_cursor_in_view)  # once the new height is laid out

    def _keep_cursor_in_view(self) -> None:
        self.scroll_to_region(Region(0, self.cursor, 1, 1), animate=False, immediate=True, force=True)

    # ---- rendering -----------------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        row = y + self.scroll_offset.y
        width = self.scrollable_content_region.width
        if row >= len(self._rows):
            return Strip.blank(width, self.rich_style)
        selected = row == self.cursor
        key = (row, width, selected)
        strip = self._lines.get(key)
        if strip is None:
            strip = self._lines[key] = self._build_line(self._turns[self._rows[row]], width, selected)
        return strip

    def _build_line(self, turn: Turn, width: int, selected: bool) -> Strip:
        mark = self._marks.get(turn.position)
        # the list's own colours under the whole line (not the terminal's: unreadable on a light theme)
        line = Text(no_wrap=True, overflow="ellipsis", end="", style=self.rich_style)
        line.append(f"{turn.position:>7} ", self.get_component_rich_style("turn-list--muted"))
        line.append(f"{turn.role:<9.9} ")
        if mark is not None:
            style = self.get_component_rich_style(f"turn-list--{mark.severity}")
            line.append(f"{STATUS_GLYPHS.get(mark.status, '?')} {mark.kinds} ", style + Style(bold=True))
        shown, start = preview(turn.text or self._calls_summary(turn, width), max(width, 1)), len(line)
        line.append(shown)
        line.truncate(width, overflow="ellipsis", pad=True)
        base = self.rich_style
        if selected:
            base = base + self.get_component_rich_style("turn-list--cursor")
            line.stylize(self.get_component_rich_style("turn-list--cursor"))
        if self._search is not None:  # over the cursor's style: a match stays in view on the selected turn
            match = self.get_component_rich_style("turn-list--match")
            for first, end in self._search.spans(shown):
                line.stylize(match, start + first, start + end)
        segments = list(line.render(self.app.console))  # on the list's own colours, as a light theme needs
        return Strip(segments, width).apply_style(base).crop_extend(0, width, base).simplify()

    def _calls_summary(self, turn: Turn, width: int) -> str:
        """A first line for a turn without text: the calls it makes, or the tools whose results it
        carries (named by their calls where the results name no tool, as Anthropic's and Goose's)
        and, for one result, the start of what it says."""
        if turn.tool_calls:
            return "calls " + ", ".join(call.name for call in turn.tool_calls)
        if not turn.tool_results:
            return ""
        tools = "result of " + ", ".join(self._tool_of(result) for result in turn.tool_results)
        said = result_line(turn.tool_results[0].content, max(width, 1)) if len(turn.tool_results) == 1 else ""
        return f"{tools}: {said}" if said else tools

    def _tool_of(self, result: ToolResult) -> str:
        """The tool a result answers: its own name, else its call's (by id), else the call's id."""
        if result.name:
            return result.name
        if result.call_id is None:
            return "?"
        if self._call_names is None:
            self._call_names = {call.id: call.name for turn in self._turns for call in turn.tool_calls if call.id}
        return self._call_names.get(result.call_id) or result.call_id

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._lines.clear()
