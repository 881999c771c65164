"""FIFOs, process substitutions, devices and large sparse files: a stream is read once and loses no
bytes, what cannot be a session is refused in one line without reading it whole, and a folder scan
skips what would block it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
from contextlib import suppress
from pathlib import Path

import pytest

from inspector.cli.main import main
from tests.helpers.samples import SESSIONS
from tests.helpers.timing import cpu_time


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
