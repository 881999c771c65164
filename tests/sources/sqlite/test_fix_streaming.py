"""`inspector fix` on an SQLite history with `--execute CMD` or `--session ID`: conversations are
read one at a time as without them. The executor runs every accepted recovered call after the whole
history has been read and before the database is copied or locked, so it may write to that very
database (a chat app's `save_memory` saves into the app's own tables); each conversation records its
own answers. Real RubyLLM databases, a real executor process."""

from __future__ import annotations

import json
import shlex
import sqlite3
import sys
from pathlib import Path

from inspector.cli.main import main
from inspector.sources import open_source
from tests.helpers.databases import fetch_all, kinds_by_session
from tests.helpers.rubyllm import build_rubyllm, dump_database
from tests.helpers.tools import SAVE_MEMORY


def _journal_chat(content: str) -> list[tuple]:
    """A chat whose reply starts with a fake `save_memory` result."""
    return [
        ("user", f"Journal that {content.lower()}", None),
        ("assistant", f'{{success: true, memory_type: "journal", content: "{content}"}}Well done!', None),
    ]


# Same turn positions, so the recovered calls of both chats have the same id.
CHATS = [
    _journal_chat("I ran 5k."),
    _journal_chat("I ran 10k."),
    [("user", "How long is a tempo run?", None), ("assistant", "Twenty minutes or so.", None)],
]

# Saves the memory into the database it is given (the app's own), then answers with what it saved.
EXECUTOR = """
import json, sqlite3, sys
call = json.load(sys.stdin)
db = sqlite3.connect(sys.argv[1], timeout=2)
db.execute("CREATE TABLE IF NOT EXISTS agent_memories (chat TEXT, content TEXT)")
db.execute("INSERT INTO agent_memories VALUES (?, ?)", (call["session_id"], call["arguments"]["content"]))
db.commit()
print(json.dumps({"saved": call["arguments"]["content"], "chat": call["session_id"]}))
"""


def _executor(tmp_path: Path, database: Path) -> list[str]:
    """`--execute` with the command saving memories into `database`, and the tool it stands for."""
    script, tools = tmp_path / "save_memory.py", tmp_path / "tools.json"
    script.write_text(EXECUTOR)
    tools.write_text(json.dumps([SAVE_MEMORY]))
    return ["--execute", shlex.join([sys.executable, str(script), str(database)]), "--tools", str(tools)]


def _answers(path: Path) -> dict[str, object]:
    """The result recorded for each chat's recovered call, by chat id."""
    found = {}
    for chat in ("1", "2"):
        (result,) = [r for turn in open_source(path).session(chat).turns for r in turn.tool_results]
        found[chat] = json.loads(result.content)
    return found


def _unreadable(path: Path, chat: int) -> None:
    """Store bytes that are not UTF-8 in a message of `chat`, as a buggy app might."""
    with sqlite3.connect(path) as conn:
        conn.execute(
            "UPDATE messages SET content = CAST(x'ff41' AS TEXT) WHERE id = "
            "(SELECT max(id) FROM messages WHERE chat_id = ?)",
            [chat],
        )
    conn.close()


def test_each_conversation_records_its_own_answer_to_calls_with_the_same_id(tmp_path, capsys):
    source, out = build_rubyllm(tmp_path / "app.db", CHATS), tmp_path / "fixed.db"
    command = _executor(tmp_path, tmp_path / "memories.db")
    assert main(["fix", str(source), "--accept", "all", *command, "-o", str(out)]) == 1
    printed = capsys.readouterr().out
    assert (
        printed.count("execute save_memory (session") == 2
        and "4 findings\n" in printed
        and "2 fixes applied" in printed
    )
    assert _answers(out) == {"1": {"saved": "I ran 5k.", "chat": "1"}, "2": {"saved": "I ran 10k.", "chat": "2"}}
    audit = fetch_all(out, "SELECT session_id, executions FROM inspector_fixes ORDER BY session_id")
    assert [(chat, json.loads(executions)[0]["result"]["chat"]) for chat, executions in audit] == [
        ("1", "1"),
        ("2", "2"),
    ]
    assert kinds_by_session(out) == {"1": [], "2": [], "3": []}


def test_what_the_executor_writes_to_the_database_reaches_the_new_one(tmp_path, capsys):
    source, out = build_rubyllm(tmp_path / "app.db", CHATS), tmp_path / "fixed.db"
    assert main(["fix", str(source), "--accept", "all", *_executor(tmp_path, source), "-o", str(out)]) == 1
    memories = [("1", "I ran 5k."), ("2", "I ran 10k.")]
    assert fetch_all(source, "SELECT * FROM agent_memories") == memories
    assert fetch_all(out, "SELECT * FROM agent_memories") == memories  # the copy is made after the calls ran
    assert _answers(out)["2"] == {"saved": "I ran 10k.", "chat": "2"}


def test_in_place_the_executor_may_write_to_the_database_being_repaired(tmp_path, capsys):
    source = build_rubyllm(tmp_path / "app.db", CHATS)
    assert main(["fix", str(source), "--accept", "all", *_executor(tmp_path, source), "--in-place"]) == 1
    assert "error" not in capsys.readouterr().out  # not kept waiting by a lock of the fix
    assert fetch_all(source, "SELECT * FROM agent_memories") == [("1", "I ran 5k."), ("2", "I ran 10k.")]
    assert fetch_all(tmp_path / "app.db.bak", "SELECT count(*) FROM agent_memories") == [(2,)]
    assert _answers(source) == {"1": {"saved": "I ran 5k.", "chat": "1"}, "2": {"saved": "I ran 10k.", "chat": "2"}}
    audit = fetch_all(source, "SELECT session_id, executions FROM inspector_fixes ORDER BY session_id")
    assert [(chat, json.loads(executions)[0]["result"]["chat"]) for chat, executions in audit] == [
        ("1", "1"),
        ("2", "2"),
    ]


def test_a_history_that_cannot_be_read_to_its_end_runs_nothing_and_writes_nothing(tmp_path, capsys):
    source, out = build_rubyllm(tmp_path / "app.db", CHATS), tmp_path / "fixed.db"
    _unreadable(source, 3)  # after both chats with calls to run
    before = source.read_bytes()
    memories = tmp_path / "memories.db"
    assert main(["fix", str(source), "--accept", "all", *_executor(tmp_path, memories), "-o", str(out)]) == 2
    captured = capsys.readouterr()
    assert "Could not decode to UTF-8" in captured.err and "execute" not in captured.out
    assert not memories.exists() and not out.exists() and source.read_bytes() == before


def test_session_runs_and_fixes_only_that_conversation_without_reading_the_others(tmp_path, capsys):
    source, out = build_rubyllm(tmp_path / "app.db", CHATS), tmp_path / "fixed.db"
    _unreadable(source, 1)
    _unreadable(source, 3)
    memories = tmp_path / "memories.db"
    options = ["--accept", "all", *_executor(tmp_path, memories), "--session", "2", "-o", str(out)]
    assert main(["fix", str(source), *options]) == 1
    assert "2 findings\nwrote" in (printed := capsys.readouterr().out) and "1 fix applied" in printed
    assert fetch_all(memories, "SELECT * FROM agent_memories") == [("2", "I ran 10k.")]
    assert fetch_all(out, "SELECT session_id, kind FROM inspector_fixes") == [("2", "result-prefix")]
    assert kinds_by_session(out, only="2") == {"2": []}
    assert fetch_all(out, "SELECT count(*) FROM messages WHERE chat_id = 1") == [(2,)]  # the other chats as they were


def test_session_in_place_keeps_a_backup_and_changes_only_that_conversation(tmp_path, capsys):
    source = build_rubyllm(tmp_path / "app.db")
    before = dump_database(source)
    assert main(["fix", str(source), "--accept", "all", "--session", "3", "--in-place"]) == 0
    assert f"backup: {source}.bak" in capsys.readouterr().out
    assert dump_database(tmp_path / "app.db.bak") == before
    assert kinds_by_session(source) == {"1": ["result-prefix"], "2": ["malformed-arguments"], "3": [], "4": []}
    assert fetch_all(source, "SELECT session_id, kind FROM inspector_fixes") == [("3", "tool-markup")]


def test_an_unknown_session_runs_nothing_and_writes_nothing(tmp_path, capsys):
    source, out = build_rubyllm(tmp_path / "app.db", CHATS), tmp_path / "fixed.db"
    memories = tmp_path / "memories.db"
    options = ["--accept", "all", *_executor(tmp_path, memories), "--session", "9", "--in-place"]
    assert main(["fix", str(source), *options]) == 2
    assert f"no session '9' in {source}" in capsys.readouterr().err
    assert not memories.exists() and not (tmp_path / "app.db.bak").exists() and not out.exists()
