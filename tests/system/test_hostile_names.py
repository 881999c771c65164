"""File names that hold line breaks, tabs, terminal escapes or direction overrides: wherever a
name is printed it is one line, quoted, and cannot forge other lines of the output."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from inspector.cli.main import main
from tests.helpers.samples import SESSIONS

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
