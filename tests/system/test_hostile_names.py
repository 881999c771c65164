"""File names that hold line breaks, tabs, terminal escapes or direction overrides: wherever a
name is printed it is one line, quoted, and cannot forge other lines of the output."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from inspector.cli.main import main
from inspector.report.markdown_text import inline
from tests.helpers.samples import LANGCHAIN_SQL, SESSIONS

FORGED = (
    "x.json\n3 sessions, 0 turns, 0 findings\n\tfake.json session 1  (openai, 1 turns, 0 findings)\x1b[2J\u202e.json"
)


@pytest.fixture
def hostile(tmp_path: Path) -> Path:
    folder = tmp_path / "in"
    folder.mkdir()
    return Path(shutil.copy(SESSIONS / "memory-agent.openai.json", folder / FORGED))


def test_scan_prints_a_forged_name_as_one_quoted_line(hostile: Path, capsys):
    assert main(["scan", str(hostile.parent)]) == 1
    out = capsys.readouterr().out
    headers = [line for line in out.splitlines() if "x.json" in line]
    assert len(headers) == 1
    assert headers[0].startswith(f'"{hostile.parent}/x.json\\n3 sessions, 0 turns, 0 findings\\n\\tfake.json')
    assert '\\x1b[2J\\u202e.json"  (openai, 35 turns, 6 findings)' in headers[0]
    assert not any(line.startswith(("3 sessions", "\t")) for line in out.splitlines())
    assert "\x1b" not in out and "\u202e" not in out


def test_fix_and_errors_print_a_forged_name_on_one_line(hostile: Path, tmp_path: Path, capsys):
    out = tmp_path / "fixed.json"
    main(["fix", str(hostile), "--accept", "all", "-o", str(out)])
    printed = capsys.readouterr().out
    assert [line for line in printed.splitlines() if "x.json" in line] == [
        f'"{hostile.parent}/x.json\\n3 sessions, 0 turns, 0 findings\\n\\tfake.json session 1  (openai, 1 turns, 0 '
        'findings)\\x1b[2J\\u202e.json": 6 findings'
    ]
    for missing in ([f"{hostile}.missing"], [f"{hostile}.missing.json"], ["scan", f"{hostile}.missing"]):
        assert main(missing) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith('inspector: error: "') and "\x1b" not in err


@pytest.mark.slow  # drives the app with Pilot
def test_the_picker_shows_a_forged_name_on_one_quoted_row(hostile: Path):
    from textual.widgets import Static

    from inspector.tui.app import InspectorApp
    from inspector.tui.picker.table import ListTable
    from tests.helpers.pilot import play, rows, until

    async def scenario(pilot):
        table = pilot.app.screen.query_one(ListTable)
        await until(pilot, lambda: table.row_count == 1, "the row")
        (row,) = rows(table)
        assert any(cell.startswith('"x.json\\n3 sessions') and "\n" not in cell for cell in row)
        title = str(pilot.app.screen.query_one("#title", Static).render())
        assert '"x.json\\n3 sessions' not in title  # a folder: its path, not the file's name
        assert "\n" not in title

    play(InspectorApp(hostile.parent), scenario, settled=True)


HEAD, TAIL = "head", "tail"
NAMED = f"{HEAD}\n\x1b[2J\u202e{TAIL}"  # a line break, a terminal escape and a direction override
ESCAPED = f"{HEAD}\\n\\x1b[2J\\u202e{TAIL}"  # as every output shows it
_RAW = ("\x1b", "\u202e", "\r", "\x00")


def _hostile_inputs(folder: Path) -> dict[str, Path]:
    """Files named `NAMED` for each command and each error path: a session, an SQLite history,
    a missing file, JSON of no known shape, broken JSON, a folder holding broken JSON, and a
    file that says it is SQLite but is not."""
    folder.mkdir()
    broken_folder = folder / f"{NAMED}.d"
    broken_folder.mkdir()
    (broken_folder / f"{NAMED}.json").write_text("{not json", encoding="utf-8")
    files = {
        "session": Path(shutil.copy(SESSIONS / "memory-agent.openai.json", folder / f"{NAMED}.json")),
        "database": Path(shutil.copy(LANGCHAIN_SQL, folder / f"{NAMED}.db")),
        "missing": folder / f"{NAMED}.missing.json",
        "unrecognised": folder / f"{NAMED}.other.json",
        "broken": folder / f"{NAMED}.broken.json",
        "broken folder": broken_folder,
        "not a database": folder / f"{NAMED}.sqlite",
    }
    files["unrecognised"].write_text('{"weather": "sunny"}', encoding="utf-8")
    files["broken"].write_text("{not json", encoding="utf-8")
    files["not a database"].write_text("plain text, not SQLite", encoding="utf-8")
    return files


COMMANDS = {
    "scan": (lambda f, out: ["scan", str(f["session"])], 1),
    "report --html": (lambda f, out: ["report", "--html", str(out / f"{NAMED}.html"), str(f["session"])], 0),
    "report --markdown": (lambda f, out: ["report", "--markdown", "-", str(f["session"])], 0),
    "fix": (lambda f, out: ["fix", str(f["session"]), "--accept", "all", "-o", str(out / f"{NAMED}.json")], 0),
    "fix in place": (lambda f, out: ["fix", str(f["database"]), "--accept", "all", "--in-place"], 0),
    "undo": (lambda f, out: ["undo", str(f["database"])], 2),  # nothing to undo: an error naming it
    "missing file": (lambda f, out: ["scan", str(f["missing"])], 2),
    "unrecognised format": (lambda f, out: ["scan", str(f["unrecognised"])], 2),
    "unreadable JSON": (lambda f, out: ["scan", str(f["broken"])], 2),
    "a folder with unreadable JSON": (lambda f, out: ["scan", str(f["broken folder"])], 2),
    "not a database": (lambda f, out: ["scan", str(f["not a database"])], 2),
    "undo, not a database": (lambda f, out: ["undo", str(f["not a database"])], 2),
    "no such session": (lambda f, out: ["scan", "--session", "other", str(f["session"])], 2),
    "fix, no such session": (lambda f, out: ["fix", str(f["session"]), "--session", "other", "-o", str(out / "o")], 2),
}


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_prints_a_hostile_name_on_one_line(command: str, tmp_path: Path, capsys):
    files = _hostile_inputs(tmp_path / "in")
    out = tmp_path / "out"
    out.mkdir()
    arguments, code = COMMANDS[command]
    assert main(arguments(files, out)) == code
    printed = capsys.readouterr()
    lines = (printed.out + printed.err).splitlines()
    assert not [line for line in lines if any(raw in line for raw in _RAW)]
    named = [line for line in lines if TAIL in line]
    assert named, "the name is printed"
    shown = inline(ESCAPED) if command == "report --markdown" else ESCAPED  # Markdown escapes it once more
    assert all(shown in line for line in named)  # whole, on one line, every character visible
    assert all(re.search(f'"[^"]*{re.escape(shown)}[^"]*"', line) for line in named)  # quoted: where it ends shows
    assert not any(line.startswith(("[2J", TAIL)) for line in lines)


def test_the_json_report_keeps_a_hostile_name_exact(tmp_path: Path, capsys):
    files = _hostile_inputs(tmp_path / "in")
    assert main(["scan", "--json", str(files["session"])]) == 1
    (session,) = json.loads(capsys.readouterr().out)["sessions"]
    assert session["path"] == str(files["session"])
