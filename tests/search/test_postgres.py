"""A chat history in a PostgreSQL server's database, given by its URL, is indexed and searched
as the same history in SQLite is: each conversation a session, with its findings as facets; it
stays in the index (no file on disk says it is gone) and is read again each time it is given."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import psycopg

from inspector.model import ServerUrl
from tests.helpers.postgres_histories import POSTGRES_CHATS, build_rubyllm_postgres
from tests.helpers.rubyllm import build_rubyllm
from tests.search.helpers import searched, searched_json


def places(document: dict[str, Any], path: str) -> list[tuple[Any, ...]]:
    """Each hit in `path` but its path: its session, turn, role, format, kinds, snippet and highlights."""
    return sorted(
        (hit["session_id"], hit["turn"], hit["role"], hit["format"], hit["kinds"], hit["snippet"], hit["highlights"])
        for hit in document["hits"]
        if hit["path"] == path
    )


def test_a_postgres_history_is_searched_as_the_same_sqlite_one(postgres_db: str, tmp_path: Path, capsys):
    url = build_rubyllm_postgres(postgres_db)
    history = build_rubyllm(tmp_path / "app.db", POSTGRES_CHATS)
    shown = str(ServerUrl(url))

    on_server = searched_json(capsys, "", url, "--limit", "100")
    assert on_server["index"]["read"] == 1 and on_server["index"]["errors"] == []
    assert {hit["path"] for hit in on_server["hits"]} == {shown}
    in_sqlite = searched_json(capsys, "", str(history), "--limit", "100")
    assert places(on_server, shown) and places(in_sqlite, str(history)) == places(on_server, shown)
    assert (
        searched_json(capsys, "", url, "--facets")["facets"]["kind"]
        == (searched_json(capsys, "", str(history), "--facets")["facets"]["kind"])
    )

    with psycopg.connect(url) as connection:  # the chat goes on: the next search given the URL reads it again
        connection.execute(
            "UPDATE messages SET content = 'the zanzibarcamel answer' WHERE id = (SELECT max(id) FROM messages WHERE role = 'assistant')"
        )
    assert not searched_json(capsys, "zanzibarcamel")["hits"]  # not given: as indexed
    found = searched_json(capsys, "zanzibarcamel", url)
    assert [hit["path"] for hit in found["hits"]] == [shown] and found["index"]["read"] == 1
    code, out, err = searched(capsys, "zanzibarcamel")
    assert code == 0 and shown in out and err == ""  # it stays in the index
