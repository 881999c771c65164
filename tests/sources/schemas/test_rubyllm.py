"""RubyLLM's Rails tables: a database built the way a Rails app with `acts_as_chat` keeps it, read
conversation by conversation, and the bundled sample `rails-chat.rubyllm.db`, which is what
`build_rubyllm` (`tests/helpers/rubyllm.py`) makes of seed 000's chats."""

from __future__ import annotations

import json

from inspector.cli.main import main
from inspector.scan.scanner import iter_scan
from inspector.sources import open_source
from tests.helpers.rubyllm import MODEL, build_rubyllm, dump_database
from tests.helpers.samples import SESSIONS


def test_each_chat_is_a_session_with_its_calls_and_results(tmp_path):
    path = build_rubyllm(tmp_path / "app.db")
    assert open_source(path).listing() == [("1", 10), ("2", 4), ("3", 2), ("4", 2)]
    chat = open_source(path).session("1")
    assert (chat.format, chat.session_id, len(chat.turns)) == ("rubyllm", "1", 10)
    assert [t.role for t in chat.turns[4:]] == ["user", "assistant", "user", "assistant", "tool", "assistant"]
    (call,) = chat.turns[7].tool_calls
    assert (call.id, call.name, call.arguments) == ("call_wb_1", "whiteboard", {"action": "get", "board_id": "week"})
    (result,) = chat.turns[8].tool_results
    assert (result.call_id, result.name) == ("call_wb_1", "whiteboard")
    assert chat.turns[5].raw == {"id": 6, "model": MODEL}


def test_scan_finds_seed_000s_failure_and_the_other_broken_turns(tmp_path, capsys):
    path = build_rubyllm(tmp_path / "app.db")
    assert main(["scan", "--json", str(path)]) == 1
    report = json.loads(capsys.readouterr().out)
    found = {s["session_id"]: [(f["turn"], f["kind"], f["tool"]) for f in s["findings"]] for s in report["sessions"]}
    assert found == {
        "1": [(5, "result-prefix", "save_memory")],
        "2": [(1, "malformed-arguments", "save_memory")],
        "3": [(1, "tool-markup", "whiteboard")],
        "4": [],
    }
    assert {s["format"] for s in report["sessions"]} == {"rubyllm"}
    assert report["summary"]["turns"] == 18


def test_session_option_picks_one_chat(tmp_path, capsys):
    path = build_rubyllm(tmp_path / "app.db")
    assert main(["scan", "--json", "--session", "3", str(path)]) == 1
    report = json.loads(capsys.readouterr().out)
    assert [s["session_id"] for s in report["sessions"]] == ["3"]


def test_chats_are_read_one_at_a_time(tmp_path):
    path = build_rubyllm(tmp_path / "app.db")
    results = iter_scan(open_source(path))
    first = next(results)
    assert first.session.session_id == "1"
    # the database is still open for the next chat, and nothing else was loaded yet
    assert [r.session.session_id for r in results] == ["2", "3", "4"]


def test_a_directory_lists_database_files(tmp_path, capsys):
    build_rubyllm(tmp_path / "app.sqlite3")
    (tmp_path / "notes.json").write_text(json.dumps({"messages": [{"role": "user", "content": "hi"}]}))
    assert main(["scan", "--json", str(tmp_path)]) == 1
    report = json.loads(capsys.readouterr().out)
    assert sorted({s["path"].rsplit("/", 1)[-1] for s in report["sessions"]}) == ["app.sqlite3", "notes.json"]


def test_bundled_sample_is_what_the_builder_makes(tmp_path):
    built = build_rubyllm(tmp_path / "rails-chat.rubyllm.db")
    assert dump_database(SESSIONS / "rails-chat.rubyllm.db") == dump_database(built)
    assert (SESSIONS / "rails-chat.rubyllm.db").stat().st_size < 100_000
