"""The review screen: the turn list above the selected turn's detail, and the review's keys
(`keys`).

The screen lays the widgets out and owns the objects of this package that do the work: what is
shown of the session (`shown_session`) and its drawing (`drawing`), loading (`session_loading`:
the turns are listed before the findings are known), moving (`navigation`), deciding
(`decisions`), exporting (`exporting`), copying (`copier`) and running recovered calls
(`execution`); none of them imports the screen. Its actions, message handlers and workers, which
Textual calls, hand over to them. Decisions wait for the full scan; every decision goes through
`inspector.review.review.Review`, which saves the review file at once.

A conversation of an SQLite history is opened by its id: only that conversation is read and
scanned (`inspector.tui.conversations`); its decisions are kept by its id in the database's
review file. Decisions in that file that can no longer be applied (their conversation is gone
from the database, or their finding from the conversation), or that an earlier version kept by
place, are reported when it opens.
"""

from __future__ import annotations

import gc
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.content import Content
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.widgets import Input, ProgressBar, Static

from inspector.model import Finding, Location, Session, Turn
from inspector.review.review import Review
from inspector.sources.base import Source
from inspector.support.safe_text import neutralise, shown_name
from inspector.tui.commands import ScreenKeys, help_rows
from inspector.tui.conversations import ReadOptions
from inspector.tui.dialogs.export_frame import ExportChoice
from inspector.tui.footer import FittingFooter
from inspector.tui.help import HelpScreen
from inspector.tui.host import ReviewHost, review_host
from inspector.tui.review.bulk_progress import BulkProgress, EveryConversation
from inspector.tui.review.copier import Copier
from inspector.tui.review.decisions import Decider
from inspector.tui.review.detail import TurnDetail
from inspector.tui.review.drawing import ReviewDrawing
from inspector.tui.review.execution import Executor
from inspector.tui.review.exporting import Exporter
from inspector.tui.review.keys import FOOTER_DROPPED_FIRST, KEYS
from inspector.tui.review.navigation import Navigator
from inspector.tui.review.search import SessionSearch
from inspector.tui.review.session_loading import SessionLoader
from inspector.tui.review.shown_session import Reviewed, ShownSession
from inspector.tui.review.turn_list import TurnList
from inspector.tui.review.writes import BULK, EXECUTE, EXPORT, WritesUnderWay

if TYPE_CHECKING:
    from inspector.tui.review.following import SessionFollower  # (and its file watcher: imported when following)

SHORT_BELOW = 30  # rows: a shorter terminal gets a shorter turn list


class ReviewScreen(Screen[None]):
    """Step through one session's flagged turns and decide on each finding."""

    COMMANDS = {ScreenKeys}
    BINDINGS = KEYS
    VERTICAL_BREAKPOINTS = [(0, "-short"), (SHORT_BELOW, "-tall")]  # a class for the terminal's height
    DEFAULT_CSS = """
    ReviewScreen #bar { height: auto; max-height: 3; background: $panel; padding: 0 0 0 1; }
    ReviewScreen #loading { height: 1; }
    ReviewScreen #loading.-done { display: none; }
    ReviewScreen #loading Static { width: auto; padding: 0 1; }
    ReviewScreen TurnList { height: 35%; }
    ReviewScreen.-short TurnList { height: 5; }  /* on 24 rows the finding below keeps its fix line */
    ReviewScreen #search-row { height: 1; display: none; background: $panel; }
    ReviewScreen #search-row.-open { display: block; }
    ReviewScreen #search-row Static { width: auto; padding: 0 1; color: $text-accent; }
    ReviewScreen #search { width: 1fr; }
    ReviewScreen #search-row #search-count { color: $text; text-style: bold; }
    """

    # the loading's messages, which the load worker posts to this screen
    Loaded, Early, Ready, Failed = SessionLoader.Loaded, SessionLoader.Early, SessionLoader.Ready, SessionLoader.Failed

    def __init__(
        self,
        path: Location,
        session: int | None = None,
        conversation: str | None = None,
        named: ReadOptions = ReadOptions(),
        source: Source | None = None,
        follow: bool = False,
        turn: int | None = None,
        start: Session | None = None,
        start_read: bool = False,
    ) -> None:
        """`session`: the index of the session to show among the file's (None: the first flagged);
        `conversation`: instead, the id of the session (an SQLite history's conversation) to open;
        `named`: how to read the file (`--format`, `--tools`, a database's table: `--table`/`--map`);
        `source`: the file's source when it is open already (else it is opened here); `follow`:
        show the turns another process appends to the file as they are written (`following`);
        `turn`: the position of the turn to open on (None: the first finding still pending);
        `start`: the session as read from the start of the file, shown while the whole file is read;
        `start_read`: whether the start was read already (`start` None: it is not one session, or
        the file is small), else it is read first when the file is loaded."""
        super().__init__()
        self.follower: SessionFollower | None = None
        if follow and isinstance(path, Path):
            from inspector.tui.review.following import SessionFollower

            self.follower = SessionFollower(Path(path), named)
        self.path = path
        self.source = source
        self._file_start = start
        self._start_read = start_read or start is not None
        self.conversation = conversation
        self.named = named
        self.shown = ShownSession(session, turn)
        self.writes = WritesUnderWay(self.tell)

    def compose(self) -> ComposeResult:
        yield Static(id="bar")
        with Horizontal(id="loading"):
            yield Static(Content(f"Loading {shown_name(self.path.name)}…"), id="loading-label")
            yield ProgressBar(total=None, show_eta=False, show_percentage=False)
        yield BulkProgress(id="bulk")
        yield TurnList(id="turns")
        yield TurnDetail(id="detail")
        with Horizontal(id="search-row"):
            yield Static(Content("Search text, calls, results (Enter · n / N · Esc clears):"))
            yield Input(compact=True, id="search")
            yield Static(id="search-count")
        yield FittingFooter(FOOTER_DROPPED_FIRST, self._in_footer)

    def on_mount(self) -> None:
        """Give each part of the work the widgets it draws into, then start loading."""
        shown, turns = self.shown, self.query_one(TurnList)
        self.drawing = ReviewDrawing(
            self.path,
            shown,
            self.query_one("#bar", Static),
            turns,
            self.query_one(TurnDetail),
            self.follower is not None,
        )
        self.loader = SessionLoader(
            self.path,
            self.conversation,
            self.named,
            shown,
            self.drawing,
            self.query_one("#loading"),
            self.tell,
            self.source,
            self._file_start,
            read_start=not self._start_read and self.follower is None,
        )
        self.navigator = Navigator(
            shown,
            self.drawing,
            self.query_one("#search-row"),
            self.query_one("#search", Input),
            self.tell,
            self._search,
        )
        self.decider = Decider(
            shown, self.drawing, self.writes, self.app, self.tell, self._everywhere, self.query_one(BulkProgress)
        )
        self.exporter = Exporter(
            shown, self.drawing, self.writes, self.app, self.tell, self.decider.tell_unsaved, self._export
        )
        self.copier = Copier(self.path, shown, lambda: turns.position, self.decider.copy, self.app, self.tell)
        self.executor = Executor(
            self.host.execute,
            shown,
            self.drawing,
            self.writes,
            self.decider.finding_to_decide,
            self.app,
            self.tell,
            self._execute,
        )
        turns.focus()
        self.host.reviewed_paths.add(self.path)
        self._load()

    def on_unmount(self) -> None:
        """Release the session as the screen closes: the app keeps only whether its decisions are
        exported; the screen lets go of the session, its review and its turns (a finished load
        worker's thread keeps a reference to the screen until it runs another), and the objects
        frozen out of the collector's reach while the session was shown go back to it, so the
        closed screen's cycles are freed."""
        if self.follower is not None:
            self.follower.stop.set()  # its worker's thread ends at the watch's next step
        if self.review is not None:
            self.host.review_closed(self.review)
        self.decider.cancel_everywhere(say=False)  # its worker stops, deciding nothing
        self.shown.release()
        self.drawing.turns.show_turns(())
        gc.unfreeze()
        gc.collect()

    @property
    def host(self) -> ReviewHost:
        """The app showing the screen."""
        return review_host(self.app)

    @property
    def session(self) -> Session | None:
        """The session shown, once the file is read."""
        return self.shown.session

    @property
    def session_index(self) -> int | None:
        """The index of the session shown among the file's (None: not chosen yet)."""
        return self.shown.session_index

    @property
    def review(self) -> Review | None:
        """The session's review, once the whole session is scanned."""
        return self.shown.review

    def _in_footer(self, action: str) -> bool:
        """Whether the key of `action` is shown in the footer: X only when there is an executor."""
        return action != "execute" or self.host.execute is not None

    def tell(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
    ) -> None:
        """A notification whose text is shown as it is (it may hold paths and model text)."""
        self.notify(neutralise(message), title=title, severity=severity, timeout=timeout, markup=False)

    def _current(self) -> int | None:
        """The index of the finding shown in the detail, if the selected turn is flagged (what
        `tests/benchmarks/bench_tui.py` waits for)."""
        return self.drawing.current()

    @work(thread=True, exclusive=True, group="load")
    def _load(self) -> None:
        self.loader.read_and_scan(self.post_message)

    @work(thread=True, exclusive=True, group="search")
    def _search(self, text: str, turns: Sequence[Turn]) -> None:
        search = SessionSearch(text, turns)
        self.app.call_from_thread(self.navigator.found, search)

    @work(thread=True, exclusive=True, group="export")
    def _export(self, review: Review, choice: ExportChoice) -> None:
        self.exporter.write_export(review, choice)

    @work(thread=True, exclusive=True, group="bulk")
    def _everywhere(self, run: EveryConversation) -> None:
        self.decider.find_everywhere(run)

    @work(thread=True, exclusive=True, group="execute")
    def _execute(self, command: str, reviewed: Reviewed, finding: Finding, index: int) -> None:
        self.executor.run(command, reviewed, finding, index)

    @on(Loaded)
    def _loaded(self, event: SessionLoader.Loaded) -> None:
        self.loader.loaded(event.sessions, event.reading)

    @on(Early)
    def _early(self, event: SessionLoader.Early) -> None:
        self.loader.early(event.findings)

    @on(Ready)
    def _ready(self, event: SessionLoader.Ready) -> None:
        self.loader.ready(event.review, event.warnings)
        self.host.review_ready(self.path)
        if self.follower is not None:
            self.tell(
                f"Following {shown_name(self.path.name)}: turns appear as they are written",
                title="Following",
                timeout=5,
            )
            self._follow()

    @work(thread=True, exclusive=True, group="follow")
    def _follow(self) -> None:
        if self.follower is not None:
            self.follower.follow(self.post_message)

    def on_session_follower_grown(self, event: SessionFollower.Grown) -> None:
        """New turns were read from the file followed (`SessionFollower.Grown`, handled by its name)."""
        self.loader.grown(event.review)

    @on(Failed)
    def _failed(self, event: SessionLoader.Failed) -> None:
        self.loader.failed(event.error)

    @on(TurnList.Selected)
    def _selected(self, event: TurnList.Selected) -> None:
        self.drawing.selected(event.position)
        self.navigator.selected(event.position)

    @on(Input.Submitted, "#search")
    def _searched(self, event: Input.Submitted) -> None:
        self.navigator.search(event.value)

    def action_move(self, step: int) -> None:
        """Move the selection up or down."""
        self.drawing.turns.action_move(step)

    def action_next(self, forward: bool) -> None:
        """Next (or previous) flagged turn; the next search match while a search is active."""
        self.navigator.next(forward)

    def action_finding(self, step: int) -> None:
        """Show the next (or previous) finding of the selected turn."""
        self.navigator.step_finding(step)

    def action_other_end(self) -> None:
        """Jump between a call and its result."""
        self.navigator.other_end()

    def action_flagged_only(self) -> None:
        """List only flagged turns, or every turn."""
        self.drawing.turns.set_flagged_only(not self.drawing.turns.flagged_only)
        self.drawing.refresh([])

    def action_whole_turn(self) -> None:
        """Show the selected turn as the export will write it, with every approved fix applied, or
        one finding again."""
        self.shown.whole_turn = not self.shown.whole_turn
        self.drawing.show_detail()

    def action_search(self) -> None:
        """Open the search box."""
        self.call_after_refresh(self.navigator.open_search().focus)

    def action_back(self) -> None:
        """Cancel a decision on every conversation under way, close the search, clear it, or go back
        to the picker."""
        if self.decider.cancel_everywhere():
            return
        if self.navigator.close_search() or self.writes.waiting_for(EXPORT, EXECUTE, BULK):
            return  # (while a write runs, the review file is written after the screen would close)
        if self.review is not None and self.review.unexported:
            self.tell(f"Decisions kept in {shown_name(self.review.review_path.name)}, not exported yet")
        self.host.back_to_sessions()

    def action_help(self) -> None:
        """Show every key."""
        self.app.push_screen(HelpScreen(help_rows(self)))

    def action_approve(self) -> None:
        """Approve the proposed (or edited) fix of the finding shown."""
        self.decider.approve()

    def action_skip(self) -> None:
        """Leave the finding shown as it is."""
        self.decider.skip()

    def action_edit(self) -> None:
        """Open the fix of the finding shown in the editor."""
        self.decider.edit()

    def action_undo(self) -> None:
        """Undo the last decision and show the finding it was about."""
        self.decider.undo()

    def action_approve_all(self) -> None:
        """Approve every pending finding of the shown finding's kind, after asking."""
        self.decider.approve_all()

    def action_skip_all(self) -> None:
        """Skip (acknowledge) every pending finding of the shown finding's kind, after asking."""
        self.decider.skip_all()

    def action_copy(self) -> None:
        """Copy the arguments of the calls the shown fix recovers or corrects."""
        self.decider.copy()

    def action_raw(self) -> None:
        """Show the selected turn's record as the file stores it."""
        position = self.drawing.turns.position
        turn = self.session.turn_at(position) if self.session is not None and position is not None else None
        if turn is not None:
            from inspector.tui.review.raw_view import RawRecordScreen  # (a text area: imported when first shown)

            self.app.push_screen(RawRecordScreen(turn))

    def action_copy_menu(self) -> None:
        """Ask what to copy (the turn's text, the finding, the file's path, the arguments), then copy it."""
        self.copier.menu()

    def action_export(self) -> None:
        """Ask where to write the repaired session, then write it with its audit record."""
        self.exporter.export()

    def action_execute(self) -> None:
        """Run the recovered calls of the approved fix shown through the executor, after asking."""
        self.executor.execute()
