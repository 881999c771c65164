"""OpenCode's `opencode.db` and Kilo CLI's `kilo.db`, as OpenCode 1.18 and Kilo 7.7 wrote them
(`sessions/opencode.db`, `sessions/kilo.db`): each session read as one conversation, a tool part
as a call and its result; repaired parts written as OpenCode writes them, which the real tools
then continued (`sessions/*.repaired.db`)."""

from __future__ import annotations

import json
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from inspector.cli.main import main
from inspector.model import ASSISTANT, TOOL, USER
from inspector.sources import open_source
from tests.helpers.samples import TOOL_SAMPLES

SAMPLES = {"opencode": TOOL_SAMPLES / "opencode.db", "kilo": TOOL_SAMPLES / "kilo.db"}
PLANTED = [
    (1, "result-prefix", "warning"),
    (3, "tool-markup", "error"),
    (5, "malformed-arguments", "warning"),
    (5, "tool-error", "info"),
]
BROKEN_ARGUMENTS = '{"filePath": "/tmp/%s-work/notes.txt"'
both = pytest.mark.parametrize("tool", list(SAMPLES))


def parts(path: Path) -> dict[str, tuple[str, str]]:
    """Every part's row: id -> (message id, data)."""
    conn = sqlite3.connect(path)
    try:
        return {row[0]: row[1:] for row in conn.execute("SELECT id, message_id, data FROM part")}
    finally:
        conn.close()


def table(path: Path, name: str) -> list[tuple]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(f"SELECT * FROM {name} ORDER BY 1").fetchall()
    finally:
        conn.close()


def scan(path: Path, capsys, *options: str) -> list[tuple]:
    capsys.readouterr()
    main(["scan", "--json", str(path), *options])
    report = json.loads(capsys.readouterr().out)
    return [(f["turn"], f["kind"], f["severity"]) for s in report["sessions"] for f in s["findings"]]


@both
def test_each_database_is_recognised_and_its_session_read_as_one_conversation(tool):
    source = open_source(SAMPLES[tool])
    assert source.format == "opencode"
    ((session_id, messages),) = source.listing()
    assert session_id.startswith("ses_") and messages == 9
    session = source.session(session_id)
    assert session.problems == ()
    assert [t.role for t in session.turns[:5]] == [USER, ASSISTANT, USER, ASSISTANT, USER]
    assert [t.role for t in session.turns[5:]] == [ASSISTANT, TOOL, ASSISTANT, TOOL, ASSISTANT, TOOL, ASSISTANT]
    assert {t.model for t in session.turns if t.role == ASSISTANT} == {"mock-model"}
    (broken,) = session.turns[5].tool_calls
    tag = "oc" if tool == "opencode" else "kc"
    assert (broken.id, broken.name, broken.arguments_raw) == ("call_mock_broken_cut", "read", BROKEN_ARGUMENTS % tag)
    assert broken.arguments is None and session.turns[6].tool_results[0].is_error
    (good,) = session.turns[7].tool_calls
    assert good.arguments == {"filePath": f"/tmp/{tag}-work/notes.txt"}
    (answer,) = session.turns[8].tool_results
    assert (answer.call_id, answer.is_error) == ("call_mock_good_read", False)
    assert "1: Meeting moved to Thursday." in answer.content


@both
def test_the_planted_problems_are_found_and_the_good_calls_stay_clean(tool, capsys):
    assert scan(SAMPLES[tool], capsys) == PLANTED


@both
def test_fix_writes_the_parts_as_opencode_does_and_leaves_every_other_row(tool, tmp_path, capsys):
    out = tmp_path / "fixed.db"
    assert main(["fix", str(SAMPLES[tool]), "--accept", "all", "-o", str(out)]) == 0
    before, after = parts(SAMPLES[tool]), parts(out)
    changed = {part for part in before if before[part] != after[part]}
    assert len(changed) == 3 and len(after) == len(before) + 1
    texts = [json.loads(after[part][1]).get("text") for part in sorted(changed)]
    assert "Let me read it." in texts and any(t and t.startswith("You saw right through me.") for t in texts)
    (repaired,) = [json.loads(after[p][1]) for p in changed if json.loads(after[p][1])["type"] == "tool"]
    tag = "oc" if tool == "opencode" else "kc"
    assert repaired["tool"] == "read" and repaired["state"]["status"] == "error"
    assert repaired["state"]["input"] == {"filePath": f"/tmp/{tag}-work/notes.txt"}
    assert "JSON parsing failed" in repaired["state"]["error"]
    (new,) = set(after) - set(before)
    message, data = after[new]
    recovered = json.loads(data)
    assert message == before[_text_part(before, "Let me read it.")][0]
    assert (recovered["tool"], recovered["state"]["input"]) == ("read", {"filePath": "notes.txt"})
    assert recovered["state"]["status"] == "completed" and "not executed" in recovered["state"]["output"]
    assert new.startswith("prt_") and len(new) == len(next(iter(before)))
    assert after[new][1] == json.dumps(recovered, ensure_ascii=False, separators=(",", ":"))
    for name in ("message", "session", "project"):
        assert table(out, name) == table(SAMPLES[tool], name)
    assert scan(out, capsys) == [(5, "tool-error", "info")]


def _text_part(stored: dict[str, tuple[str, str]], start: str) -> str:
    return next(part for part, (_, data) in stored.items() if json.loads(data).get("text", "").startswith(start))


def test_each_part_written_is_logged_as_opencode_logs_it(tmp_path):
    out = tmp_path / "fixed.db"
    main(["fix", str(SAMPLES["opencode"]), "--accept", "all", "-o", str(out)])
    before, after = table(SAMPLES["opencode"], "event"), table(out, "event")
    (sequence,) = table(out, "event_sequence")
    new = [event for event in after if event not in before]
    assert [event[2] for event in new] == list(range(len(before), len(before) + 4)) and sequence[1] == len(after) - 1
    assert {event[3] for event in new} == {"message.part.updated.1"}
    written = parts(out)
    for event in new:
        part = json.loads(event[4])["part"]
        message, data = written[part.pop("id")]
        assert part.pop("messageID") == message and part.pop("sessionID") == sequence[0]
        assert part == json.loads(data)


@pytest.mark.parametrize(("seq", "shown"), [(2**63 - 2, "'92233720368547758"), ("many", "'many'")])
def test_an_event_sequence_the_next_event_cannot_follow_is_refused_in_one_line(tmp_path, capsys, seq, shown):
    """Its largest integer but one (the first part's event takes the last number, the second's has
    none; the write is one transaction, undone whole), or no integer at all."""
    path = Path(shutil.copy(SAMPLES["kilo"], tmp_path / "kilo.db"))
    with closing(sqlite3.connect(path)) as connection, connection:
        connection.execute("UPDATE event_sequence SET seq = ?", [seq])
    before = path.read_bytes()
    for where in (["-o", str(tmp_path / "fixed.db")], ["--in-place"]):
        assert main(["fix", str(path), "--accept", "all", *where]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and f"(event_sequence.seq) is {shown}" in err
        assert err.endswith("which the next event's number cannot follow; nothing was written\n")
        assert path.read_bytes() == before and not (tmp_path / "fixed.db").exists()


def test_fix_in_place_then_undo_gives_the_rows_back(tmp_path, capsys):
    path = Path(shutil.copy(SAMPLES["kilo"], tmp_path / "kilo.db"))
    before = {name: table(path, name) for name in ("part", "message", "event", "event_sequence")}
    assert main(["fix", str(path), "--accept", "all", "--in-place"]) == 0
    assert scan(path, capsys) == [(5, "tool-error", "info")]
    assert main(["undo", str(path)]) == 0
    assert {name: table(path, name) for name in before} == before


@both
def test_the_tool_continued_the_repaired_session(tool, capsys):
    repaired = TOOL_SAMPLES / f"{tool}.repaired.db"
    source = open_source(repaired)
    ((session_id, messages),) = source.listing()
    assert messages == 11
    session = source.session(session_id)
    assert session.turns[-1].text == (
        "Nothing else. The history I was sent holds the tool calls read, read, read, bash, "
        "and 0 replies starting with an object."
    )
    assert scan(repaired, capsys) == [(5, "tool-error", "info")]


def test_unknown_parts_and_unreadable_messages_are_counted(tmp_path):
    path = Path(shutil.copy(SAMPLES["opencode"], tmp_path / "opencode.db"))
    conn = sqlite3.connect(path)
    (session_id, message_id) = conn.execute("SELECT session_id, message_id FROM part LIMIT 1").fetchone()
    conn.execute(
        "INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, 0, 0, ?)",
        ["prt_zzz", message_id, session_id, json.dumps({"type": "hologram"})],
    )
    conn.execute(
        "INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, 0, 0, ?)",
        ["prt_zzzz", message_id, session_id, json.dumps({"type": ["text"]})],
    )
    for message, data in (("msg_zzz", "nope"), ("msg_zzzz", json.dumps({"role": {"user": True}}))):
        conn.execute(
            "INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, 0, 0, ?)",
            [message, session_id, data],
        )
    conn.commit()
    conn.close()
    session = next(open_source(path).sessions())
    assert session.problems == (
        "1 message whose data is not a JSON object, kept as stored",
        "1 message that is not a user's or an assistant's, kept as stored",
        "1 part of a type this reader does not know ('hologram'), kept as stored",
        "1 part without a type, kept as stored",
    )


def test_rows_whose_data_is_not_json_are_counted_as_such_not_as_a_role_or_a_type(tmp_path):
    path = Path(shutil.copy(SAMPLES["opencode"], tmp_path / "opencode.db"))
    with closing(sqlite3.connect(path)) as conn, conn:
        conn.execute("UPDATE message SET data = '{not json' WHERE rowid % 3 = 0")
        conn.execute("UPDATE part SET data = '{not json' WHERE rowid % 3 = 0")
    (session,) = open_source(path).sessions()
    assert session.problems == (
        "5 parts whose data is not a JSON object, kept as stored",
        "3 messages whose data is not a JSON object, kept as stored",
    )


def test_rows_nested_too_deeply_to_read_are_counted_and_the_rest_is_read_and_fixed(tmp_path, capsys):
    path = Path(shutil.copy(SAMPLES["opencode"], tmp_path / "opencode.db"))
    deep = "[" * 100_000 + "]" * 100_000
    with closing(sqlite3.connect(path)) as conn, conn:
        first = conn.execute("SELECT id FROM message ORDER BY time_created, id LIMIT 1").fetchone()[0]
        conn.execute("UPDATE message SET data = ? WHERE id = ?", [deep, first])
        conn.execute("UPDATE part SET data = ? WHERE id = (SELECT max(id) FROM part)", [deep])
    (session,) = open_source(path).sessions()
    assert set(session.problems) == {
        "1 message whose data is not a JSON object, kept as stored",
        "1 part whose data is not a JSON object, kept as stored",
    }
    assert main(["fix", str(path), "--accept", "all", "--in-place"]) == 0
    capsys.readouterr()
    with closing(sqlite3.connect(path)) as conn:
        assert conn.execute("SELECT count(*) FROM message WHERE data = ?", [deep]).fetchone() == (1,)
        assert conn.execute("SELECT count(*) FROM part WHERE data = ?", [deep]).fetchone() == (1,)


@pytest.mark.parametrize("count", [1, 2])
def test_a_message_and_a_part_whose_data_is_a_json_list_are_named_in_words_that_agree(tmp_path, count):
    path = Path(shutil.copy(SAMPLES["opencode"], tmp_path / "opencode.db"))
    with closing(sqlite3.connect(path)) as conn, conn:
        last = conn.execute("SELECT id FROM message ORDER BY time_created DESC, id DESC LIMIT 1").fetchone()[0]
        conn.execute(
            "UPDATE message SET data = '[]' WHERE id IN "
            "(SELECT id FROM message WHERE id != ? ORDER BY time_created, id LIMIT ?)",
            [last, count],
        )
        conn.execute(
            "UPDATE part SET data = '[]' WHERE id IN (SELECT id FROM part WHERE message_id = ? ORDER BY id LIMIT ?)",
            [last, count],
        )
    (session,) = open_source(path).sessions()
    messages, parts = ("message", "part") if count == 1 else ("messages", "parts")
    assert session.problems == (
        f"{count} {messages} whose data is not a JSON object, kept as stored",
        f"{count} {parts} whose data is not a JSON object, kept as stored",
    )


def test_a_secret_masked_in_a_part_is_masked_in_the_events_that_copied_it(tmp_path):
    token = "ghp_4444444444abcdefghijABCDEFGHIJ444444"
    path = Path(shutil.copy(SAMPLES["opencode"], tmp_path / "opencode.db"))
    conn = sqlite3.connect(path)
    for name in ("part", "event"):
        conn.execute(f"UPDATE {name} SET data = replace(data, 'printed hi', ?)", [f"printed {token}"])
    conn.commit()
    conn.close()
    assert main(["fix", str(path), "--accept", "secret", "--in-place"]) == 1  # the planted problems remain
    conn = sqlite3.connect(path)
    texts = [data for name in ("part", "event") for (data,) in conn.execute(f"SELECT data FROM {name}")]
    conn.close()
    assert not [text for text in texts if token in text]
    assert len([text for text in texts if "[REDACTED:github-token]" in text]) >= 3


def test_a_reply_that_was_only_markup_keeps_an_empty_text_part_and_gets_the_call(tmp_path):
    path = Path(shutil.copy(SAMPLES["opencode"], tmp_path / "opencode.db"))
    conn = sqlite3.connect(path)
    (part_id, data) = conn.execute("SELECT id, data FROM part WHERE data LIKE '%Let me read it.%'").fetchone()
    only_markup = {**json.loads(data), "text": json.loads(data)["text"].replace("Let me read it.\n", "")}
    conn.execute("UPDATE part SET data = ? WHERE id = ?", [json.dumps(only_markup), part_id])
    conn.commit()
    conn.close()
    out = tmp_path / "fixed.db"
    assert main(["fix", str(path), "--accept", "tool-markup", "-o", str(out)]) == 1  # the others remain
    written = parts(out)
    message = written[part_id][0]
    in_message = [json.loads(data) for part, (owner, data) in sorted(written.items()) if owner == message]
    assert [part["type"] for part in in_message] == ["step-start", "text", "step-finish", "tool"]
    assert in_message[1]["text"] == "" and in_message[3]["state"]["input"] == {"filePath": "notes.txt"}
    turns = next(open_source(out).sessions()).turns
    assert [(t.role, t.text, [c.name for c in t.tool_calls]) for t in turns[3:5]] == [
        (ASSISTANT, "", ["read"]),
        (TOOL, "", []),
    ]
