"""The selected turn's detail: a header line, the original beside the repair, and the finding (or
the whole turn as exported) below them; what each pane shows is drawn by `detail_content`."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Static

from inspector.model import Turn
from inspector.tui.review.detail_content import (
    MUTED,
    FindingView,
    TurnView,
    finding_content,
    original_content,
    repair_content,
    turn_content,
    unflagged_content,
)


class TurnDetail(Vertical):
    """Original and repair side by side, the finding's facts below."""

    DEFAULT_CSS = """
    TurnDetail { height: 1fr; }
    TurnDetail #turn-header { height: 1; padding: 0 1; text-wrap: nowrap; text-overflow: ellipsis; }
    TurnDetail #sides { height: 1fr; }
    TurnDetail .pane, TurnDetail #finding-pane {
        border: round $foreground 25%; border-title-color: $text-accent; padding: 0 1;
    }
    TurnDetail .pane { width: 1fr; }
    TurnDetail .pane:focus { border: round $accent; }
    TurnDetail #finding-pane { height: auto; max-height: 45%; }  /* leaves the sides room on 24 rows */
    .-short TurnDetail #finding-pane { max-height: 60%; }  /* its fix line in view below 30 rows */
    """

    def compose(self) -> ComposeResult:
        yield Static(id="turn-header")
        with Horizontal(id="sides"):
            with VerticalScroll(classes="pane", id="original-pane") as pane:
                pane.border_title = "Original"
                yield Static(id="original")
            with VerticalScroll(classes="pane", id="repair-pane") as pane:
                pane.border_title = "Repair"
                yield Static(id="repair")
        with VerticalScroll(id="finding-pane") as pane:
            pane.border_title = "Finding"
            yield Static(id="finding")

    def show_header(self, header: Content) -> None:
        """Show the header line above the panes (the turn, and where its call's result is)."""
        self.query_one("#turn-header", Static).update(header)

    def show(self, turn: Turn | None, view: FindingView | TurnView | None, clean: bool = False) -> None:
        """Show `turn` and, when it is flagged, one of its findings (or the whole turn as exported);
        `clean`: the session is scanned and nothing in it is flagged."""
        original, repair, finding = (
            self.query_one("#original", Static),
            self.query_one("#repair", Static),
            self.query_one("#finding", Static),
        )
        whole = isinstance(view, TurnView)
        self.query_one("#repair-pane").border_title = "As exported" if whole else "Repair"
        self.query_one("#finding-pane").border_title = "Turn as exported" if whole else "Finding"
        if turn is None:
            for static in (original, repair, finding):
                static.update("")
            return
        if view is None:
            original.update(unflagged_content(turn))
            nothing = "Nothing flagged in this session." if clean else "Nothing flagged in this turn."
            repair.update(Content.styled(nothing, MUTED))
            finding.update(Content.styled(f"Turn {turn.position} · {turn.role}", MUTED))
            return
        original.update(original_content(view.preview))
        if isinstance(view, TurnView):
            repair.update(repair_content(view.preview, "Text as exported", (), kept_calls=True))
            finding.update(turn_content(view))
        else:
            repair.update(repair_content(view.preview, "Text after the fix", view.runs))
            finding.update(finding_content(view))
        for pane in self.query(".pane"):
            pane.scroll_home(animate=False)
