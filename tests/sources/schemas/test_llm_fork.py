"""A call renamed by an `unknown-tool` fix in an `llm` 0.32+ history: the forked thread names the
tool result answering it after the new name too, so `llm` sees one consistent call, result and tool.
The history is a real `logs.db` written by the `llm` CLI with the offline `echo` model."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import sqlite_utils
from llm.logs import LogStore, message_hash

from inspector.cli.main import main
from tests.helpers.databases import kinds_by_session
from tests.helpers.llm_cli import FUNCTIONS, run_llm

pytestmark = pytest.mark.slow  # runs the real `llm` CLI many times

MISNAMED = {"name": "save_memories", "arguments": {"memory_type": "fact", "content": "Likes green tea."}}
WELL_NAMED = {"name": "save_memory", "arguments": {"memory_type": "core", "content": "Runs in the morning."}}


@pytest.fixture
def fixed(tmp_path) -> tuple[Path, Path, str]:
    """A real logs.db whose one reply called a misnamed and a well-named tool, fixed into a new
    database under a second `llm` home: (source, fixed database, fork id)."""
    home = tmp_path / "llm"
    home.mkdir()
    (home / "functions.py").write_text(FUNCTIONS)
    run_llm(home, "-m", "echo", "--functions", "functions.py", json.dumps({"tool_calls": [MISNAMED, WELL_NAMED]}))
    fixed_home = tmp_path / "fixed"
    fixed_home.mkdir()
    out = fixed_home / "logs.db"
    assert main(["fix", str(home / "logs.db"), "--accept", "unknown-tool", "-o", str(out)]) == 1
    (fork,) = sqlite_utils.Database(out).execute("SELECT id FROM threads WHERE forked_from IS NOT NULL").fetchall()
    return home / "logs.db", out, fork[0]


def _results(db: sqlite_utils.Database, thread: str) -> list[tuple[str, str]]:
    """(tool name, output) of each tool result of a thread, as `llm` itself reads them."""
    return [
        (part.name, part.output)
        for message in LogStore(db).thread_messages(thread)
        for part in message.parts
        if type(part).__name__ == "ToolResultPart"
    ]


def test_the_result_of_a_renamed_call_carries_the_new_name_in_the_fork(fixed):
    source, out, fork = fixed
    db = sqlite_utils.Database(out)
    (original,) = list(kinds_by_session(source))
    refused = 'Error: tool "save_memories" does not exist'  # what llm answered the misnamed call
    assert _results(db, original) == [("save_memories", refused), ("save_memory", "saved")]  # untouched
    assert _results(db, fork) == [("save_memory", refused), ("save_memory", "saved")]
    calls = [
        part
        for message in LogStore(db).thread_messages(fork)
        for part in message.parts
        if type(part).__name__ == "ToolCallPart"
    ]
    results = [
        part
        for message in LogStore(db).thread_messages(fork)
        for part in message.parts
        if type(part).__name__ == "ToolResultPart"
    ]
    assert [(c.tool_call_id, c.name) for c in calls] == [(r.tool_call_id, r.name) for r in results]
    column = db.execute(
        "SELECT p.tool_name FROM parts p JOIN messages m ON m.hash = p.message_hash "
        "WHERE p.type = 'tool_result' ORDER BY p.id"
    ).fetchall()
    assert column == [("save_memories",), ("save_memory",), ("save_memory",), ("save_memory",)]


def test_every_message_of_the_fork_has_the_hash_llm_computes(fixed):
    _, out, fork = fixed
    db = sqlite_utils.Database(out)
    parent = None
    for message in LogStore(db).thread_messages(fork):
        digest = message_hash(message, parent)
        assert db.execute("SELECT parent_hash FROM messages WHERE hash = ?", [digest]).fetchall() == [(parent,)]
        parent = digest
    assert parent == db.execute("SELECT tip_message_hash FROM threads WHERE id = ?", [fork]).fetchone()[0]


def test_llm_logs_finds_the_fork_by_the_new_tool_name_and_the_original_by_the_old(fixed):
    source, out, fork = fixed
    home = out.parent
    by_new = json.loads(run_llm(home, "logs", "--json", "-T", "save_memory", "-n", "0"))
    by_old = json.loads(run_llm(home, "logs", "--json", "-T", "save_memories", "-n", "0"))
    (original,) = kinds_by_session(source)
    assert [row["conversation_id"] for row in by_old] == [original]
    assert sorted(row["conversation_id"] for row in by_new) == sorted([original, fork])  # both used save_memory
    (fork_row,) = [row for row in by_new if row["conversation_id"] == fork]
    assert [result["name"] for result in fork_row["tool_results"]] == ["save_memory", "save_memory"]


def test_the_fork_rescans_clean_of_the_unknown_tool(fixed):
    source, out, fork = fixed
    (original,) = kinds_by_session(source)
    kinds = kinds_by_session(out)
    assert "unknown-tool" in kinds[original] and "unknown-tool" not in kinds[fork]
