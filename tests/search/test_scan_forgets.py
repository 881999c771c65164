"""A session file removed from disk leaves the index at the next scan (its cache), as it does at
the next search: the scan's cache never keeps what no longer is."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from inspector.cli.main import main
from inspector.search import index_path
from tests.helpers.samples import SESSIONS, copied


def indexed() -> list[str]:
    """The names of the files the index holds."""
    with sqlite3.connect(index_path()) as connection:
        return sorted(Path(path).name for (path,) in connection.execute("SELECT path FROM files"))


def test_a_file_gone_leaves_the_index_at_the_next_scan(tmp_path: Path, capsys):
    folder = copied(("finetune.openai.jsonl", "clean.openai.json"), SESSIONS, tmp_path / "sessions")
    assert main(["scan", str(folder), "--cache-stats"]) == 1
    assert indexed() == ["clean.openai.json", "finetune.openai.jsonl"]

    (folder / "finetune.openai.jsonl").unlink()
    capsys.readouterr()
    assert main(["scan", str(folder), "--cache-stats"]) == 0
    assert indexed() == ["clean.openai.json"]
    assert capsys.readouterr().err.splitlines()[-1] == (
        "inspector: cache: 1 file taken from the search index, 0 read, 1 gone from disk removed from it"
    )
