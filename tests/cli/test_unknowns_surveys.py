"""`scan --unknowns` on the files of Cline, Cline's extensions, SWE-agent, Kimi CLI, Copilot CLI's
older store, OpenCode (its SQLite history and its older JSON storage), Cursor CLI and Aider (its
Markdown history and its LLM log): on a copy of each real tool's sample, a record of a type the
reader does not know and a key it does not know are listed with their counts, under the version
the file names; the samples as committed list nothing."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from inspector.cli.main import main
from inspector.sources.formats.aider_llm_history import OUTSIDE
from tests.helpers.samples import TOOL_SAMPLES

STORAGE = TOOL_SAMPLES / "opencode-storage"
STORAGE_SESSION = "session/global/ses_ddf1b63fdffeOYSmew4lIfLk5j.json"
COMMITTED = [
    TOOL_SAMPLES / name
    for name in (
        "cline.messages.json",
        "clean.cline.resumed.messages.json",
        "cline.api_conversation_history.json",
        "cline.native.api_conversation_history.json",
        "roo-code.api_conversation_history.json",
        "kilo-code.api_conversation_history.json",
        "swe-agent.traj",
        "kimi-cli.context.jsonl",
        "copilot-cli.history.json",
        "clean.copilot-cli.history.resumed.json",
        "opencode.db",
        "kilo.db",
        "cursor-cli.store.db",
        "aider.chat.history.md",
        "aider.llm-history.txt",
        f"opencode-storage/{STORAGE_SESSION}",
    )
]


def unknowns(capsys: pytest.CaptureFixture[str], path: Path) -> tuple[int, dict[tuple, int], dict[str, int]]:
    """The exit code, `{(format, version, record type, key): count}` and the formats not surveyed."""
    code = main(["scan", "--unknowns", "--json", str(path)])
    report = json.loads(capsys.readouterr().out)
    rows = {(u["format"], u["version"], u["record_type"], u["key"]): u["count"] for u in report["unknowns"]}
    return code, rows, report["not_surveyed"]


def _json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def _write_json(path: Path, value: Any) -> Path:
    path.write_text(json.dumps(value, indent=2), encoding="utf-8")
    return path


@pytest.mark.parametrize("path", COMMITTED, ids=lambda p: p.name)
def test_the_committed_samples_list_nothing_unknown_and_are_surveyed(capsys, path: Path):
    assert unknowns(capsys, path) == (0, {}, {})


def test_cline_a_new_block_type_and_message_key_under_the_cli_version(tmp_path: Path, capsys):
    session = _json(TOOL_SAMPLES / "cline.messages.json")
    replies = [m for m in session["messages"] if m["role"] == "assistant"]
    replies[0]["content"].append({"type": "server_tool_use", "id": "s1"})
    for reply in replies[:2]:
        reply["checkpointHash"] = "abc"
    path = _write_json(tmp_path / "1795.messages.json", session)
    assert unknowns(capsys, path)[:2] == (
        1,
        {
            ("cline", "3.0.65", "block/server_tool_use", None): 1,
            ("cline", "3.0.65", "message/assistant", "checkpointHash"): 2,
        },
    )


def test_cline_a_result_item_key_is_listed(tmp_path: Path, capsys):
    session = _json(TOOL_SAMPLES / "cline.messages.json")
    results = [b for m in session["messages"] for b in m["content"] if b.get("type") == "tool_result"]
    results[0]["content"][0]["durationMs"] = 12
    path = _write_json(tmp_path / "1795.messages.json", session)
    assert unknowns(capsys, path)[1] == {("cline", "3.0.65", "tool_result item", "durationMs"): 1}


def test_cline_task_a_new_role_and_block_key(tmp_path: Path, capsys):
    messages = _json(TOOL_SAMPLES / "roo-code.api_conversation_history.json")
    messages.insert(1, {"role": "developer", "content": "x", "ts": 1})
    uses = [b for m in messages if isinstance(m["content"], list) for b in m["content"] if b["type"] == "tool_use"]
    uses[0]["partial"] = False
    path = _write_json(tmp_path / "api_conversation_history.json", messages)
    assert unknowns(capsys, path)[:2] == (
        1,
        {("cline-task", None, "message/developer", None): 1, ("cline-task", None, "block/tool_use", "partial"): 1},
    )


def test_swe_agent_a_new_role_and_entry_key_under_its_version(tmp_path: Path, capsys):
    trajectory = _json(TOOL_SAMPLES / "swe-agent.traj")
    trajectory["history"].append({"role": "critic", "content": "x", "agent": "main", "message_type": "critique"})
    trajectory["history"][0]["cost"] = 0.1
    path = _write_json(tmp_path / "run.traj", trajectory)
    assert unknowns(capsys, path)[:2] == (
        1,
        {("swe-agent", "1.1.0", "message/system", "cost"): 1, ("swe-agent", "1.1.0", "message/critic", None): 1},
    )


def test_kimi_cli_a_new_record_role_and_a_call_key(tmp_path: Path, capsys):
    lines = (TOOL_SAMPLES / "kimi-cli.context.jsonl").read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines]
    records.append({"role": "_compaction", "summary": "x"})
    for record in records:
        for call in record.get("tool_calls") or []:
            call["index"] = 0
    path = tmp_path / "context.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    assert unknowns(capsys, path)[:2] == (
        1,
        {("kimi-cli", None, "tool_call", "index"): 2, ("kimi-cli", None, "message/_compaction", None): 1},
    )


def test_copilot_cli_history_a_new_timeline_type_and_envelope_key(tmp_path: Path, capsys):
    session = _json(TOOL_SAMPLES / "copilot-cli.history.json")
    session["timeline"].append({"id": "t", "timestamp": "2026-11-28T05:34:00.000Z", "type": "plan"})
    session["usage"] = {"premiumRequests": 1}
    path = _write_json(tmp_path / "session_a.json", session)
    assert unknowns(capsys, path)[:2] == (
        1,
        {("copilot-cli-history", None, "session", "usage"): 1, ("copilot-cli-history", None, "timeline/plan", None): 1},
    )


def test_opencode_storage_a_new_part_type_and_tool_state_key_under_its_version(tmp_path: Path, capsys):
    storage = Path(shutil.copytree(STORAGE, tmp_path / "storage"))
    parts = sorted((storage / "part").rglob("*.json"))
    tool = next(p for p in parts if _json(p)["type"] == "tool")
    part = _json(tool)
    part["state"]["exitCode"] = 0
    _write_json(tool, part)
    other = {**_json(parts[0]), "id": "prt_zzzzzzzzzzzzzzzzzzzzzzzzzzz", "type": "diagram"}
    _write_json(parts[0].parent / "prt_zzzzzzzzzzzzzzzzzzzzzzzzzzz.json", other)
    assert unknowns(capsys, storage / STORAGE_SESSION)[:2] == (
        1,
        {
            ("opencode-storage", "1.1.65", "part/tool state", "exitCode"): 1,
            ("opencode-storage", "1.1.65", "part/diagram", None): 1,
        },
    )


def _update_json(db: Path, table: str, key: str, change: Any) -> None:
    """Rewrite the JSON `data` of each row of `table` that `change(value)` returns True for."""
    with sqlite3.connect(db) as conn:
        for row_id, data in conn.execute(f"SELECT {key}, data FROM {table}").fetchall():
            value = json.loads(data)
            if change(value):
                conn.execute(f"UPDATE {table} SET data = ? WHERE {key} = ?", [json.dumps(value), row_id])
    conn.close()


def test_opencode_sqlite_a_new_part_type_and_message_key_under_the_sessions_version(tmp_path: Path, capsys):
    db = Path(shutil.copy(TOOL_SAMPLES / "opencode.db", tmp_path / "opencode.db"))
    planted: list[dict] = []

    def add_key(message: dict) -> bool:
        if message["role"] != "user":
            return False
        message["pinned"] = True
        return True

    def new_type(part: dict) -> bool:
        if part["type"] != "step-start" or planted:
            return False
        part["type"] = "checkpoint"
        planted.append(part)
        return True

    _update_json(db, "message", "id", add_key)
    _update_json(db, "part", "id", new_type)
    assert unknowns(capsys, db)[:2] == (
        1,
        {("opencode", "1.18.33", "message/user", "pinned"): 3, ("opencode", "1.18.33", "part/checkpoint", None): 1},
    )


def test_cursor_cli_a_new_part_type_and_message_key(tmp_path: Path, capsys):
    db = Path(shutil.copy(TOOL_SAMPLES / "cursor-cli.store.db", tmp_path / "store.db"))
    with sqlite3.connect(db) as conn:
        for blob_id, data in conn.execute("SELECT id, data FROM blobs WHERE substr(data, 1, 1) = X'7B'").fetchall():
            message = json.loads(data)
            if message.get("role") == "assistant" and isinstance(message["content"], list):
                message["content"].append({"type": "source", "url": "https://example.com"})
                message["usage"] = {"tokens": 1}
                conn.execute("UPDATE blobs SET data = ? WHERE id = ?", [json.dumps(message).encode(), blob_id])
    conn.close()
    assert unknowns(capsys, db)[:2] == (
        1,
        {("cursor-cli", None, "message/assistant", "usage"): 4, ("cursor-cli", None, "part/source", None): 4},
    )


def test_aider_a_heading_it_skips_is_listed_under_the_run_s_version(tmp_path: Path, capsys):
    text = (TOOL_SAMPLES / "aider.chat.history.md").read_text(encoding="utf-8")
    notice = "\n\n> Tokens: "  # the notice after the first reply
    assert notice in text
    path = tmp_path / ".aider.chat.history.md"
    path.write_text(text.replace(notice, "\n# Journal" + notice, 1), encoding="utf-8")
    assert unknowns(capsys, path)[:2] == (1, {("aider", "0.86.2", "# heading", None): 1})


def test_aider_llm_history_a_new_role_and_a_stray_line_are_listed(tmp_path: Path, capsys):
    text = (TOOL_SAMPLES / "aider.llm-history.txt").read_text(encoding="utf-8")
    answer = "\nLLM RESPONSE "
    assert answer in text
    planted = '\nFUNCTION {"name": "save"}\nFUNCTION done\n(a line of no message)' + answer
    path = tmp_path / "llm-history.txt"
    path.write_text(text.replace(answer, planted, 1), encoding="utf-8")
    assert unknowns(capsys, path)[:2] == (
        1,
        {("aider-llm-history", None, "FUNCTION line", None): 2, ("aider-llm-history", None, OUTSIDE, None): 1},
    )
