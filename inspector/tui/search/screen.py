"""The search screen: words typed are searched in every session the inspector can read (the
index `inspector search` keeps), the hits listed as they are typed, narrowed by the facets of
their findings; Enter opens a hit's session on its turn, Esc goes back to the list of sessions.

The index is brought up to date first, in a thread worker, a line saying how far it is (and,
if the index cannot be used, why: the screen stays, the list of sessions behind it too). Each
query runs in a thread worker once typing pauses (`PAUSE`); every query is numbered, and an
answer is shown only if no query was asked after it, so a slow answer never replaces a newer one.
ctrl+r builds the index again from scratch (as `inspector search --reindex` does).
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Input, OptionList, ProgressBar, Static

from inspector.errors import InspectorError
from inspector.model import Location, ServerUrl
from inspector.search import IndexUpdate, SearchFilter
from inspector.support.safe_text import one_line
from inspector.tui.commands import ScreenKeys, help_rows
from inspector.tui.conversations import ReadOptions
from inspector.tui.help import HelpScreen
from inspector.tui.search.facet_list import FacetList
from inspector.tui.search.facets import FacetChoice
from inspector.tui.search.hit_list import HitList
from inspector.tui.search.index_access import ANSWER_LIMIT, Answer, IndexAccess
from inspector.tui.search.opening import SERVER_NOT_GIVEN, review_of
from inspector.tui.search.status import answer_line, query_error_line, update_line

PAUSE = 0.15  # seconds typing must pause before the words are searched

SEARCH_HELP = (
    "Type words to find them in every session: their text, their calls (names and arguments), "
    "their results and the model's thinking; all the words typed, whole, any case. "
    '"exact words" finds a phrase, config* words by their start, a OR b either. With no words, '
    "the turns with findings are listed, newest session first. Beside the hits, the findings of "
    "what matches are counted by kind, tool, model and agent: Enter on a value keeps only its turns "
    "(or its sessions), Enter on it again clears it. Tab moves between the words, the hits and the "
    "facets. Enter on a hit opens its session on that turn; Esc there comes back to this search. "
    "ctrl+r builds the search index again from scratch."
)


class SearchScreen(Screen[None]):
    """Search the words of every session, narrowed by facets, and open a hit."""

    COMMANDS = {ScreenKeys}
    BINDINGS = [
        Binding("enter", "open", "Open", tooltip="Open the highlighted hit's session on its turn"),
        Binding("slash", "to_query", "Words", tooltip="Back to the words (Tab moves to the hits, then the facets)"),
        Binding("down", "to_hits", show=False),
        Binding("ctrl+r", "rebuild", "Rebuild", tooltip="Build the search index again from scratch"),
        Binding("question_mark", "help", "Help", tooltip="Show every key (from the hits or the facets)"),
        Binding("escape", "back", "Back", tooltip="Back to the list of sessions"),
    ]
    DEFAULT_CSS = """
    SearchScreen #title { height: auto; background: $panel; padding: 0 1; }
    SearchScreen #query { margin: 1 1; }
    SearchScreen #indexing { height: auto; max-height: 2; }
    SearchScreen #indexing.-done #progress { display: none; }
    SearchScreen #index { width: 1fr; padding: 0 1; color: $text-muted; }
    SearchScreen #index.-error { color: $text-error; text-style: bold; }
    SearchScreen #answer { height: 1; padding: 0 1; }
    SearchScreen #panes { height: 1fr; }
    """

    def __init__(self, paths: Sequence[Location] = (), named: ReadOptions = ReadOptions()) -> None:
        """`paths`: session files (and servers' databases) to search besides the person's own
        (those of the list it is opened from); `named`: how that list reads them (`--tools`),
        for the review screen."""
        super().__init__()
        self.index = IndexAccess(paths)
        self.servers = [path for path in paths if isinstance(path, ServerUrl)]
        self.named = named
        self.choice = FacetChoice()
        self.ready = False  # the index is up to date: queries may run
        self.answer: Answer | None = None  # the latest shown
        self._asked = 0  # the number of the latest query asked
        self._pause: Timer | None = None

    def compose(self) -> ComposeResult:
        yield Static(
            Text("Search every session · Tab: the hits, the facets · Enter opens · Esc goes back", style="bold"),
            id="title",
        )
        yield Input(
            compact=True, placeholder='words ("a phrase", prefix*, a OR b); none: the turns with findings', id="query"
        )
        with Horizontal(id="indexing"):
            yield Static(Text("Looking for the sessions to search…"), id="index")
            yield ProgressBar(total=None, show_eta=False, show_percentage=False, id="progress")
        yield Static(id="answer")
        with Horizontal(id="panes"):
            yield HitList(id="hits")
            yield FacetList(id="facets")
        yield Footer()

    def on_mount(self) -> None:
        self._update()

    def on_unmount(self) -> None:
        """Let go of the index (once the query under way, if any, is done)."""
        if self._pause is not None:
            self._pause.stop()
        self.index.close()

    @property
    def hit_list(self) -> HitList:
        """The hits of the latest answer."""
        return self.query_one(HitList)

    @property
    def facet_list(self) -> FacetList:
        """The facets of the latest answer."""
        return self.query_one(FacetList)

    @work(thread=True, exclusive=True, group="index")
    def _update(self, fresh: bool = False) -> None:
        try:
            update = self.index.update(lambda line: self.app.call_from_thread(self._say, line), fresh)
        except InspectorError as error:
            self.app.call_from_thread(self._index_failed, str(error))
        else:
            self.app.call_from_thread(self._updated, update)

    def _say(self, line: str) -> None:
        if self.is_attached:
            self.query_one("#index", Static).update(Text(one_line(line)))

    def _updated(self, update: IndexUpdate) -> None:
        if not self.is_attached:
            return
        self.query_one("#indexing").add_class("-done")
        self.query_one("#index", Static).update(Text(update_line(update)))
        self.ready = True
        self._ask()

    def _index_failed(self, error: str) -> None:
        if not self.is_attached:
            return
        self.query_one("#indexing").add_class("-done")
        index = self.query_one("#index", Static)
        index.add_class("-error")
        index.update(Text(one_line(f"Cannot search: {error}")))

    @on(Input.Changed, "#query")
    def _typed(self) -> None:
        if self._pause is not None:
            self._pause.stop()
        self._pause = self.set_timer(PAUSE, self._ask)

    @on(Input.Submitted, "#query")
    def _submitted(self) -> None:
        if self._pause is not None:  # typed, not searched yet
            self._pause.stop()
            self._ask()
        self.hit_list.focus()

    def _ask(self) -> None:
        """Search the words typed with the facets chosen (once the index is up to date)."""
        self._pause = None
        if not self.ready:
            return
        self._asked += 1
        self.query_one("#answer", Static).update(Text("searching…"))
        self._query(self._asked, self.query_one("#query", Input).value, self.choice.as_filter())

    @work(thread=True, exclusive=True, group="query")
    def _query(self, number: int, typed: str, chosen: SearchFilter) -> None:
        if number != self._asked:  # another was asked meanwhile
            return
        try:
            answer = self.index.answer(typed, chosen)
        except InspectorError as error:
            self.app.call_from_thread(self._query_failed, number, str(error))
        else:
            self.app.call_from_thread(self._answered, number, answer)

    def _answered(self, number: int, answer: Answer) -> None:
        if number != self._asked or not self.is_attached:
            return  # a newer query's answer is coming
        self.answer = answer
        self.query_one("#answer", Static).update(answer_line(answer, ANSWER_LIMIT, self.choice))
        self.hit_list.show(answer.hits)
        self.facet_list.show(self.choice.listed(answer.counts))

    def _query_failed(self, number: int, error: str) -> None:
        if number == self._asked and self.is_attached:
            self.query_one("#answer", Static).update(Text(query_error_line(error), style="bold red"))

    @on(OptionList.OptionSelected, "#hits")
    def _hit_chosen(self, event: OptionList.OptionSelected) -> None:
        self._open(event.option_index)

    @on(OptionList.OptionSelected, "#facets")
    def _facet_chosen(self, event: OptionList.OptionSelected) -> None:
        value = self.facet_list.value_at(event.option_index)
        if value is not None and value.choosable:
            self.choice = self.choice.toggled(value.facet, value.value)
            self._ask()

    def _open(self, index: int) -> None:
        hit = self.hit_list.hit_at(index)
        if hit is None:
            return
        review = review_of(hit, self.named, self.servers)
        if review is None:
            self.notify(SERVER_NOT_GIVEN, title=f"Cannot open {hit.path}", severity="warning", timeout=8, markup=False)
        else:
            self.app.push_screen(review)

    def action_open(self) -> None:
        """Open the highlighted hit's session on its turn."""
        if self.hit_list.highlighted is not None:
            self._open(self.hit_list.highlighted)

    def action_to_query(self) -> None:
        """Back to the words typed."""
        self.query_one("#query", Input).focus()

    def action_to_hits(self) -> None:
        """From the words down to the hits."""
        self.hit_list.focus()

    def action_rebuild(self) -> None:
        """Build the search index again from scratch (unless it is being brought up to date)."""
        indexing = self.query_one("#indexing")
        if not indexing.has_class("-done"):
            return
        self.ready = False
        indexing.remove_class("-done")
        self.query_one("#index", Static).remove_class("-error")
        self._update(fresh=True)

    def action_help(self) -> None:
        """Show every key."""
        self.app.push_screen(HelpScreen(help_rows(self), SEARCH_HELP))

    def action_back(self) -> None:
        """Back to the list of sessions."""
        self.dismiss(None)
