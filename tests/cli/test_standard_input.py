"""`-` as a path is standard input, as most tools take it (`zcat X.jsonl.gz | inspector scan -`):
read as the file `/dev/stdin` by `scan`, `report` and `fix`; the app and `search`, which need a file,
say so in one line; a file named `-` is `./-`. Each run as a person runs it, in its own process."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

from tests.helpers.samples import TOOL_SAMPLES

PIPED = (TOOL_SAMPLES / "codex.rollout.jsonl").read_bytes()


def _inspector(*arguments: str, piped: bytes = PIPED, cwd: Path | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "inspector", *arguments], input=piped, capture_output=True, timeout=120, cwd=cwd
    )


def test_scan_reads_the_session_piped_in(tmp_path):
    done = _inspector("scan", "--json", "--no-cache", "-")
    assert done.returncode == 1, done.stderr
    (session,) = json.loads(done.stdout)["sessions"]
    assert (session["path"], session["format"]) == ("/dev/stdin", "codex")
    assert sorted(finding["kind"] for finding in session["findings"]) == [
        "malformed-arguments",
        "malformed-arguments",
        "result-prefix",
        "tool-markup",
    ]


def test_fix_writes_the_piped_session_repaired(tmp_path):
    out = tmp_path / "fixed.jsonl"
    done = _inspector("fix", "-", "--accept", "all", "-o", str(out))
    assert done.returncode == 0, done.stderr
    assert b"wrote " in done.stdout and out.is_file()
    again = _inspector("scan", "--json", "--no-cache", str(out), piped=b"")
    assert again.returncode == 0 and json.loads(again.stdout)["sessions"][0]["findings"] == []


def test_the_app_and_search_say_in_one_line_that_they_need_a_file(tmp_path):
    app = _inspector("-")
    assert app.returncode == 2 and app.stderr.decode().count("\n") == 1
    assert b"/dev/stdin: a pipe or a device, not a file or folder the app can open" in app.stderr
    search = _inspector("search", "notes", "-", cwd=tmp_path)
    assert search.returncode == 2
    assert search.stderr == (
        b"inspector: error: search: standard input (-) is no file the index can keep; save it to a file and give that\n"
    )


def test_a_file_named_dash_is_read_by_its_path(tmp_path):
    (tmp_path / "-").write_bytes(PIPED)
    done = _inspector("scan", "--json", "--no-cache", "./-", piped=b"", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert json.loads(done.stdout)["sessions"][0]["path"] == "-"


def test_standard_input_left_on_the_terminal_says_to_pipe_a_session_in():
    keyboard, terminal = pty.openpty()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "inspector", "scan", "-"], stdin=terminal, capture_output=True, timeout=120
        )
    finally:
        os.close(keyboard)
        os.close(terminal)
    assert done.returncode == 2
    assert done.stderr == (
        b"inspector: error: standard input is the terminal, not a session: pipe one in (cat FILE | inspector scan -)\n"
    )
