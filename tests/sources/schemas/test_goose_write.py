"""Writing a repaired Goose session back into its `sessions.db` (`sessions/goose.db`, built from
Goose's storage code): the repaired messages' `content_json` as Goose's storage writes a message
(the shapes `message.rs` reads), read back by the schema with the planted problems gone, every
other row byte for byte as it was, and undone by `inspector undo`."""

from __future__ import annotations

import json
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

from inspector.cli.main import main
from inspector.model import ASSISTANT, TOOL, USER
from inspector.sources import open_source
from tests.helpers.samples import TOOL_SAMPLES

SAMPLE = TOOL_SAMPLES / "goose.db"
SESSION_ID = "20260101_1"
REQUEST_KEYS = {"type", "id", "toolCall"}


def messages(path: Path) -> dict[int, tuple[Any, ...]]:
    with closing(sqlite3.connect(path)) as connection:
        return {row[0]: row for row in connection.execute("SELECT * FROM messages ORDER BY id")}


def fixed_copy(tmp_path: Path, capsys, *accept: str) -> Path:
    path = tmp_path / "sessions.db"
    shutil.copy(SAMPLE, path)
    main(["fix", "--accept", ",".join(accept) or "all", "--in-place", str(path)])
    capsys.readouterr()
    return path


def assert_goose_shapes(content_json: str) -> None:
    """What Goose's `MessageContent` reads: a compact list of typed contents, each call a
    `toolCall` with a status and its value's name and object arguments, each result a
    `CallToolResult`."""
    contents = json.loads(content_json)
    assert content_json == json.dumps(contents, ensure_ascii=False, separators=(",", ":"))
    for content in contents:
        if content["type"] == "toolRequest":
            assert set(content) == REQUEST_KEYS
            call = content["toolCall"]
            if call["status"] == "success":
                assert isinstance(call["value"]["name"], str) and isinstance(call["value"]["arguments"], dict)
        elif content["type"] == "toolResponse":
            result = content["toolResult"]
            if result["status"] == "success":
                assert isinstance(result["value"]["content"], list) and isinstance(result["value"]["isError"], bool)


def test_fix_writes_the_repaired_messages_back_and_leaves_the_others_byte_identical(tmp_path, capsys):
    before = messages(SAMPLE)
    path = fixed_copy(tmp_path, capsys)
    after = messages(path)
    changed = {row for row in before if before[row] != after[row]}
    assert changed == {2, 4, 5}
    assert set(after) == set(before)
    for row in changed:
        assert after[row][:3] == before[row][:3] and after[row][4:] == before[row][4:]
        assert_goose_shapes(after[row][3])
    assert json.loads(after[2][3]) == [{"type": "text", "text": json.loads(before[2][3])[0]["text"].split("}", 1)[1]}]


def test_the_written_session_reads_back_with_the_recovered_call_answered_and_no_planted_problem_left(tmp_path, capsys):
    path = fixed_copy(tmp_path, capsys)
    session = open_source(path).session(SESSION_ID)
    assert session.problems == ()
    roles = [turn.role for turn in session.turns]
    assert roles[:6] == [USER, ASSISTANT, USER, ASSISTANT, TOOL, USER]
    (recovered,) = session.turns[3].tool_calls
    assert (recovered.name, recovered.arguments) == ("developer__text_editor", {"command": "view", "path": "notes.txt"})
    (answer,) = session.turns[4].tool_results
    assert answer.call_id == recovered.id
    assert session.turns[3].text == "Let me read it."
    main(["scan", "--json", str(path)])
    report = json.loads(capsys.readouterr().out)
    kinds = [finding["kind"] for s in report["sessions"] for finding in s["findings"]]
    assert kinds == ["malformed-arguments", "tool-error"]


def test_a_call_recovered_in_the_last_message_is_answered_by_a_new_user_message(tmp_path, capsys):
    path = tmp_path / "sessions.db"
    shutil.copy(SAMPLE, path)
    markup = 'Checking.\n<tool_call>{"name":"developer__shell","arguments":{"command":"ls"}}</tool_call>'
    with closing(sqlite3.connect(path)) as connection, connection:
        connection.execute(
            "UPDATE messages SET content_json = ? WHERE id = 10", [json.dumps([{"type": "text", "text": markup}])]
        )
    main(["fix", "--accept", "tool-markup", "--in-place", str(path)])
    capsys.readouterr()
    after = messages(path)
    assert sorted(after) == list(range(1, 12))
    assert after[11][1:3] == (SESSION_ID, "user")
    assert_goose_shapes(after[10][3])
    assert_goose_shapes(after[11][3])
    session = open_source(path).session(SESSION_ID)
    assert [turn.role for turn in session.turns[-2:]] == [ASSISTANT, TOOL]
    (call,) = session.turns[-2].tool_calls
    (result,) = session.turns[-1].tool_results
    assert (call.name, result.call_id) == ("developer__shell", call.id)


def test_repaired_arguments_are_written_into_the_call_as_an_object(tmp_path, capsys):
    path = tmp_path / "sessions.db"
    shutil.copy(SAMPLE, path)
    cut = '{"command": "view", "path": "/tmp/goose-work/notes.txt",}'
    request = {"status": "success", "value": {"name": "developer__text_editor", "arguments": cut}}
    contents = [
        {"type": "text", "text": "Retrying."},
        {"type": "toolRequest", "id": "call_mock_good_read", "toolCall": request},
    ]
    with closing(sqlite3.connect(path)) as connection, connection:
        connection.execute("UPDATE messages SET content_json = ? WHERE id = 8", [json.dumps(contents)])
    main(["fix", "--accept", "malformed-arguments", "--in-place", str(path)])
    capsys.readouterr()
    written = messages(path)[8][3]
    assert_goose_shapes(written)
    assert json.loads(written)[1]["toolCall"]["value"]["arguments"] == {
        "command": "view",
        "path": "/tmp/goose-work/notes.txt",
    }


def test_undo_restores_the_messages_as_they_were(tmp_path, capsys):
    path = fixed_copy(tmp_path, capsys)
    assert main(["undo", str(path)]) == 0
    assert messages(path) == messages(SAMPLE)


def test_a_secret_in_a_result_is_masked_in_its_tool_response(tmp_path, capsys):
    path = tmp_path / "sessions.db"
    shutil.copy(SAMPLE, path)
    token = "ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"
    with closing(sqlite3.connect(path)) as connection, connection:
        stored = connection.execute("SELECT content_json FROM messages WHERE id = 9").fetchone()[0]
        connection.execute(
            "UPDATE messages SET content_json = ? WHERE id = 9", [stored.replace("draft.", f"draft {token}")]
        )
    main(["fix", "--accept", "secret", "--in-place", str(path)])
    capsys.readouterr()
    written = messages(path)[9][3]
    assert_goose_shapes(written)
    assert token not in written and "[REDACTED:github-token]" in written
