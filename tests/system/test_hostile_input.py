"""Hostile input never crashes, hangs or floods: odd values where the format wants a string, lone
surrogates, terminal escapes in what is printed, and options out of range each end as a normal
report or as one line and exit 2."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import threading
from contextlib import closing, suppress
from pathlib import Path

import pytest

from inspector.cli.main import main
from inspector.support.safe_text import neutralise
from tests.helpers.samples import SESSIONS
from tests.helpers.sqlite_histories import build_open_webui
from tests.helpers.timing import cpu_time


def _copy(tmp_path, name):
    target = tmp_path / name
    shutil.copy(SESSIONS / name, target)
    return target


@pytest.mark.parametrize("value", ["1e999", "inf", "nan", "1e12", "-inf"])
def test_an_execute_timeout_out_of_range_is_one_line(tmp_path, capsys, value):
    path = _copy(tmp_path, "memory-agent.openai.json")
    out = tmp_path / "out.json"
    code = main(
        ["fix", str(path), "--accept", "all", "-o", str(out), "--execute", sys.executable, f"--execute-timeout={value}"]
    )
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("inspector: error: --execute-timeout: ") and err.count("\n") == 1
    assert "is not a positive number of seconds up to 86400" in err
    assert not out.exists()


def _session_file(tmp_path, name, messages, tools=None):
    path = tmp_path / name
    path.write_text(json.dumps({"messages": messages, **({"tools": tools} if tools else {})}), encoding="utf-8")
    return path


def _surrogate_session(tmp_path):
    """A session whose text, tool names, ids and arguments hold lone surrogates (JSON escapes)."""
    path = tmp_path / "surrogates.json"
    path.write_text(
        r"""{"messages": [
        {"role": "user", "content": "hi \ud800 there"},
        {"role": "assistant", "content": null, "tool_calls": [{"id": "c\udfff", "type": "function",
            "function": {"name": "f\ud800", "arguments": "{\"q\": \"\\ud800\"}"}}]},
        {"role": "tool", "tool_call_id": "c\udfff", "content": "ok \ud800"},
        {"role": "assistant", "content":
            "<tool_call>{\"name\": \"save\\ud800\", \"arguments\": {\"content\": \"x\\ud800\"}}</tool_call>"}]}
    """,
        encoding="utf-8",
    )
    return path


def test_lone_surrogates_are_scanned_and_shown_escaped(tmp_path, capsysbinary):
    path = _surrogate_session(tmp_path)
    assert main(["scan", str(path)]) == 1
    out = capsysbinary.readouterr().out.decode("utf-8")
    assert "tool-markup  save\\ud800, not executed" in out  # the name held a lone surrogate, shown escaped


def test_lone_surrogates_give_valid_json_holding_them_exactly(tmp_path, capsysbinary):
    path = _surrogate_session(tmp_path)
    assert main(["scan", "--json", str(path)]) == 1
    report = json.loads(capsysbinary.readouterr().out.decode("utf-8"))
    finding = report["sessions"][0]["findings"][-1]
    assert finding["tool"] == "save\ud800"
    assert finding["fix"]["tool_calls"][0]["arguments"] == {"content": "x\ud800"}


def test_a_fix_of_a_session_with_lone_surrogates_writes_a_file_that_reads_back(tmp_path, capsys):
    path = _surrogate_session(tmp_path)
    out = tmp_path / "fixed.json"
    assert main(["fix", str(path), "--accept", "all", "-o", str(out)]) == 0
    messages = json.loads(out.read_text(encoding="utf-8"))["messages"]
    assert messages[0]["content"] == "hi \ud800 there"
    assert messages[1]["tool_calls"][0]["function"]["name"] == "f\ud800"
    assert json.loads(messages[3]["tool_calls"][0]["function"]["arguments"]) == {"content": "x\ud800"}
    audit = [
        json.loads(line) for line in (tmp_path / "fixed.json.audit.ndjson").read_text(encoding="utf-8").splitlines()
    ]
    assert audit[-1]["tool"] == "save\ud800"
    capsys.readouterr()
    assert main(["scan", str(out)]) == 0


def test_a_sqlite_repair_with_a_lone_surrogate_is_one_line_and_writes_nothing(tmp_path, capsys):
    path = tmp_path / "chat.db"
    shutil.copy(SESSIONS / "rails-chat.rubyllm.db", path)
    with closing(sqlite3.connect(path)) as conn, conn:
        conn.execute(
            "UPDATE messages SET content = ? WHERE id = 4",
            ['<tool_call>{"name": "save_memory", "arguments": {"content": "x\\ud800"}}</tool_call>'],
        )
    out = tmp_path / "fixed.db"
    assert main(["fix", str(path), "--accept", "all", "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "lone surrogate" in err and not out.exists()


OSC_52 = "\x1b]52;c;SGVsbG8=\x07"  # writes "Hello" to the clipboard
TITLE = "\x1b]0;owned\x07"
CLEAR = "\x1b[2J"
HOSTILE_NAME = f"save{OSC_52}{TITLE}{CLEAR}\u202e\u200b"


def _hostile_session(tmp_path, name="session.json"):
    """A session whose tool name, argument key and call id hold escape sequences and hidden characters."""
    return _session_file(
        tmp_path,
        name,
        [
            {"role": "user", "content": "hi"},
            {
                "role": "assistant",
                "content": '{"result": "ok"} Saved.',
                "tool_calls": [
                    {
                        "id": f"c1{CLEAR}",
                        "type": "function",
                        "function": {"name": HOSTILE_NAME, "arguments": json.dumps({f"k{TITLE}": 1})},
                    }
                ],
            },
        ],
    )


def _assert_inert(text):
    assert "\x1b" not in text and "\x07" not in text and "\u202e" not in text and "\u200b" not in text


def test_scan_shows_escapes_from_a_session_and_its_file_name_never_sends_them(tmp_path, capsys):
    path = _hostile_session(tmp_path, f"odd{TITLE}.json")
    assert main(["scan", str(path)]) == 1
    out = capsys.readouterr().out
    _assert_inert(out)
    assert "save\\x1b]52;c;SGVsbG8=\\x07\\x1b]0;owned\\x07\\x1b[2J\\u202e\\u200b" in out
    assert "odd\\x1b]0;owned\\x07.json" in out


def test_json_output_keeps_the_exact_values_as_json_escapes(tmp_path, capsys):
    path = _hostile_session(tmp_path)
    main(["scan", "--json", str(path)])
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out  # JSON escapes them: \u001b
    tools = {finding["tool"] for finding in json.loads(out)["sessions"][0]["findings"]}
    assert HOSTILE_NAME in tools


def test_error_lines_show_a_file_name_escaped_on_one_line(tmp_path, capsys):
    missing = tmp_path / f"gone{CLEAR}\nforged line{OSC_52}.json"
    assert main(["scan", str(missing)]) == 2
    err = capsys.readouterr().err
    _assert_inert(err)
    assert err.count("\n") == 1 and "gone\\x1b[2J\\nforged line\\x1b]52;c;SGVsbG8=\\x07.json" in err


def test_fix_prints_paths_escaped(tmp_path, capsys):
    path = _hostile_session(tmp_path, f"odd{TITLE}.json")
    out = tmp_path / f"fixed{CLEAR}.json"
    assert main(["fix", str(path), "--accept", "all", "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    _assert_inert(printed)
    assert "wrote " in printed and "fixed\\x1b[2J.json" in printed


@pytest.mark.parametrize(
    "hidden, shown",
    [
        ("\u202e", "\\u202e"),
        ("\u2066", "\\u2066"),
        ("\u2069", "\\u2069"),
        ("\u200b", "\\u200b"),
        ("\u200d", "\\u200d"),
        ("\ufeff", "\\ufeff"),
        ("\x1b", "\\x1b"),
        ("\x9b", "\\x9b"),
        ("\x7f", "\\x7f"),
        ("\ud800", "\\ud800"),
    ],
)
def test_neutralise_shows_hidden_and_direction_characters(hidden, shown):
    assert neutralise(f"a{hidden}b") == f"a{shown}b"
    assert neutralise(neutralise(f"a{hidden}b")) == f"a{shown}b"
    assert neutralise("line\n\ttabbed é 日本") == "line\n\ttabbed é 日本"


ODD_VALUES = [{"a": 1}, [1], 7, True]


def _scan_json(path, capsys):
    code = main(["scan", "--json", str(path)])
    captured = capsys.readouterr()
    assert code in (0, 1), captured.err
    return json.loads(captured.out)["sessions"]


def _odd_cases(odd):
    """(file name, file value, where the odd value went) for every reader of session files."""
    call = {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
    return [
        (
            "result.openai.json",
            {
                "messages": [
                    {"role": "user", "content": "hi"},
                    {"role": "assistant", "content": None, "tool_calls": [call]},
                    {"role": "tool", "tool_call_id": odd, "content": "ok"},
                    {"role": "assistant", "content": "done"},
                ]
            },
        ),
        (
            "call.openai.json",
            {
                "messages": [
                    {"role": "user", "content": "hi"},
                    {"role": "assistant", "content": None, "tool_calls": [{**call, "id": odd}]},
                    {"role": "tool", "tool_call_id": "c1", "content": "ok"},
                    {"role": "assistant", "content": "done"},
                ]
            },
        ),
        (
            "name.openai.json",
            {
                "messages": [
                    {"role": "user", "content": "hi"},
                    {"role": "assistant", "content": None, "tool_calls": [call]},
                    {"role": "function", "name": odd, "content": "ok"},
                    {"role": "assistant", "content": "done"},
                ]
            },
        ),
        (
            "result.anthropic.json",
            {
                "system": "s",
                "messages": [
                    {"role": "user", "content": "hi"},
                    {"role": "assistant", "content": [{"type": "tool_use", "id": "c1", "name": "f", "input": {}}]},
                    {"role": "user", "content": [{"type": "tool_result", "tool_use_id": odd, "content": "ok"}]},
                    {"role": "assistant", "content": "done"},
                ],
            },
        ),
        (
            "call.anthropic.json",
            {
                "system": "s",
                "messages": [
                    {"role": "user", "content": "hi"},
                    {"role": "assistant", "content": [{"type": "tool_use", "id": odd, "name": "f", "input": {}}]},
                    {"role": "assistant", "content": "done"},
                ],
            },
        ),
        (
            "call.gemini.json",
            {
                "contents": [
                    {"role": "user", "parts": [{"text": "hi"}]},
                    {"role": "model", "parts": [{"functionCall": {"id": odd, "name": "f", "args": {}}}]},
                    {"role": "user", "parts": [{"functionResponse": {"name": odd, "response": {"r": 1}}}]},
                    {"role": "model", "parts": [{"text": "done"}]},
                ]
            },
        ),
        (
            "result.dump.json",
            {
                "session_id": "s1",
                "entries": [
                    {"role": "user", "content": "hi"},
                    {"role": "assistant", "content": "", "tool_calls": [call]},
                    {"role": "tool", "tool_call_id": odd, "name": "f", "content": "ok"},
                    {"role": "assistant", "content": "done"},
                ],
            },
        ),
    ]


@pytest.mark.parametrize("odd", ODD_VALUES, ids=["object", "list", "number", "boolean"])
def test_a_field_of_an_odd_type_is_a_problem_and_the_record_is_kept(tmp_path, capsys, odd):
    for (
        name,
        value,
    ) in _odd_cases(odd):
        path = tmp_path / name
        path.write_text(json.dumps(value, indent=2), encoding="utf-8")
        (session,) = _scan_json(path, capsys)
        assert any("skipped" in problem for problem in session["problems"]), (name, session["problems"])
        out = tmp_path / f"fixed.{name}"
        code = main(["fix", str(path), "--accept", "all", "-o", str(out)])
        assert code in (0, 1), (name, capsys.readouterr().err)
        written = json.loads(out.read_text(encoding="utf-8"))
        records = {
            json.dumps(record, sort_keys=True)
            for key in ("messages", "contents", "entries")
            for record in written.get(key, [])
        }
        odd_records = [
            record
            for key in ("messages", "contents", "entries")
            for record in value.get(key, [])
            if json.dumps(odd) in json.dumps(record)
        ]
        assert odd_records and all(json.dumps(record, sort_keys=True) in records for record in odd_records), name
        capsys.readouterr()


def test_a_fine_tuning_line_whose_messages_are_not_a_list_is_a_problem_of_its_own(tmp_path, capsys):
    path = tmp_path / "train.jsonl"
    good = {"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]}
    path.write_text(json.dumps(good) + "\n" + json.dumps({"messages": {"a": 1}}) + "\n", encoding="utf-8")
    sessions = _scan_json(path, capsys)
    assert [s["problems"] for s in sessions] == [[], ["its messages are not a list, skipped"]]


def test_a_tool_schema_whose_properties_are_not_an_object_checks_nothing(tmp_path, capsys):
    tools = [{"type": "function", "function": {"name": "f", "parameters": {"type": "object", "properties": [1]}}}]
    path = _session_file(
        tmp_path,
        "tools.openai.json",
        [
            {"role": "user", "content": "hi"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": '{"q": 1}'}}],
            },
            {"role": "tool", "tool_call_id": "c1", "content": "ok"},
        ],
        tools,
    )
    (session,) = _scan_json(path, capsys)
    assert session["findings"] == []


def test_an_sqlite_call_whose_name_is_binary_is_a_problem(tmp_path, capsys):
    path = tmp_path / "chat.db"
    shutil.copy(SESSIONS / "rails-chat.rubyllm.db", path)
    with closing(sqlite3.connect(path)) as conn, conn:
        conn.execute("UPDATE tool_calls SET name = x'00ff' WHERE id = 1")
    sessions = _scan_json(path, capsys)
    assert any(
        "a call's tool name is binary data, not text, skipped" in problem
        for session in sessions
        for problem in session["problems"]
    )


def test_a_stored_row_the_writer_cannot_take_is_one_line_and_rolled_back(tmp_path, capsys):
    path = build_open_webui(tmp_path / "webui.db")
    with closing(sqlite3.connect(path)) as conn, conn:
        conn.execute("UPDATE chat SET id = NULL WHERE rowid = 1")
    out = tmp_path / "fixed.db"
    assert main(["fix", str(path), "--accept", "all", "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "a stored row has a shape this schema's writer does not allow" in err
    assert "rolled back" in err and not out.exists()


def _in_thread(work, limit=30):
    """Run `work` in a thread; fail, not hang, when it takes over `limit` seconds."""
    done = []
    worker = threading.Thread(target=lambda: done.append(work()), daemon=True)
    worker.start()
    worker.join(limit)
    assert not worker.is_alive(), f"still running after {limit} s"
    return done[0]


def _feed(fifo, data):
    """Write `data` into the FIFO `fifo` from a thread (opening blocks until a reader opens it); a
    reader that stops early breaks the pipe, as it may."""

    def write():
        with suppress(BrokenPipeError), open(fifo, "wb") as handle:
            handle.write(data)

    threading.Thread(target=write, daemon=True).start()


def test_a_fifo_named_on_the_command_line_is_read_once_as_a_stream(tmp_path, capsys):
    fifo = tmp_path / "session.jsonl"  # named like a session, read as one: nothing peeks at it first
    os.mkfifo(fifo)
    _feed(fifo, (SESSIONS / "quickstart.openai.jsonl").read_bytes())
    assert _in_thread(lambda: main(["scan", "--json", str(fifo)])) == 1
    (session,) = json.loads(capsys.readouterr().out)["sessions"]
    assert session["turns"] == 11 and session["problems"] == []


def test_a_process_substitution_loses_no_bytes(tmp_path):
    if shutil.which("bash") is None:
        pytest.skip("needs bash for <(...)")
    session = SESSIONS / "quickstart.openai.jsonl"
    done = subprocess.run(
        ["bash", "-c", f'"{sys.executable}" -m inspector scan --json <(cat "{session}")'],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1, done.stderr
    (scanned,) = json.loads(done.stdout)["sessions"]
    assert scanned["turns"] == 11 and scanned["problems"] == []


def test_an_sqlite_database_through_a_pipe_is_one_line(tmp_path, capsys):
    fifo = tmp_path / "history"
    os.mkfifo(fifo)
    _feed(fifo, (SESSIONS / "rails-chat.rubyllm.db").read_bytes())
    assert _in_thread(lambda: main(["scan", str(fifo)])) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "an SQLite database read through a pipe" in err


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null", "/dev/urandom"])
def test_a_device_is_refused_with_one_line(capsys, device):
    if not os.path.exists(device):
        pytest.skip(f"no {device}")
    assert _in_thread(lambda: main(["scan", device])) == 2
    assert capsys.readouterr().err == f"inspector: error: {device}: is a device, not a session file\n"


def test_a_fifo_of_nul_bytes_stops_at_the_first_chunk(tmp_path, capsys):
    fifo = tmp_path / "zeros.json"
    os.mkfifo(fifo)
    _feed(fifo, bytes(4 << 20))
    assert _in_thread(lambda: main(["scan", str(fifo)])) == 2
    assert "binary file, not a session" in capsys.readouterr().err


@pytest.mark.parametrize(
    "head", [b"", (SESSIONS / "quickstart.openai.jsonl").read_bytes()], ids=["hole", "text-then-hole"]
)
def test_a_large_sparse_file_is_refused_without_reading_it_whole(tmp_path, capsys, head):
    path = tmp_path / "sparse.jsonl"
    with open(path, "wb") as handle:
        handle.write(head + b"\n" * (200_000 - len(head)))  # the text part outgrows the first chunk
        handle.truncate(2 << 30)
    started = cpu_time()
    assert _in_thread(lambda: main(["scan", str(path)])) == 2
    assert cpu_time() - started < 10  # reading 2 GB took 13 s and 2 GB of memory
    assert "binary file, not a session" in capsys.readouterr().err


def test_a_folder_scan_skips_fifos_and_devices(tmp_path, capsys):
    shutil.copy(SESSIONS / "clean.openai.json", tmp_path / "clean.openai.json")
    os.mkfifo(tmp_path / "waiting.json")  # no writer: opening it would block for ever
    (tmp_path / "zeros.jsonl").symlink_to("/dev/zero")
    assert _in_thread(lambda: main(["scan", "--json", str(tmp_path)])) == 0
    assert [Path(s["path"]).name for s in json.loads(capsys.readouterr().out)["sessions"]] == ["clean.openai.json"]
