"""The Textual app: the picker for a directory or a database's conversations (an SQLite file, or
a PostgreSQL server's database named by its URL), or a session file (or the conversation
`--session ID` names) straight in review. A database's messages are read from the table `--table T
--map ...` names when given, as `inspector scan` reads them. With no path, the picker of the
person's own sessions, found by `inspector.sources.discovery`."""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from textual.app import App
from textual.binding import Binding

from inspector.errors import InspectorError
from inspector.model import Location, ServerUrl, Session
from inspector.sources import folder_sessions, no_sessions_in
from inspector.support.safe_text import neutralise, shown_name
from inspector.tui.conversations import ReadOptions, check_named_table, check_server
from inspector.tui.settings import read_theme, save_theme, settings_path
from inspector.tui.themes import light_theme

if TYPE_CHECKING:
    from inspector.review.review import Review
    from inspector.sources.base import Source
    from inspector.sources.discovery import FoundSession
    from inspector.tui.picker.screen import PickerScreen
    from inspector.tui.subagents_look import SubagentsLook

# The review screen (and, through it, the detectors, the repairs and the review file) is imported
# when a session is opened, so the picker, the first screen of most runs, is drawn without them;
# the picker is imported when a list is shown, so a session file opened straight away is drawn
# without it.


class InspectorApp(App[None]):
    """Review the findings of session files and export the repaired sessions."""

    TITLE = "inspector"
    _keeps_theme = False  # set once the saved theme is applied: later changes are the person's, kept
    # Textual binds ctrl+c to a notice saying how to quit, and copies with it in a text box; here
    # it copies the text selected, if any, else quits as in most terminal programs (asking first,
    # like q), on every screen and dialog (a priority binding: a dialog's own keys come after)
    BINDINGS = [
        Binding(
            "ctrl+c",
            "copy_or_quit",
            "Quit",
            show=False,
            priority=True,
            tooltip="Quit from any screen, asking when decisions are not exported (with text selected: copy it)",
        ),
        Binding(
            "ctrl+q",
            "quit",
            "Quit",
            show=False,
            priority=True,
            tooltip="Quit from any screen, even while typing, asking when decisions are not exported",
        ),
        Binding(
            "ctrl+t",
            "change_theme",
            "Theme",
            show=False,
            tooltip="Choose the theme (also in the command palette); kept for the next runs",
        ),
    ]

    def __init__(
        self,
        target: Location | None,
        execute: str | None = None,
        session: str | None = None,
        named: ReadOptions = ReadOptions(),
        found: Sequence[FoundSession] = (),
        notice: str = "",
        follow: bool = False,
    ) -> None:
        """`target`: a session file, a directory of them or a database (a server's: its URL,
        reached here once, so that its errors come before any screen); None: the person's own
        sessions `found` (newest first).
        `execute`: the command recovered calls may be run through (`--execute CMD`); None, nothing runs.
        `session`: the id of the session (a database's conversation) of the file `target` to open.
        `named`: how to read `target` (its format, extra tool definitions, and the table, with its
        columns, of the database `target` to read conversations from).
        `notice`: said once the app is shown (why these sessions are listed), and above the list.
        `follow`: the session file `target` is shown as another process appends to it.
        Raises `InspectorError` (one line, the one `inspector scan` gives) when `target` is a
        directory without session files, a file that cannot be read as sessions, or when `named`
        cannot be read from it."""
        super().__init__()
        self.register_theme(light_theme())  # Textual's, its text colours darker (4.5:1)
        self.target = target
        self.execute = execute
        self.open_session = session
        self.named = named
        self.found = list(found)
        self.notice = notice
        self.follow = follow
        self.files: list[Location]
        if isinstance(target, Path) and target.is_dir() and not (named.given or named.format_name):  # as found
            self.found = _found_in(target)
        if target is None or self.found:
            self.files, self.lists_conversations = [entry.path for entry in self.found], False
        else:
            listed, self.lists_conversations = _listed(target, named)
            self.files = list(listed)
        if not self.files:
            raise InspectorError(no_sessions_in(target) if target else "no sessions of your own to list")
        self.opened: Source | None = None  # a session file opened straight away, read already
        # (a URL, like a history, lists its conversations)
        self.start: Session | None = None  # a large file's session as read from its start
        if isinstance(target, Path) and not self.lists_conversations and target.is_file():
            self.opened = named.open(target)
            if session is None and not follow:
                self.start = _session_at_start(self.opened, named)
            if self.start is None:  # else the review screen reads the rest
                self.opened.listing()  # a file that holds no session is the line `scan` gives, before any screen
        # whether decisions were left unexported in the latest review closed of each file (a
        # database's conversations share one review file), so quitting can ask; a closed review
        # itself is released (20 sessions of 50,000 messages opened in a row held 1.2 GB)
        self.closed_reviews: dict[Location, bool] = {}
        # the look for the subagents of the session file opened straight away, once its review is ready
        self.subagents: SubagentsLook | None = None
        # every file opened for review, so lists read its status again
        self.reviewed_paths: set[Location] = set()
        self._asking_to_quit = False

    def on_mount(self) -> None:
        self._apply_saved_theme()
        if self.notice:
            self.notify(self.notice, timeout=15, markup=False)
        if self.target is None:
            self.push_screen(self._picker())
        elif _one_source(self.target) and (self.open_session is not None or not self.lists_conversations):
            from inspector.tui.review.screen import ReviewScreen

            if self.open_session is not None:
                opened = ReviewScreen(self.target, conversation=self.open_session, named=self.named, source=self.opened)
            else:
                opened = ReviewScreen(
                    self.target,
                    named=self.named,
                    source=self.opened,
                    follow=self.follow,
                    start=self.start,
                    start_read=True,
                )
            self.push_screen(opened)
        else:  # a directory, or a history listing its conversations
            self.push_screen(self._picker())

    def _apply_saved_theme(self) -> None:
        """Use the theme the person chose in an earlier run, saying so if the settings are broken."""
        theme, problem = read_theme(settings_path(), self.available_themes)
        if theme is not None:
            self.theme = theme
        if problem:
            self.notify(neutralise(problem), title="Settings", severity="warning", timeout=10, markup=False)
        self._keeps_theme = True

    def watch_theme(self, theme: str) -> None:
        """Keep the theme the person chose (command palette, ctrl+t) for the next runs."""
        if not self._keeps_theme:
            return
        try:
            save_theme(settings_path(), theme)
        except InspectorError as error:
            self.notify(
                neutralise(f"The theme is not kept for the next runs: {error}"), severity="warning", markup=False
            )

    async def action_quit(self) -> None:
        """Quit (q, ctrl+q, ctrl+c), first asking when a review has decisions not exported; asked again, quits."""
        from inspector.tui.dialogs.confirm import Confirm

        names = self._unexported_names()
        if not names or self._asking_to_quit:
            self.exit()
            return

        def answered(yes: bool | None) -> None:
            self._asking_to_quit = False
            if yes:
                self.exit()

        self._asking_to_quit = True
        self.push_screen(
            Confirm(
                f"Decisions on {neutralise(', '.join(names))} are not exported yet (they are kept "
                "in the review file). Quit anyway?",
                yes="Quit",
                no="Stay",
            ),
            answered,
        )

    async def action_copy_or_quit(self) -> None:
        """Copy the text selected in the focused text box or on the screen (ctrl+c); with nothing
        selected, quit as `q` does."""
        selected = getattr(self.focused, "selected_text", "") or self.screen.get_selected_text()  # Input, TextArea
        if selected:
            self.copy_to_clipboard(selected)
        else:
            await self.action_quit()

    def review_closed(self, review: Review) -> None:
        """Remember of a review whose screen closes only whether its decisions are exported."""
        self.closed_reviews[review.path] = review.unexported

    def review_ready(self, path: Location) -> None:
        """Once the session file opened straight away is reviewed, look for its subagents' transcripts."""
        if path == self.target and isinstance(path, Path) and self.opened is not None and self.subagents is None:
            from inspector.tui.subagents_look import SubagentsLook

            self.subagents = SubagentsLook(self, path, self._subagents_found)
            self.subagents.start(self.follow)

    def _subagents_found(self, new: tuple[Path, ...]) -> None:
        """List the session's subagents' transcripts just found with it (Esc), and say so."""
        self.files = [*self.files, *new]
        more = "more " if self.subagents is not None and len(self.subagents.found) > len(new) else ""
        one = len(new) == 1
        self.notify(
            f"This session ran {len(new)} {more}subagent{'' if one else 's'}, whose transcript"
            f"{' is' if one else 's are'} kept beside it: Esc lists {'it' if one else 'them'} with the session",
            title="Subagents",
            timeout=10,
            markup=False,
        )

    def _unexported_names(self) -> list[str]:
        """The names of the files whose latest review has decisions not exported."""
        unexported = dict(self.closed_reviews)
        if "inspector.tui.review.screen" in sys.modules:  # else no review screen was ever shown
            from inspector.tui.review.screen import ReviewScreen

            for screen in self.screen_stack:
                if isinstance(screen, ReviewScreen) and screen.review is not None:
                    unexported[screen.review.path] = screen.review.unexported
        return [path.name for path, flag in unexported.items() if flag]

    def back_to_sessions(self) -> None:
        """Leave the review screen for the list of sessions (of its file, when it was opened directly)."""
        if self.subagents is not None:  # (the list shows the subagents found until now)
            self.subagents.stop()
        if len(self.screen_stack) > 2:  # a list (or the search of every session) under it
            self.pop_screen()
        else:
            self.switch_screen(self._picker())

    def _picker(self) -> PickerScreen:
        from inspector.tui.picker.found import FoundPicker, and_its_subagents
        from inspector.tui.picker.screen import PickerScreen

        if self.found or self.target is None:
            counts = Counter(entry.tool for entry in self.found)
            tools = ", ".join(f"{count:,} {tool}" for tool, count in counts.most_common())
            where = f" in {shown_name(self.target)}" if self.target is not None else ""
            return FoundPicker(
                self.found, f"Your sessions{where}, newest first ({tools}) · Enter opens one", self.named
            )
        on_file = isinstance(self.target, Path) and self.target.is_file()  # else a directory, or a server's URL
        where = shown_name(self.target.name if on_file else self.target)
        kind = "Conversations" if self.lists_conversations else "Sessions"
        table = f" (table {shown_name(self.named.table)})" if self.named.table else ""
        notice = f"\n{self.notice}" if self.notice else ""
        listed = f"{kind} in {where}{table}"
        if self.subagents is not None and self.subagents.found and isinstance(self.target, Path):
            listed = and_its_subagents(self.target, len(self.subagents.found))
        return PickerScreen(self.files, f"{listed} · Enter opens one{notice}", self.named, kind.lower())


def _listed(target: Location, named: ReadOptions) -> tuple[Sequence[Location], bool]:
    """The session files `target` stands for, and whether it is a history listing its
    conversations; fails (one line) when `named` cannot be read from it, or a server's database
    cannot be read."""
    if isinstance(target, ServerUrl):
        check_server(target, named)
        return [target], True
    if named.given:
        if not target.is_file():
            raise InspectorError(f"{shown_name(target)}: --table and --map read one database, not a directory")
        check_named_table(target, named)
    if target.is_file():
        return [target], named.open(target).streams
    return folder_sessions(target), False


def _session_at_start(source: Source, named: ReadOptions) -> Session | None:
    """The session of a large session file as read from its start alone, shown while the rest is
    read (`inspector.sources.files.file_start`); None for a smaller file, or one whose start is not
    one session (it is read whole at once)."""
    from inspector.sources.files.file_start import session_at_start
    from inspector.sources.files.session_file import SessionFile

    return session_at_start(source.path, named.format_name) if isinstance(source, SessionFile) else None


def _found_in(folder: Path) -> list[FoundSession]:
    """The sessions your agents keep in `folder` when it is one of their folders or holds one
    (`~/.claude`, `~`), as they are listed with no path; [] for any other folder (a project's is
    listed by its files, each followed by its subagents)."""
    from inspector.sources.discovery.kept_in_folder import found_kept_in, places_within  # a folder's only

    return found_kept_in(folder) if places_within(folder) else []


def _one_source(target: Location) -> bool:
    """Whether `target` is one file or database (not a directory)."""
    return isinstance(target, ServerUrl) or target.is_file()
