"""The review screen's keys: one list of bindings feeds the footer, the help screen (?) and the
command palette (`inspector.tui.commands`), so the three can never disagree. A binding with a
description is shown in the footer (unless `show=False`); its tooltip is what help and the palette
say.
"""

from __future__ import annotations

from textual.binding import Binding, BindingType

KEYS: list[BindingType] = [  # in the footer's order; short descriptions fit the footer, which on a narrow terminal
    # hides those of FOOTER_DROPPED_FIRST first; tooltips are what help and the palette show
    Binding("question_mark", "help", "Help", tooltip="Show every key"),
    Binding("q", "app.quit", "Quit", tooltip="Quit (asks when decisions are not exported)"),
    Binding("n", "next(True)", "Next", tooltip="Next flagged turn (next match while searching)"),
    Binding(
        "N,shift+n",  # a terminal that reports modifiers sends shift+n
        "next(False)",
        "Prev",
        tooltip="Previous flagged turn (previous match while searching)",
        key_display="N",
    ),
    Binding("a", "approve", "Approve", tooltip="Approve the fix shown"),
    Binding("s", "skip", "Skip", tooltip="Skip this finding: leave the turn as it is"),
    Binding(
        "e",
        "edit",
        "Edit",
        tooltip="Edit the fix (text and call arguments; there ctrl+g opens the field in your $EDITOR)",
    ),
    Binding("u", "undo", "Undo", tooltip="Undo the last decision (many levels)"),
    Binding("x", "export", "Export", tooltip="Export the repaired session with the approved fixes"),
    Binding(
        "A",
        "approve_all",
        "All of kind",
        key_display="A",
        tooltip="Approve every pending finding of this kind (asks first; in a file of several sessions or "
        "a history: of this one or of every one)",
    ),
    Binding(
        "S",
        "skip_all",
        "Skip kind",
        key_display="S",
        tooltip="Skip every pending finding of this kind, or acknowledge it when it has no fix (tool-error: "
        "decided, the turn left as it is); asks first, and in a file of several sessions or a "
        "history: of this one or of every one",
    ),
    Binding("f", "flagged_only", "Flagged", tooltip="Show only flagged turns, or all"),
    Binding("slash", "search", "Search", tooltip="Search the turns' text, calls and results"),
    Binding("y", "copy", "Copy", tooltip="Copy the recovered arguments"),
    Binding(
        "w",
        "whole_turn",
        "Whole turn",
        show=False,
        tooltip="Show the whole turn as exported (every approved fix applied, the others not), or one finding",
    ),
    Binding(
        "Y",
        "copy_menu",
        "Copy…",
        key_display="Y",
        show=False,
        tooltip="Copy something else: the turn's text, the finding, the session file's path (a menu)",
    ),
    Binding(
        "c",
        "other_end",
        "Call/result",
        show=False,
        tooltip="Jump from a call to the turn holding its result, or from a result to its call",
    ),
    Binding("r", "raw", "Raw", show=False, tooltip="Show the turn's record as stored in the file (ids, every key)"),
    Binding(
        "X",
        "execute",
        "Run",
        key_display="X",
        tooltip="Run the approved fix's recovered calls through your executor (asks first; only when "
        "started as: inspector PATH --execute CMD)",
    ),
    Binding("j", "move(1)", "Down", tooltip="Next turn (or down arrow)", show=False),
    Binding("k", "move(-1)", "Up", tooltip="Previous turn (or up arrow)", show=False),
    Binding("right_square_bracket", "finding(1)", "Next finding", tooltip="Next finding of this turn", show=False),
    Binding("left_square_bracket", "finding(-1)", "Prev finding", tooltip="Previous finding of this turn", show=False),
    Binding(
        "escape",
        "back",
        "Back",
        show=False,
        tooltip="Cancel a decision on every conversation under way, clear the search, or go back to the sessions",
    ),
]
# the footer's keys hidden first when they do not all fit (80 columns keep f, /, y and X)
FOOTER_DROPPED_FIRST = ("skip_all", "approve_all", "next(False)", "app.quit", "help", "undo")
