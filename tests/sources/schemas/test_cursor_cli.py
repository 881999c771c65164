"""Cursor CLI's chat store, built from its public readers' shapes (`sessions/cursor-cli.store.db`,
`sessions/generate/cursor_cli.py`): recognised by its tables alone, its one chat read in the
order of the latest root blob's tree (nested trees followed, a cycle followed once), the planted
problems found once and the good call left clean, what cannot be read counted in its problems,
the store never changed by a read, and discovery finding it in `~/.cursor/chats`."""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
import time
from contextlib import closing
from pathlib import Path

from inspector.cli.main import main
from inspector.model import ASSISTANT, SYSTEM, TOOL, USER
from inspector.sources import open_source
from inspector.sources.discovery import discover
from tests.helpers.databases import schemas_recognising
from tests.helpers.samples import TOOL_SAMPLES

SAMPLE = TOOL_SAMPLES / "cursor-cli.store.db"
AGENT_ID = "6f1d2c3b-4a59-4e7d-9c1b-2a3f4e5d6c7b"
PLANTED = [(2, "result-prefix", "warning"), (4, "tool-markup", "error")]


def scan(path: Path, capsys) -> list[tuple]:
    capsys.readouterr()
    main(["scan", "--json", str(path)])
    report = json.loads(capsys.readouterr().out)
    return [(f["turn"], f["kind"], f["severity"]) for s in report["sessions"] for f in s["findings"]]


def copy(tmp_path: Path) -> Path:
    return Path(shutil.copy(SAMPLE, tmp_path / "store.db"))


def tree(*children: str) -> bytes:
    """A tree blob naming `children` (hex ids) in field 1, as the CLI writes its roots."""
    return b"".join(b"\x0a\x20" + bytes.fromhex(child) for child in children)


def put_blob(connection: sqlite3.Connection, data: bytes) -> str:
    blob_id = hashlib.sha256(data).hexdigest()
    connection.execute("INSERT OR IGNORE INTO blobs (id, data) VALUES (?, ?)", [blob_id, data])
    return blob_id


def set_root(connection: sqlite3.Connection, root_id: str) -> None:
    (value,) = connection.execute("SELECT value FROM meta WHERE key = '0'").fetchone()
    meta = {**json.loads(bytes.fromhex(value)), "latestRootBlobId": root_id}
    connection.execute("UPDATE meta SET value = ? WHERE key = '0'", [json.dumps(meta).encode().hex()])


def root_children(connection: sqlite3.Connection) -> list[str]:
    (value,) = connection.execute("SELECT value FROM meta WHERE key = '0'").fetchone()
    root = json.loads(bytes.fromhex(value))["latestRootBlobId"]
    (data,) = connection.execute("SELECT data FROM blobs WHERE id = ?", [root]).fetchone()
    return [data[i + 2 : i + 34].hex() for i in range(0, len(data), 34) if data[i : i + 2] == b"\x0a\x20"]


def test_the_store_is_recognised_by_the_cursor_cli_schema_alone():
    assert schemas_recognising(SAMPLE) == ["cursor-cli"]


def test_its_chat_is_read_in_the_latest_root_s_order_with_calls_linked_to_results():
    source = open_source(SAMPLE)
    assert source.format == "cursor-cli"
    assert source.listing() == [(AGENT_ID, 9)]
    session = source.session(AGENT_ID)
    assert session.problems == ()
    assert [t.role for t in session.turns] == [SYSTEM] + [USER, ASSISTANT] * 3 + [TOOL, ASSISTANT]
    assert "<user_query>\nPlease save a journal memory" in session.turns[1].text
    (good,) = session.turns[6].tool_calls
    assert (good.id, good.name, good.arguments) == (
        "toolu_mock_good",
        "read_file",
        {"target_file": "/tmp/cu-work/notes.txt"},
    )
    (answer,) = session.turns[7].tool_results
    assert (answer.call_id, answer.is_error, answer.content) == (
        "toolu_mock_good",
        False,
        "Meeting moved to Thursday.\nBring the draft.\n",
    )
    assert session.turns[2].model == "gpt-5"
    assert len({turn.id for turn in session.turns}) == 9


def test_the_planted_problems_are_found_once_and_the_good_call_stays_clean(capsys):
    assert scan(SAMPLE, capsys) == PLANTED


def test_reading_never_changes_the_store_even_in_wal_mode(tmp_path: Path, capsys):
    path = copy(tmp_path)
    with closing(sqlite3.connect(path)) as connection:
        connection.execute("PRAGMA journal_mode = WAL")
    before = path.read_bytes()
    assert scan(path, capsys) == PLANTED
    assert path.read_bytes() == before


def test_nested_trees_are_followed_in_order_and_a_cycle_only_once(tmp_path: Path):
    path = copy(tmp_path)
    with closing(sqlite3.connect(path)) as connection, connection:
        children = root_children(connection)
        inner = put_blob(connection, tree(*children[3:]))
        looping = put_blob(connection, tree(inner))  # names `inner` again below: a cycle of sorts
        root = put_blob(connection, tree(*children[:3], inner, looping) + b"\x4a\x05file:")
        set_root(connection, root)
    session = open_source(path).session(AGENT_ID)
    assert len(session.turns) == 9
    assert session.problems == ("1 tree blob named again (a cycle), followed once",)


def test_a_real_cycle_ends_in_linear_time(tmp_path: Path):
    path = copy(tmp_path)
    with closing(sqlite3.connect(path)) as connection, connection:
        children = root_children(connection)
        # a tree that names itself cannot be built with real digests, so the row's id is forced
        loop_id = hashlib.sha256(b"loop").hexdigest()
        connection.execute("INSERT INTO blobs (id, data) VALUES (?, ?)", [loop_id, tree(*children, loop_id) * 2000])
        set_root(connection, loop_id)
    started = time.perf_counter()
    session = open_source(path).session(AGENT_ID)
    assert time.perf_counter() - started < 5
    assert len(session.turns) == 9 * 2000
    assert session.problems == ("2,000 tree blobs named again (a cycle), followed once",)


def test_blobs_the_reader_cannot_read_are_counted_in_the_problems(tmp_path: Path):
    path = copy(tmp_path)
    with closing(sqlite3.connect(path)) as connection, connection:
        children = root_children(connection)
        hologram = put_blob(
            connection, b'{"role":"assistant","content":[{"type":"hologram"},{"type":"text","text":"Seen."}]}'
        )
        narrator = put_blob(connection, b'{"role":"narrator","content":"Once upon a time."}')
        not_a_tree = put_blob(connection, b"\xff\xff\xff")
        missing = hashlib.sha256(b"gone").hexdigest()
        set_root(connection, put_blob(connection, tree(*children, hologram, narrator, not_a_tree, missing)))
    session = open_source(path).session(AGENT_ID)
    assert sorted(session.problems) == [
        "1 blob the tree names that is not in the database",
        "1 message blob that is not a system, user, assistant or tool message, kept as stored",
        "1 part of a type this reader does not know ('hologram'), kept as stored",
        "1 tree blob that is not a protobuf message of child ids, not followed",
    ]
    assert session.turns[-1].text == "Seen."


def test_blobs_and_parts_that_are_not_json_objects_are_counted_as_such_not_as_a_role(tmp_path: Path):
    path = copy(tmp_path)
    with closing(sqlite3.connect(path)) as connection, connection:
        children = root_children(connection)
        broken = [put_blob(connection, b"{not json" + bytes([n])) for n in range(2)]
        odd_part = put_blob(connection, b'{"role":"assistant","content":[5,{"type":"text","text":"Seen."}]}')
        set_root(connection, put_blob(connection, tree(*children, *broken, odd_part)))
    session = open_source(path).session(AGENT_ID)
    assert session.problems == (
        "2 message blobs that are not JSON objects, kept as stored",
        "1 part that is not a JSON object, kept as stored",
    )
    assert session.turns[-1].text == "Seen."


def test_parts_whose_type_is_no_text_are_counted_not_a_traceback(tmp_path: Path):
    path = copy(tmp_path)
    with closing(sqlite3.connect(path)) as connection, connection:
        children = root_children(connection)
        odd = b'{"role":"assistant","content":[{"type":[],"text":"x"},{"type":{"a":1}},{"type":"text","text":"Seen."}]}'
        set_root(connection, put_blob(connection, tree(*children, put_blob(connection, odd))))
    session = open_source(path).session(AGENT_ID)
    assert session.problems == ("2 parts without a type (a text), kept as stored",)
    assert session.turns[-1].text == "Seen."


def test_a_store_whose_meta_names_no_root_reads_as_an_empty_chat_that_says_so(tmp_path: Path):
    path = copy(tmp_path)
    with closing(sqlite3.connect(path)) as connection, connection:
        connection.execute(
            "UPDATE meta SET value = ? WHERE key = '0'", [json.dumps({"agentId": AGENT_ID}).encode().hex()]
        )
    session = open_source(path).session(AGENT_ID)
    assert (session.turns, session.problems) == ((), ("1 meta row naming no latest root blob (no message read)",))


def test_fix_refuses_to_write_it_back_in_one_line(tmp_path: Path, capsys):
    assert main(["fix", str(SAMPLE), "--accept", "all", "-o", str(tmp_path / "out.db")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cursor-cli" in err


def test_discovery_finds_each_chat_s_store_in_cursor_s_chats_folder(empty_home: Path, capsys):
    chats = empty_home / ".cursor" / "chats" / hashlib.md5(b"/tmp/cu-work").hexdigest()
    store = chats / AGENT_ID / "store.db"
    store.parent.mkdir(parents=True)
    shutil.copy(SAMPLE, store)
    (chats / "an-empty-chat").mkdir()  # a chat folder the CLI made before its first message
    assert [(found.tool, found.path) for found in discover(empty_home, {})] == [("Cursor CLI", store)]
    main(["scan", "--json"])
    (session,) = json.loads(capsys.readouterr().out)["sessions"]
    assert (session["format"], session["session_id"]) == ("cursor-cli", AGENT_ID)


def test_a_message_nested_past_what_json_reads_is_counted_not_raised(tmp_path: Path):
    path = copy(tmp_path)
    with closing(sqlite3.connect(path)) as connection, connection:
        children = root_children(connection)
        deep = put_blob(connection, b'{"role":"user","content":' + b"[" * 100_000 + b"]" * 100_000 + b"}")
        set_root(connection, put_blob(connection, tree(*children, deep)))
    session = open_source(path).session(AGENT_ID)
    assert session.problems == ("1 message blob nested too deeply to read, kept as stored",)
    assert len(session.turns) == 9
