"""The `llm` CLI's own `logs.db` (0.32 and later), made by running the real `llm` with the offline
`echo` model of `llm-echo`: threads are sessions, tool calls and results come from their parts,
tool definitions from the `tools` table."""

from __future__ import annotations

import json

from inspector.cli.main import main
from inspector.scan.scanner import iter_scan
from inspector.sources import open_source
from tests.helpers.llm_cli import run_llm
from tests.helpers.sqlite_histories import FAKE_SAVE


def test_threads_are_sessions_with_their_calls_and_results(logs_db):
    conversations = open_source(logs_db).listing()
    assert [count for _, count in conversations] == [2, 6]
    first = open_source(logs_db).session(conversations[0][0])
    assert first.format == "llm"
    assert [(t.role, t.text) for t in first.turns][1] == ("assistant", FAKE_SAVE)
    second = open_source(logs_db).session(conversations[1][0])
    assert [t.role for t in second.turns] == ["user", "assistant", "tool", "assistant", "user", "assistant"]
    (call,) = second.turns[1].tool_calls
    (result,) = second.turns[2].tool_results
    assert (call.name, call.arguments) == ("save_memory", {"memory_type": "fact", "content": "Likes tea."})
    assert (result.call_id, result.content) == (call.id, "saved")
    assert [tool.name for tool in second.tools] == ["save_memory"]


def test_scan_finds_the_fake_result_in_a_real_logs_db(logs_db, capsys):
    assert main(["scan", "--json", str(logs_db)]) == 1
    report = json.loads(capsys.readouterr().out)
    found = [[(f["turn"], f["kind"], f["tool"], f["executed"]) for f in s["findings"]] for s in report["sessions"]]
    assert found == [[(1, "result-prefix", "save_memory", False)], []]
    assert {s["format"] for s in report["sessions"]} == {"llm"}


def test_fix_writes_a_forked_thread_that_llm_itself_reads_and_verifies(logs_db, tmp_path, capsys):
    import sqlite_utils
    from llm.logs import LogStore, message_hash

    home = tmp_path / "home"
    home.mkdir()
    out = home / "logs.db"
    original_threads = open_source(logs_db).listing()
    assert main(["fix", str(logs_db), "--accept", "all", "-o", str(out)]) == 0
    db = sqlite_utils.Database(out)
    fork = next(db.query("SELECT * FROM threads WHERE forked_from IS NOT NULL"))
    assert fork["forked_from"] == original_threads[0][0]
    store = LogStore(db)
    chain = store.thread_messages(fork["id"])
    assert [m.role for m in chain] == ["user", "assistant", "tool", "assistant"]
    assert chain[1].parts[0].name == "save_memory" and chain[1].parts[0].arguments["memory_type"] == "journal"
    assert chain[3].parts[0].text == "You saw right through me."
    parent = None  # every hash of the fork is the one llm computes for its message and parent
    for message, row in zip(chain, _chain_rows(db, fork["tip_message_hash"])):
        assert row["hash"] == message_hash(message, parent) and row["parent_hash"] == parent
        parent = row["hash"]
    assert store.thread_messages(original_threads[0][0])[1].parts[0].text == FAKE_SAVE  # untouched
    assert open_source(out).listing()[:2] == original_threads
    shown = run_llm(home, "logs", "--cid", fork["id"])  # llm still reads the database, and lists the fork
    assert "You saw right through me." in shown and "{success: true" not in shown.split("## Response")[-1]
    audit = list(db.query("SELECT kind, note FROM inspector_fixes"))
    assert [row["kind"] for row in audit] == ["result-prefix"] and fork["id"] in audit[0]["note"]
    rescanned = {r.session.session_id: [f.kind for f in r.findings] for r in iter_scan(open_source(out))}
    assert rescanned[fork["id"]] == [] and rescanned[original_threads[0][0]] == ["result-prefix"]


def _chain_rows(db, tip: str) -> list[dict]:
    rows, current = [], tip
    while current is not None:
        row = next(db.query("SELECT hash, parent_hash FROM messages WHERE hash = ?", [current]))
        rows.append(row)
        current = row["parent_hash"]
    return rows[::-1]


def test_a_scan_from_the_second_thread_is_the_tail_of_a_full_scan(logs_db):
    def summary(results):
        return [(r.session.session_id, len(r.session.turns), [f.kind for f in r.findings]) for r in results]

    full = summary(iter_scan(open_source(logs_db)))
    assert len(full) == 2
    assert summary(iter_scan(open_source(logs_db), start=1)) == full[1:]
