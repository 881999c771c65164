"""A secret a database keeps where its writer cannot mask it (an id column) is never said to be
masked: the write reads back what it wrote, names how many secrets are still there, and `fix`
exits 1; an output holding none says nothing of it."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from inspector.cli.main import main
from tests.helpers.samples import SESSIONS

TOKEN = "ghp_1234567890abcdefghijABCDEFGHIJ123456"


def _history_with_a_token_as_a_call_id(tmp_path: Path) -> Path:
    database = Path(shutil.copy(SESSIONS / "rails-chat.rubyllm.db", tmp_path / "app.db"))
    with sqlite3.connect(database) as conn:
        conn.execute("UPDATE tool_calls SET tool_call_id = ? WHERE id = 1", (TOKEN,))
    conn.close()
    return database


def test_a_secret_left_in_an_id_column_is_named_and_fails_the_fix(tmp_path: Path, capsys):
    database = _history_with_a_token_as_a_call_id(tmp_path)
    out = tmp_path / "shared.db"

    assert main(["fix", str(database), "--accept", "secret", "-o", str(out)]) == 1
    printed = capsys.readouterr().out
    assert f"1 secret still in {out}: it is kept where this storage's writer cannot mask" in printed
    assert TOKEN.encode() in out.read_bytes()  # what the line says is so


def test_a_secret_masked_everywhere_says_nothing_more(write_session, tmp_path: Path, capsys):
    path = write_session([{"role": "user", "content": f"my token is {TOKEN}"}, {"role": "assistant", "content": "ok"}])
    out = tmp_path / "shared.json"

    assert main(["fix", str(path), "--accept", "secret", "-o", str(out)]) == 0
    assert "still in" not in capsys.readouterr().out
    assert TOKEN not in out.read_text(encoding="utf-8")
