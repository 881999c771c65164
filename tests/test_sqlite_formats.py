"""Elia, Open WebUI, `llm` before 0.32 and a table named with `--table/--map`: databases built in
the test with the tables each application creates, holding realistic broken turns."""

from __future__ import annotations

import html
import json
import time
from pathlib import Path

import pytest
import sqlite_utils

from inspector.cli.main import main
from inspector.sources import open_source

FAKE_SAVE = '{success: true, memory_type: "journal", content: "Walked by the canal."}You saw right through me.'
LEAKED_CALL = (
    '<tool_call>\n{"name": "web_search", "arguments": {"query": "tempo run length"}}\n</tool_call>\n'
    "Let me look that up."
)


def build_elia(path: Path) -> Path:
    """Elia's tables (`chat`, `message`) with two chats, one of them with a leaked call."""
    db = sqlite_utils.Database(path)
    db["chat"].insert_all(
        [
            {"id": 1, "model": "gpt-4o", "title": "Runs", "started_at": "2026-01-02 10:00:00"},
            {"id": 2, "model": "gpt-4o", "title": "Hi", "started_at": "2026-01-03 10:00:00"},
        ],
        pk="id",
    )
    rows = [
        (1, "system", "You are helpful."),
        (1, "user", "How long is a tempo run?"),
        (1, "assistant", LEAKED_CALL),
        (2, "user", "hello"),
        (2, "assistant", "Hello! How can I help?"),
    ]
    db["message"].insert_all(
        [
            {
                "id": i,
                "chat_id": chat,
                "role": role,
                "content": content,
                "timestamp": f"2026-01-0{chat + 1} 10:00:{i:02d}",
                "meta": "{}",
                "parent_id": None,
                "model": "gpt-4o",
            }
            for i, (chat, role, content) in enumerate(rows, start=1)
        ],
        pk="id",
    )
    return path


def build_generic(path: Path) -> Path:
    """An app's own table: `turns(turn_no, convo, speaker, body)`, out of order on disk."""
    db = sqlite_utils.Database(path)
    db["turns"].insert_all(
        [
            {"turn_no": 2, "convo": "a", "speaker": "bot", "body": FAKE_SAVE},
            {"turn_no": 1, "convo": "a", "speaker": "human", "body": "Journal my walk."},
            {"turn_no": 1, "convo": "b", "speaker": "human", "body": "hi"},
            {"turn_no": 2, "convo": "b", "speaker": "narrator", "body": "(silence)"},
        ]
    )
    return path


def build_llm_legacy(path: Path) -> Path:
    """`llm` 0.31's tables: a conversation with a real call, its result, then a fake result."""
    db = sqlite_utils.Database(path)
    db["conversations"].insert({"id": "01conv", "name": "memories", "model": "gpt-4o-mini"}, pk="id")
    db["tools"].insert(
        {
            "id": 1,
            "hash": "h1",
            "name": "save_memory",
            "description": "Save a memory.",
            "input_schema": json.dumps(
                {
                    "type": "object",
                    "properties": {"memory_type": {"type": "string"}, "content": {"type": "string"}},
                    "required": ["memory_type", "content"],
                }
            ),
            "plugin": None,
        },
        pk="id",
    )
    responses = [
        ("01r1", "Remember I like tea.", ""),
        ("01r2", "", "Saved."),
        ("01r3", "Journal that I walked.", FAKE_SAVE),
    ]
    db["responses"].insert_all(
        [
            {
                "id": rid,
                "model": "gpt-4o-mini",
                "prompt": prompt,
                "system": "Be brief.",
                "response": response,
                "conversation_id": "01conv",
                "datetime_utc": f"2026-01-01T10:00:0{i}",
            }
            for i, (rid, prompt, response) in enumerate(responses)
        ],
        pk="id",
    )
    db["tool_calls"].insert(
        {
            "id": 1,
            "response_id": "01r1",
            "tool_id": 1,
            "name": "save_memory",
            "arguments": '{"memory_type": "fact", "content": "Likes tea."}',
            "tool_call_id": "tc1",
        },
        pk="id",
    )
    db["tool_results"].insert(
        {
            "id": 1,
            "response_id": "01r2",
            "tool_id": 1,
            "name": "save_memory",
            "output": "saved",
            "tool_call_id": "tc1",
            "instance_id": None,
            "exception": None,
        },
        pk="id",
    )
    return path


def details(call_id: str, name: str, arguments: dict, result: str) -> str:
    """An Open WebUI tool-call tag, encoded as Open WebUI writes it."""
    encode = lambda value: html.escape(json.dumps(json.dumps(value)))  # noqa: E731 - double-encoded JSON
    return (
        f'<details type="tool_calls" done="true" id="{call_id}" name="{name}" arguments="{encode(arguments)}" '
        f'result="{encode(result)}" files="">\n<summary>Tool Executed</summary>\n</details>\n'
    )


def build_open_webui(path: Path) -> Path:
    """`webui.db`'s `chat` table: a chat with a real call in a details tag, then a fake result."""
    messages = {
        "u1": {"id": "u1", "parentId": None, "childrenIds": ["a1"], "role": "user", "content": "Note that I like tea."},
        "a1": {
            "id": "a1",
            "parentId": "u1",
            "childrenIds": ["u2"],
            "role": "assistant",
            "model": "llama3",
            "content": "Saving it.\n"
            + details("call_1", "save_memory", {"memory_type": "fact", "content": "Likes tea."}, "saved")
            + "Done.",
        },
        "u2": {
            "id": "u2",
            "parentId": "a1",
            "childrenIds": ["a2", "a2b"],
            "role": "user",
            "content": "Journal my walk.",
        },
        "a2": {"id": "a2", "parentId": "u2", "childrenIds": [], "role": "assistant", "content": FAKE_SAVE},
        "a2b": {"id": "a2b", "parentId": "u2", "childrenIds": [], "role": "assistant", "content": "An older branch."},
    }
    chat = {"id": "c1", "title": "Tea", "history": {"messages": messages, "currentId": "a2"}, "messages": []}
    db = sqlite_utils.Database(path)
    db["chat"].insert(
        {
            "id": "c1",
            "user_id": "u",
            "title": "Tea",
            "chat": json.dumps(chat),
            "created_at": 1,
            "updated_at": 2,
            "share_id": None,
            "archived": 0,
        },
        pk="id",
    )
    return path


def _scan(capsys, *args: str) -> dict:
    assert main(["scan", "--json", *args]) in (0, 1)
    report = json.loads(capsys.readouterr().out)
    return {s["session_id"]: [(f["turn"], f["kind"], f["tool"]) for f in s["findings"]] for s in report["sessions"]}


def test_elia_chats_are_sessions_and_a_leaked_call_is_found(tmp_path, capsys):
    path = build_elia(tmp_path / "elia.sqlite")
    assert open_source(path).listing() == [("1", 3), ("2", 2)]
    assert open_source(path).format == "elia"
    assert open_source(path).session("1").format == "elia"
    assert _scan(capsys, str(path)) == {"1": [(2, "tool-markup", "web_search")], "2": []}


def test_any_table_is_read_through_table_and_map(tmp_path, capsys):
    path = build_generic(tmp_path / "app.db")
    found = _scan(
        capsys, str(path), "--table", "turns", "--map", "role=speaker,content=body,session=convo,order=turn_no"
    )
    assert found == {"a": [(1, "result-prefix", None)], "b": []}
    (session,) = [
        open_source(path, table="turns", mapping={"role": "speaker", "content": "body", "session": "convo"}).session(
            "b"
        )
    ]
    assert [t.text for t in session.turns] == ["hi"]
    assert session.problems == ("row 4: role 'narrator' is not one this tool knows, skipped",)


def test_a_table_without_a_session_column_is_one_conversation(tmp_path):
    path = build_generic(tmp_path / "app.db")
    source = open_source(path, table="turns", mapping={"role": "speaker", "content": "body"})
    assert source.listing() == [("all", 4)]
    assert source.format == "table"


@pytest.mark.parametrize(
    "options, message",
    [
        (["--table", "nope", "--map", "role=a,content=b"], "no table 'nope' (tables: turns)"),
        (["--table", "turns", "--map", "role=speaker,content=text"], "table 'turns' has no column text"),
        (["--table", "turns", "--map", "role=speaker"], "--map: name the content column"),
        (["--table", "turns", "--map", "colour=red"], "--map: 'colour=red' is not KEY=COLUMN"),
        (["--map", "role=speaker,content=body"], "--table and --map go together"),
    ],
)
def test_table_options_are_checked(tmp_path, capsys, options, message):
    path = build_generic(tmp_path / "app.db")
    assert main(["scan", str(path), *options]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_llm_before_0_32_reads_responses_calls_and_results(tmp_path, capsys):
    path = build_llm_legacy(tmp_path / "logs.db")
    session = open_source(path).session("01conv")
    assert session.format == "llm-legacy"
    assert [(t.role, t.text) for t in session.turns] == [
        ("system", "Be brief."),
        ("user", "Remember I like tea."),
        ("assistant", ""),
        ("tool", ""),
        ("assistant", "Saved."),
        ("user", "Journal that I walked."),
        ("assistant", FAKE_SAVE),
    ]
    assert session.turns[2].tool_calls[0].arguments == {"memory_type": "fact", "content": "Likes tea."}
    assert session.turns[3].tool_results[0].call_id == "tc1"
    assert [t.name for t in session.tools] == ["save_memory"]
    assert _scan(capsys, str(path)) == {"01conv": [(6, "result-prefix", "save_memory")]}


def test_open_webui_reads_the_shown_branch_and_its_details_tags(tmp_path, capsys):
    path = build_open_webui(tmp_path / "webui.db")
    session = open_source(path).session("c1")
    assert [(t.role, t.text) for t in session.turns] == [
        ("user", "Note that I like tea."),
        ("assistant", "Saving it.\nDone."),
        ("tool", ""),
        ("user", "Journal my walk."),
        ("assistant", FAKE_SAVE),
    ]
    (call,) = session.turns[1].tool_calls
    assert (call.id, call.name, call.arguments) == (
        "call_1",
        "save_memory",
        {"memory_type": "fact", "content": "Likes tea."},
    )
    assert session.turns[2].tool_results[0].content == "saved"
    assert _scan(capsys, str(path)) == {"c1": [(3, "result-prefix", "save_memory")]}


def test_open_webui_reads_hostile_content_in_linear_time(tmp_path):
    """Unclosed details tags and a long attribute word, as a model could write them: quadratic
    scanning took minutes on these; read (and their text kept) in well under a second."""
    unclosed = '<details type="tool_calls">' * 60_000
    long_word = '<details type="tool_calls" ' + "a" * 200_000 + ">x</details>"
    path = build_open_webui(tmp_path / "webui.db")
    chat = json.loads(sqlite_utils.Database(path).execute("SELECT chat FROM chat").fetchone()[0])
    chat["history"]["messages"]["a2"]["content"] = long_word + unclosed
    sqlite_utils.Database(path)["chat"].update("c1", {"chat": json.dumps(chat)})
    started = time.perf_counter()
    session = open_source(path).session("c1")
    assert time.perf_counter() - started < 2.0
    assert session.turns[4].text == unclosed and session.turns[4].tool_calls[0].name == ""


def test_format_option_forces_a_schema_and_checks_it(tmp_path, capsys):
    path = build_elia(tmp_path / "elia.db")
    assert main(["scan", str(path), "--format", "rubyllm"]) == 2
    assert "does not have the tables of the rubyllm schema (tables: chat, message)" in capsys.readouterr().err
    assert main(["scan", str(path), "--format", "elia", "--json"]) == 1
