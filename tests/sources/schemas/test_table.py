"""A table of no known schema named with `--table/--map`: read through the mapping, one
conversation without a session column, and the options checked."""

from __future__ import annotations

import pytest

from inspector.cli.main import main
from inspector.sources import open_source
from tests.helpers.scanning import reported_findings
from tests.helpers.sqlite_histories import build_generic


def test_any_table_is_read_through_table_and_map(tmp_path, capsys):
    path = build_generic(tmp_path / "app.db")
    found = reported_findings(
        capsys, str(path), "--table", "turns", "--map", "role=speaker,content=body,session=convo,order=turn_no"
    )
    assert found == {"a": [(1, "result-prefix", None)], "b": []}
    (session,) = [
        open_source(path, table="turns", mapping={"role": "speaker", "content": "body", "session": "convo"}).session(
            "b"
        )
    ]
    assert [t.text for t in session.turns] == ["hi"]
    assert session.problems == ("row 4: role 'narrator' is not one this tool knows, skipped",)


def test_a_table_without_a_session_column_is_one_conversation(tmp_path):
    path = build_generic(tmp_path / "app.db")
    source = open_source(path, table="turns", mapping={"role": "speaker", "content": "body"})
    assert source.listing() == [("all", 4)]
    assert source.format == "table"


@pytest.mark.parametrize(
    "options, message",
    [
        (["--table", "nope", "--map", "role=a,content=b"], "no table 'nope' (tables: turns)"),
        (["--table", "turns", "--map", "role=speaker,content=text"], "table 'turns' has no column text"),
        (["--table", "turns", "--map", "role=speaker"], "--map: name the content column"),
        (["--table", "turns", "--map", "colour=red"], "--map: 'colour=red' is not KEY=COLUMN"),
        (["--map", "role=speaker,content=body"], "--table and --map go together"),
    ],
)
def test_table_options_are_checked(tmp_path, capsys, options, message):
    path = build_generic(tmp_path / "app.db")
    assert main(["scan", str(path), *options]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
