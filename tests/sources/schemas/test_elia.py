"""Elia's tables (`chat`, `message`), built as Elia creates them: its chats are sessions, a leaked
call is found, and `--format` forcing a schema checks the tables."""

from __future__ import annotations

from inspector.cli.main import main
from inspector.sources import open_source
from tests.helpers.scanning import reported_findings
from tests.helpers.sqlite_histories import build_elia


def test_elia_chats_are_sessions_and_a_leaked_call_is_found(tmp_path, capsys):
    path = build_elia(tmp_path / "elia.sqlite")
    assert open_source(path).listing() == [("1", 3), ("2", 2)]
    assert open_source(path).format == "elia"
    assert open_source(path).session("1").format == "elia"
    assert reported_findings(capsys, str(path)) == {"1": [(2, "tool-markup", "web_search")], "2": []}


def test_format_option_forces_a_schema_and_checks_it(tmp_path, capsys):
    path = build_elia(tmp_path / "elia.db")
    assert main(["scan", str(path), "--format", "rubyllm"]) == 2
    assert "does not have the tables of the rubyllm schema (tables: chat, message)" in capsys.readouterr().err
    assert main(["scan", str(path), "--format", "elia", "--json"]) == 1
