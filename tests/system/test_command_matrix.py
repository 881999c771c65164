"""Every command on every kind of storage: `scan` (text and `--json`), `report` (`--html` and
`--markdown`), `fix`, `undo` and the app (`inspector PATH`, headless) on a session file, a folder of
them, an SQLite history and a PostgreSQL database, each checked to do its job (its exit code and
what it wrote); a command that does not apply to a kind of storage says so in one line with 2; and
a PostgreSQL server that is down is one line and 2 for every command. The PostgreSQL cases start a
server: they are slow."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from textual.pilot import Pilot

from inspector.cli.main import main
from inspector.tui.app import InspectorApp
from inspector.tui.picker.screen import PickerScreen
from inspector.tui.review.screen import ReviewScreen
from tests.helpers.pilot import play, until
from tests.helpers.postgres_cluster import free_port
from tests.helpers.postgres_histories import build_rubyllm_postgres
from tests.helpers.rubyllm import build_rubyllm, messages_of
from tests.helpers.samples import SESSIONS, copied


@dataclass(frozen=True)
class Storage:
    """A kind of storage made for one test: what to type for it, the findings a scan of it finds,
    its sessions, whether it is a database (fixed in place, undone), and how to read its content."""

    argument: str
    findings: int
    sessions: int
    database: bool
    content: Callable[[], object]


def _session_file(tmp_path: Path, request: pytest.FixtureRequest) -> Storage:
    path = Path(shutil.copy(SESSIONS / "memory-agent.openai.json", tmp_path / "memory-agent.openai.json"))
    return Storage(str(path), 6, 1, False, path.read_bytes)


def _folder(tmp_path: Path, request: pytest.FixtureRequest) -> Storage:
    folder = copied(("memory-agent.openai.json", "notes-agent.claude-code.jsonl"), SESSIONS, tmp_path / "sessions")
    return Storage(
        str(folder), 6 + _findings_of(folder / "notes-agent.claude-code.jsonl"), 2, False, lambda: _tree(folder)
    )


def _sqlite(tmp_path: Path, request: pytest.FixtureRequest) -> Storage:
    path = build_rubyllm(tmp_path / "app.db")
    return Storage(str(path), 3, 4, True, lambda: messages_of(path))


def _postgres(tmp_path: Path, request: pytest.FixtureRequest) -> Storage:
    import psycopg

    url = build_rubyllm_postgres(request.getfixturevalue("postgres_db"))

    def content() -> object:
        with psycopg.connect(url) as conn:
            return conn.execute("SELECT id, content FROM messages ORDER BY id").fetchall()

    return Storage(url, 2, 4, True, content)


TOTAL = re.compile(r"^\d+ sessions?, [\d,]+ turns, (?P<findings>\d+) findings?$")  # the scan's last line of totals

KINDS = [
    pytest.param(_session_file, id="file"),
    pytest.param(_folder, id="folder"),
    pytest.param(_sqlite, id="sqlite"),
    pytest.param(_postgres, id="postgres", marks=pytest.mark.slow),
]


def _findings_of(path: Path) -> int:
    """The findings `scan --json` reports in `path`, counted."""
    import contextlib
    import io

    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        main(["scan", "--json", str(path)])
    return sum(len(session["findings"]) for session in json.loads(printed.getvalue())["sessions"])


def _tree(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


@pytest.fixture(params=KINDS)
def storage(request: pytest.FixtureRequest, tmp_path: Path) -> Storage:
    """One kind of storage, holding sessions with findings."""
    return request.param(tmp_path, request)


def test_scan_prints_each_session_and_the_total_and_exits_1(storage, capsys):
    before = storage.content()
    assert main(["scan", storage.argument]) == 1
    printed = capsys.readouterr()
    assert printed.err == ""
    (total,) = [line for line in printed.out.splitlines() if TOTAL.match(line)]
    assert TOTAL.match(total)["findings"] == str(storage.findings)  # type: ignore[index]
    assert storage.content() == before


def test_scan_json_reports_every_session_and_finding_and_exits_1(storage, capsys):
    assert main(["scan", "--json", storage.argument]) == 1
    report = json.loads(capsys.readouterr().out)
    assert len(report["sessions"]) == storage.sessions
    assert sum(len(session["findings"]) for session in report["sessions"]) == storage.findings


@pytest.mark.parametrize(("option", "starts"), [("--html", "<!doctype html>"), ("--markdown", "# ")])
def test_report_writes_the_page_and_leaves_the_input_alone(storage, option, starts, tmp_path, capsys):
    before = storage.content()
    out = tmp_path / "out" / f"report{option.replace('--', '.')}"
    out.parent.mkdir()
    assert main(["report", storage.argument, option, str(out)]) == 0
    assert out.read_text(encoding="utf-8").lower().startswith(starts)
    printed = capsys.readouterr()
    assert printed.out == f"wrote {out}: a report of {storage.findings} findings in {storage.sessions} session" + (
        "s\n" if storage.sessions != 1 else "\n"
    )
    assert printed.err == ""
    assert storage.content() == before


def test_fix_repairs_what_it_found_and_a_scan_of_what_it_wrote_finds_nothing(storage, tmp_path, capsys):
    if not storage.database and Path(storage.argument).is_dir():
        assert main(["fix", storage.argument, "--accept", "all", "-o", str(tmp_path / "out.json")]) == 2
        assert capsys.readouterr().err.count("\n") == 1
        return
    out = storage.argument if storage.database else str(tmp_path / "fixed.json")
    where = ["--in-place"] if storage.database else ["-o", out]
    assert main(["fix", storage.argument, "--accept", "all", *where]) == 0
    printed = capsys.readouterr().out
    assert f"wrote {out}: {storage.findings} fixes applied, no finding left\n" in printed
    assert main(["scan", out]) == 0


def test_undo_puts_a_database_back_and_refuses_a_file_in_one_line(storage, capsys):
    before = storage.content()
    if not storage.database:
        assert main(["undo", storage.argument]) == 2
        assert capsys.readouterr().err.count("\n") == 1
        return
    assert main(["fix", storage.argument, "--accept", "all", "--in-place"]) == 0
    assert storage.content() != before
    assert main(["undo", storage.argument]) == 0
    assert "undid fixes" in capsys.readouterr().out
    assert storage.content() == before
    assert main(["scan", storage.argument]) == 1  # the findings are back


def test_the_app_opens_each_kind_on_its_sessions(storage, monkeypatch):
    apps: list[InspectorApp] = []
    monkeypatch.setattr(InspectorApp, "run", lambda self, *args, **kwargs: apps.append(self))
    assert main([storage.argument]) == 0
    (app,) = apps
    shown: list[str] = []

    async def scenario(pilot: Pilot) -> None:
        await until(pilot, lambda: isinstance(pilot.app.screen, PickerScreen | ReviewScreen), "a screen of sessions")
        screen = pilot.app.screen
        if isinstance(screen, PickerScreen):
            await until(pilot, screen.scanned.is_set, "the picker to scan every session")
            shown.append(f"picker of {len(screen.query_one('DataTable').rows)}")  # type: ignore[attr-defined]
        else:
            await until(pilot, lambda: screen.review is not None, "the review to be read")
            shown.append("review")

    play(app, scenario)
    assert shown == (["review"] if storage.sessions == 1 else [f"picker of {storage.sessions}"])


@pytest.mark.parametrize(
    "command",
    [
        ["scan"],
        ["scan", "--json"],
        ["report", "--html", "{out}"],
        ["report", "--markdown", "{out}"],
        ["fix", "--accept", "all", "--in-place"],
        ["undo"],
        [],
    ],
    ids=["scan", "scan-json", "report-html", "report-markdown", "fix", "undo", "app"],
)
def test_a_server_that_is_down_is_one_line_and_exit_2(command, tmp_path, capsys):
    url = f"postgresql://postgres@127.0.0.1:{free_port()}/nothing"
    arguments = [part.replace("{out}", str(tmp_path / "report")) for part in command]
    assert main([*arguments[:1], url, *arguments[1:]]) == 2
    printed = capsys.readouterr()
    assert printed.err.count("\n") == 1 and printed.err.startswith("inspector: error: ")
    assert "Traceback" not in printed.err
    if "--json" in command:  # the machine-readable report says it too
        assert len(json.loads(printed.out)["errors"]) == 1
    else:
        assert printed.out == ""
    assert list(tmp_path.iterdir()) == []
