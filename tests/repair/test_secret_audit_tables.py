"""`fix --accept secret -o copy.db` on each sample SQLite history with a token planted in a row:
no table of the copy holds the token (the rows, `inspector_fixes`, `inspector_changes`' images
before and after), the input still does, and `inspector undo` on the copy puts the row back with
the token still masked."""

from __future__ import annotations

import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from inspector.cli.main import main
from tests.helpers.samples import SAMPLE_DATABASES

TOKEN = "ghp_4444444444abcdefghijABCDEFGHIJ444444"
MASK = "[REDACTED:github-token]"
DATABASES = SAMPLE_DATABASES


def _every_text_cell(path: Path) -> list[str]:
    """Every text cell of every table of the database (bytes decoded)."""
    cells = []
    with closing(sqlite3.connect(path)) as connection:
        tables = [name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        for table in tables:
            for row in connection.execute(f'SELECT * FROM "{table}"'):
                cells += [
                    value.decode("utf-8", "replace") if isinstance(value, bytes) else value
                    for value in row
                    if isinstance(value, str | bytes)
                ]
    return cells


def _planted(source: Path, tmp_path: Path, table: str, column: str) -> Path:
    path = tmp_path / source.name
    shutil.copy(source, path)
    with closing(sqlite3.connect(path)) as connection, connection:
        (rowid,) = connection.execute(
            f"SELECT rowid FROM {table} WHERE {column} LIKE '%the%' ORDER BY rowid DESC LIMIT 1"
        ).fetchone()
        connection.execute(
            f"UPDATE {table} SET {column} = replace({column}, 'the', ?) WHERE rowid = ?", (f"the {TOKEN}", rowid)
        )
    return path


@pytest.mark.parametrize("source, table, column", DATABASES, ids=[p.name for p, _, _ in DATABASES])
def test_no_table_of_the_fixed_copy_holds_the_secret(tmp_path, capsys, source, table, column):
    path = _planted(source, tmp_path, table, column)
    out = tmp_path / "copy.db"
    assert main(["fix", str(path), "--accept", "secret", "-o", str(out)]) in (0, 1)
    cells = _every_text_cell(out)
    assert not [cell for cell in cells if TOKEN in cell]
    assert any(MASK in cell for cell in cells)
    assert any(TOKEN in cell for cell in _every_text_cell(path))  # the input keeps it
    capsys.readouterr()
    assert main(["undo", str(out)]) == 0
    cells = _every_text_cell(out)
    assert not [cell for cell in cells if TOKEN in cell]
    with closing(sqlite3.connect(out)) as connection:
        assert any(MASK in str(value) for (value,) in connection.execute(f"SELECT {column} FROM {table}"))


def _every_cell_on_server(url: str) -> list[str]:
    """Every cell of every table of the PostgreSQL database's public schema, as text."""
    import psycopg

    with psycopg.connect(url) as connection:
        tables = [
            name
            for (name,) in connection.execute(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
            )
        ]
        return [
            str(value)
            for table in tables
            for row in connection.execute(f'SELECT * FROM "{table}"')
            for value in row
            if value is not None
        ]


def test_no_table_of_a_postgresql_history_keeps_the_secret_it_masked(postgres_db, capsys):
    import psycopg

    from tests.helpers.postgres_histories import build_rubyllm_postgres

    url = build_rubyllm_postgres(postgres_db)
    with psycopg.connect(url) as connection:
        (row_id,) = connection.execute(
            "SELECT id FROM messages WHERE content LIKE '%the%' ORDER BY id DESC LIMIT 1"
        ).fetchone()
        connection.execute(
            "UPDATE messages SET content = replace(content, 'the', %s) WHERE id = %s", (f"the {TOKEN}", row_id)
        )
    assert main(["fix", url, "--accept", "secret", "--in-place"]) in (0, 1)
    cells = _every_cell_on_server(url)
    assert not [cell for cell in cells if TOKEN in cell]
    assert any(MASK in cell for cell in cells)
    capsys.readouterr()
    assert main(["undo", url]) == 0
    assert not [cell for cell in _every_cell_on_server(url) if TOKEN in cell]
