"""The picker's list on real files: sorting (s, S), filtering by findings (f, F) and by review
status (r), the status column after deciding and exporting, searching (/), moving (j k g G), the
columns at 60 and 120 columns, and the rates line; then on a history of 1,604 conversations."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable, Input

from inspector.cli.main import main
from inspector.tui.app import InspectorApp
from inspector.tui.dialogs.export import ExportDialog
from inspector.tui.picker.rows import database_note
from inspector.tui.picker.screen import PickerScreen
from inspector.tui.picker.table import FIRST_ROWS, ListTable
from inspector.tui.picker.view import View, described
from inspector.tui.review.screen import ReviewScreen
from tests.helpers.pilot import play, rows, until
from tests.helpers.rubyllm import MANY, build_rubyllm
from tests.helpers.samples import SESSIONS, TOOL_SAMPLES, copied
from tests.helpers.timing import cpu_time
from tests.helpers.tools import REFUSED_SEARCH, SEARCH_CALL, WEB_SEARCH

pytestmark = pytest.mark.slow  # drives the app with Pilot

FILES = (
    "analyst-agent.openai.json",
    "clean.openai.json",
    "coding-agent.dump.json",
    "finetune.openai.jsonl",
    "memory-agent.openai.json",
    "notes-agent.sharegpt.jsonl",
    "support-agent.anthropic.json",
)
# (file, session) of each row in the listing's order, with its findings and turns (scan_file's)
LISTED = [
    ("analyst-agent.openai.json", "", 10, 24),
    ("clean.openai.json", "", 0, 12),
    ("coding-agent.dump.json", "ui_run_764686752e2f", 3, 14),
    ("finetune.openai.jsonl", "line 1", 0, 5),
    ("finetune.openai.jsonl", "line 2", 1, 3),
    ("finetune.openai.jsonl", "line 3", 0, 5),
    ("memory-agent.openai.json", "", 6, 35),
    ("notes-agent.sharegpt.jsonl", "notes-hermes", 2, 9),
    ("notes-agent.sharegpt.jsonl", "notes-unknown-tool", 1, 5),
    ("notes-agent.sharegpt.jsonl", "notes-function-call", 0, 4),
    ("support-agent.anthropic.json", "", 1, 12),
]
NAMES = [row[:2] for row in LISTED]


@pytest.fixture
def samples(tmp_path: Path) -> Path:
    """Copies of seven sample files (eleven sessions with differing findings)."""
    return copied(FILES, SESSIONS, tmp_path / "samples")


def names(table: DataTable) -> list[tuple[str, str]]:
    return [(row[0], row[1]) for row in rows(table)]


def screen_line(table: DataTable, row: int) -> str:
    """The row as drawn on screen (the header is line 0)."""
    return table.render_line(row + 1).text


def test_s_sorts_by_findings_then_status_then_turns_and_S_reverses(samples: Path):
    async def scenario(pilot: Pilot) -> None:
        table = pilot.app.screen.query_one(DataTable)
        assert names(table) == NAMES
        await pilot.press("s")
        by_findings = names(table)
        assert by_findings == [row[:2] for row in sorted(LISTED, key=lambda row: -row[2])]  # ties as listed
        assert by_findings[:3] == [
            ("analyst-agent.openai.json", ""),
            ("memory-agent.openai.json", ""),
            ("coding-agent.dump.json", "ui_run_764686752e2f"),
        ]
        assert "sorted by findings, most first" in str(pilot.app.screen.query_one("#view").visual)
        assert table.ordered_columns[2].label.plain == "Findings by kind ▼"
        await pilot.press("S")
        assert names(table) == [row[:2] for row in sorted(LISTED, key=lambda row: row[2])]
        assert names(table)[:4] == [
            ("clean.openai.json", ""),
            ("finetune.openai.jsonl", "line 1"),
            ("finetune.openai.jsonl", "line 3"),
            ("notes-agent.sharegpt.jsonl", "notes-function-call"),
        ]
        await pilot.press("s")  # review status: pending first (all of them, nothing decided yet), then none to review
        assert [row[5] for row in rows(table)] == ["pending"] * 7 + [""] * 4
        await pilot.press("s")
        assert [int(row[3]) for row in rows(table)] == [35, 24, 14, 12, 12, 9, 5, 5, 5, 4, 3]
        await pilot.press("s", "s", "s")  # format, file, then the listing's own order again
        assert names(table) == NAMES
        assert str(pilot.app.screen.query_one("#view").visual) == "11 sessions"

    play(InspectorApp(samples), scenario, settled=True)


def test_f_filters_by_findings_and_kind_and_escape_clears(samples: Path):
    async def scenario(pilot: Pilot) -> None:
        table = pilot.app.screen.query_one(DataTable)
        view = pilot.app.screen.query_one("#view")
        await pilot.press("f")
        assert names(table) == [row[:2] for row in LISTED if row[2]]
        assert str(view.visual) == "7 of 11 sessions · any finding"
        await pilot.press("f")  # the kinds in turn, by name: claimed-execution first
        assert names(table) == [("coding-agent.dump.json", "ui_run_764686752e2f")]
        assert str(view.visual) == "1 of 11 sessions · with claimed-execution"
        await pilot.press("f", "f", "f", "f", "f")  # claimed-success, invalid-argument, malformed-arguments,
        # orphan-call, result-prefix
        assert names(table) == [
            ("finetune.openai.jsonl", "line 2"),
            ("memory-agent.openai.json", ""),
            ("notes-agent.sharegpt.jsonl", "notes-hermes"),
            ("support-agent.anthropic.json", ""),
        ]
        await pilot.press("F")
        assert names(table) == [("analyst-agent.openai.json", "")]  # orphan-call
        await pilot.press("escape")
        assert names(table) == NAMES
        await pilot.press("F")  # backwards from every row: the sessions without findings
        assert names(table) == [row[:2] for row in LISTED if not row[2]]
        assert str(view.visual) == "4 of 11 sessions · no finding"
        await pilot.press("r")  # and pending: none of them has anything to review
        assert names(table) == [] and str(view.visual) == "0 of 11 sessions · no finding · pending"

    play(InspectorApp(samples), scenario, settled=True)


def test_the_status_column_follows_deciding_and_exporting_and_r_filters_by_it(
    samples: Path, monkeypatch: pytest.MonkeyPatch
):
    # The exported row stays listed until the table catches up. So that a busy machine cannot let
    # the catch-up pass before the test looks, it is held while `held` is a list, then let through.
    held: list[ListTable] | None = None
    catch_up = ListTable.catch_up

    def gated(table: ListTable) -> None:
        if held is None:
            catch_up(table)
        else:
            held.append(table)

    monkeypatch.setattr(ListTable, "catch_up", gated)

    async def review(pilot: Pilot, *keys: str) -> None:
        """Open the row under the cursor, press `keys` once it is scanned, and come back."""
        await pilot.press("enter")
        screen = pilot.app.screen
        assert isinstance(screen, ReviewScreen)
        await until(pilot, lambda: screen.review is not None, "the review screen to read its review")
        for key in keys:
            await pilot.press(key)
            if key == "x":
                await until(pilot, lambda: isinstance(pilot.app.screen, ExportDialog), "the export dialog")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(pilot.app.screen, PickerScreen), "the picker")

    async def scenario(pilot: Pilot) -> None:
        picker = pilot.app.screen
        table = picker.query_one(DataTable)
        status = {name: row[5] for name, row in zip(NAMES, rows(table))}
        assert status[("finetune.openai.jsonl", "line 2")] == status[("memory-agent.openai.json", "")] == "pending"
        assert status[("clean.openai.json", "")] == ""
        await pilot.press(*"jjjj")  # finetune's line 2: one finding
        await review(pilot, "a")
        await pilot.press(*"jj")  # memory-agent: one finding of six decided
        await review(pilot, "a")
        status = {name: row[5] for name, row in zip(NAMES, rows(table))}
        assert status[("finetune.openai.jsonl", "line 2")] == "decided"
        assert status[("memory-agent.openai.json", "")] == "pending"
        await pilot.press("r", "r")
        assert names(table) == [("finetune.openai.jsonl", "line 2")]
        assert str(picker.query_one("#view").visual) == "1 of 11 sessions · decided"
        nonlocal held
        held = []
        await review(pilot, "x", "enter")  # export the file: the decision is in it
        assert rows(table)[0][5] == "exported"
        caught, held = held, None
        for waiting in caught:
            catch_up(waiting)
        await until(pilot, lambda: not names(table), "the exported row, no longer decided, to leave the filtered list")
        await pilot.press("r")
        assert names(table) == [("finetune.openai.jsonl", "line 2")]
        await pilot.press("r")
        assert names(table) == NAMES
        await pilot.press("r")
        assert names(table) == [row[:2] for row in LISTED if row[2] and row[1] != "line 2"]

    play(InspectorApp(samples), scenario, settled=True)

    async def reopened(pilot: Pilot) -> None:  # read from the review file, no session loaded
        status = {(row[0], row[1]): row[5] for row in rows(pilot.app.screen.query_one(DataTable))}
        assert status[("finetune.openai.jsonl", "line 2")] == "exported"
        assert status[("memory-agent.openai.json", "")] == "pending"
        assert status[("finetune.openai.jsonl", "line 1")] == ""

    play(InspectorApp(samples), reopened, settled=True)


def test_slash_searches_names_ids_and_formats_as_it_is_typed(samples: Path):
    async def scenario(pilot: Pilot) -> None:
        picker = pilot.app.screen
        table = picker.query_one(DataTable)
        await pilot.press("slash", *"fine")
        assert picker.query_one("#search", Input).has_focus
        assert names(table) == [("finetune.openai.jsonl", f"line {n}") for n in (1, 2, 3)]
        await pilot.press("backspace", "backspace", "backspace", "backspace", *"session-d")  # a format only
        assert names(table) == [("coding-agent.dump.json", "ui_run_764686752e2f")]
        await pilot.press("ctrl+a", "ctrl+k", *"UNKNOWN")  # a session id, any case; j and k are typed, not moves
        assert names(table) == [("notes-agent.sharegpt.jsonl", "notes-unknown-tool")]
        assert str(picker.query_one("#view").visual) == "1 of 11 sessions · matching 'UNKNOWN'"
        await pilot.press("ctrl+a", "ctrl+k", *"jsonl", "enter")  # kept; the list has the keys again
        assert table.has_focus and len(names(table)) == 6
        assert names(table)[table.cursor_row] == ("notes-agent.sharegpt.jsonl", "notes-unknown-tool")  # kept its row
        await pilot.press("g", "j", "j")
        assert table.cursor_row == 2
        await pilot.press("enter")
        await pilot.app.workers.wait_for_complete()
        assert isinstance(pilot.app.screen, ReviewScreen) and pilot.app.screen.session_index == 2  # finetune line 3
        await pilot.press("escape")
        await pilot.pause()
        assert len(names(table)) == 6  # the search is still in use
        await pilot.press("escape")
        assert names(table) == NAMES and not picker.query_one("#search-row").has_class("-open")

    play(InspectorApp(samples), scenario, settled=True)


def test_at_60_columns_the_row_is_readable_and_at_120_turns_and_format_show(samples: Path):
    async def narrow(pilot: Pilot) -> None:
        table = pilot.app.screen.query_one(DataTable)
        # status dropped: the findings read whole
        assert [key.value for key in table.columns] == ["file", "session", "findings", "turns"]
        assert sum(column.get_render_width(table) for column in table.columns.values()) <= 58
        line = screen_line(table, 6)  # memory-agent
        assert line.startswith(" memory-agent") and "6 result-prefix " in line and line.rstrip().endswith("35")

    async def wide(pilot: Pilot) -> None:
        table = pilot.app.screen.query_one(DataTable)
        assert [key.value for key in table.columns] == ["file", "session", "findings", "turns", "format", "status"]
        assert sum(column.get_render_width(table) for column in table.columns.values()) <= 118
        assert table.render_line(0).text.split() == [
            "File",
            "Session",
            "Findings",
            "by",
            "kind",
            "Turns",
            "Format",
            "Status",
        ]
        line = screen_line(table, 2).split()
        assert line[:2] == ["coding-agent.dump.json", "ui_run_764686752e2f"]
        assert line[-3:] == ["14", "session-dump", "pending"]

    play(InspectorApp(samples), narrow, size=(60, 30), settled=True)
    play(InspectorApp(samples), wide, size=(120, 40), settled=True)


def test_at_60_by_20_every_row_and_its_findings_show(samples: Path):
    async def scenario(pilot: Pilot) -> None:
        table = pilot.app.screen.query_one(DataTable)
        drawn = [table.render_line(y).text for y in range(table.size.height)]
        assert drawn[0].split() == ["File", "Session", "Findings", "by", "kind", "Turns"]
        shown = [line for line in drawn[1:] if line.strip()]
        assert len(shown) == table.row_count == 11  # every row in view, under the title and the rates
        memory = next(line for line in shown if line.startswith(" memory-agent"))
        assert memory.split()[-3:] == ["6", "result-prefix", "35"]  # whole, not cut with "…"

    play(InspectorApp(samples), scenario, size=(60, 20), settled=True)


def test_the_rates_line_sums_what_scan_reports(samples: Path, capsys):
    assert main(["scan", str(samples), "--json"]) == 1
    total = json.loads(capsys.readouterr().out)["rates"]["total"]
    found = sum(kind["count"] for kind in total["kinds"].values())
    assert (found, total["calls"]) == (23, 33)  # 25 findings, of which 2 tool errors
    assert total["by_tool"]["save_memory"]["calls"] == 6  # the tool with the most: 5 fake results of it
    assert sum(kind["count"] for kind in total["by_tool"]["save_memory"]["kinds"].values()) == 5

    async def scenario(pilot: Pilot) -> None:
        assert str(pilot.app.screen.query_one("#rates").visual) == (
            "Rates: 23 of 25 findings are of a kind about tool calls, 69.7 per 100 tool calls (33 calls) · "
            "worst tool: save_memory 5 in 6 calls · worst model: qwen2.5-72b-instruct 9 in 7 calls"
        )

    play(InspectorApp(samples), scenario, settled=True)


def test_the_rates_line_says_how_many_findings_are_rated(tmp_path: Path):
    """The files Claude Code, Codex and Gemini CLI wrote have 13 findings: 10 are of a kind about
    tool calls (leaked markup, fake results, malformed arguments), 3 are tool errors (a tool's own
    failure, not rated)."""
    copied(("claude-code.jsonl", "codex.rollout.jsonl", "gemini-cli.session.jsonl"), TOOL_SAMPLES, tmp_path)

    async def scenario(pilot: Pilot) -> None:
        await until(pilot, pilot.app.screen.scanned.is_set, "the picker to scan every session")
        await pilot.pause()
        assert str(pilot.app.screen.query_one("#rates").visual) == (
            "Rates: 10 of 13 findings are of a kind about tool calls, 71.4 per 100 tool calls (14 calls) · "
            "worst tool: exec_command 3 in 5 calls · worst model: claude-sonnet-4-5 4 in 5 calls"
        )

    play(InspectorApp(tmp_path), scenario, settled=True)


def test_the_rates_line_leaves_out_whole_what_does_not_fit_in_its_two_lines(tmp_path: Path):
    """At 80 columns the rates and the worst tool fill the line's two lines: the worst model is left
    out whole (it was cut after "worst model:"), and comes back when the terminal widens."""
    copied(("claude-code.jsonl", "codex.rollout.jsonl", "gemini-cli.session.jsonl"), TOOL_SAMPLES, tmp_path)

    async def scenario(pilot: Pilot) -> None:
        await until(pilot, pilot.app.screen.scanned.is_set, "the picker to scan every session")
        await pilot.pause()
        line = pilot.app.screen.query_one("#rates")
        assert str(line.visual) == (
            "Rates: 10 of 13 findings are of a kind about tool calls, 71.4 per 100 tool calls (14 calls) · "
            "worst tool: exec_command 3 in 5 calls"
        )
        assert line.size.height == 2
        await pilot.resize_terminal(160, 24)
        await pilot.pause()
        assert str(line.visual).endswith(" · worst model: claude-sonnet-4-5 4 in 5 calls")

    play(InspectorApp(tmp_path), scenario, size=(80, 24), settled=True)


def test_the_rates_line_says_so_when_no_finding_is_rated(write_session):
    """A session whose only finding is a tool's error: the line says that it is not of a kind about
    tool calls rather than "0 findings in 1 tool call"."""
    path = write_session(REFUSED_SEARCH, [WEB_SEARCH])

    async def scenario(pilot: Pilot) -> None:
        await until(pilot, pilot.app.screen.scanned.is_set, "the picker to scan every session")
        await pilot.pause()
        assert str(pilot.app.screen.query_one("#rates").visual) == (
            "Rates: the one finding is not of a kind about tool calls (1 tool call)"
        )

    play(InspectorApp(path.parent), scenario, settled=True)


def test_the_rates_line_names_no_worst_tool_for_findings_that_name_none(write_session):
    """A narrated action names no tool: it counts in the rates, never as a tool's (scan's `by_tool`
    leaves it out too), even when such findings outnumber every tool's."""
    path = write_session(
        [
            {"role": "user", "content": "What is the weather in Oslo?"},
            {"role": "assistant", "content": None, "tool_calls": [SEARCH_CALL]},
            {"role": "tool", "tool_call_id": "c1", "content": "no results"},
            {"role": "assistant", "content": "Let me search for that now."},
            {"role": "user", "content": "go on"},
        ],
        [WEB_SEARCH],
    )

    async def scenario(pilot: Pilot) -> None:
        assert str(pilot.app.screen.query_one("#rates").visual) == (
            "Rates: 1 of 1 finding is of a kind about tool calls, 100.0 per 100 tool calls (1 call)"
        )

    play(InspectorApp(path.parent), scenario, settled=True)


def test_a_history_of_1604_conversations_sorts_filters_and_moves_a_page_at_a_time(tmp_path: Path):
    database = build_rubyllm(tmp_path / "app.db", MANY)  # 1 result-prefix, 1 malformed, 801 tool-markup, 801 none

    async def scenario(pilot: Pilot) -> None:
        picker = pilot.app.screen
        table = picker.query_one(DataTable)
        await until(pilot, picker.scanned.is_set, "the picker to scan every conversation")
        await pilot.pause()
        assert str(picker.query_one("#rates").visual).startswith("Rates: ")
        assert str(picker.query_one("#view").visual) == "1,604 conversations"
        await pilot.press("s")
        assert str(picker.query_one("#view").visual) == "1,604 conversations · sorted by findings, most first"
        assert table.row_count == FIRST_ROWS and len(picker.table.arrangement) == len(MANY)  # one page drawn
        assert [row[1] for row in rows(table)[:3]] == ["1", "2", "3"]
        await pilot.press("S", "G")  # the conversations without findings first; G draws every row to the last
        assert table.row_count == len(MANY) and table.cursor_row == len(MANY) - 1
        assert rows(table)[0][1:3] == ["4", "none"] and rows(table)[-1][1:3] == [
            "1603",
            "1 tool-markup",
        ]  # ties as listed
        await pilot.press("g", "j", "j", "k")
        assert table.cursor_row == 1
        await pilot.press("escape", "f", "f")  # the first kind by name
        assert [row[1:3] for row in rows(table)] == [["2", "1 malformed-arguments"]]
        await pilot.press("f", "f")
        assert len(picker.table.arrangement) == 801 and table.row_count == FIRST_ROWS
        await pilot.press("escape", "g", "j", "enter")  # conversation 2: decided, the others still pending
        review = pilot.app.screen
        await until(pilot, lambda: review.review is not None, "the review screen to read its review")
        await pilot.press("a", "escape")
        await until(pilot, lambda: pilot.app.screen is picker, "the picker to come back")
        assert [row[-1] for row in rows(table)[:4]] == ["pending", "decided", "pending", ""]

    play(InspectorApp(database), scenario, settled=True)


def test_a_100_kb_session_id_is_cut_in_its_column_and_searched_quickly(tmp_path: Path):
    hostile = "[b]\x1b]0;x\x07" + "ab" * 50_000  # markup, an escape sequence, then 100 KB
    line = {"id": hostile, "conversations": [{"from": "human", "value": "Hi"}, {"from": "gpt", "value": "Hello."}]}
    (tmp_path / "big.sharegpt.jsonl").write_text(json.dumps(line) + "\n", encoding="utf-8")
    shutil.copy(SESSIONS / "clean.openai.json", tmp_path / "clean.openai.json")

    async def scenario(pilot: Pilot) -> None:
        table = pilot.app.screen.query_one(DataTable)
        row = screen_line(table, 0)
        assert row.startswith(" big.sharegpt.jsonl") and "[b]\\x1b]0;x\\x07abab" in row and "…" in row
        assert len(row) <= 120 and row.split()[-3:] == ["none", "2", "sharegpt"]  # the columns after it in view
        began = cpu_time()
        await pilot.press("slash")
        pilot.app.screen.query_one("#search", Input).value = "ab" * 20_000
        await pilot.press("enter")
        assert names(table) == [("big.sharegpt.jsonl", '"[b]\\x1b]0;x\\x07' + "ab" * 50_000 + '"')]  # quoted
        assert cpu_time() - began < 10

    play(InspectorApp(tmp_path), scenario, settled=True)


def test_the_list_line_counts_one_row_in_the_singular():
    """'1 conversation', '0 of 1 session', where it said '1 conversations'; a history of one
    conversation says Enter lists it."""
    assert described(View(), 1, 1, "conversations") == "1 conversation"
    assert described(View(search="nothing"), 0, 1, "sessions").startswith("0 of 1 session · ")
    assert described(View(), 2, 2, "sessions") == "2 sessions"
    assert database_note([("c1", 3)], "opencode").note == "1 conversation, Enter lists it"
    assert database_note([("c1", 3), ("c2", 4)], "opencode").note == "2 conversations, Enter lists them"
