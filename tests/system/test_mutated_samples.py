"""Property tests (hypothesis): every committed session file, its structure changed, through the
commands. Where `test_fuzz.py` puts hostile text where a model's text goes, this changes the
records around it, as a tool's new release, a half-written file or another program may: a value
replaced by another of any JSON type, a key or an element removed, an object or a list stored as
the JSON string of itself, a string cut short or given a stray `}`; one to three changes in a
JSON file, in one line of a JSON Lines file; in a sample database, one to three cells: a JSON
one changed so, any other replaced by a value of another type (NULL, a number, text, bytes).

Each changed file runs through `inspector scan --json FILE` and `inspector fix FILE --accept all
-o OUT` (`inspector.cli.main.main`): no exception escapes, the exit codes are 0, 1 or 2, the input's
bytes are unchanged, and an output that was written scans again without failing (exit 0 or 1).
A database runs through `scan --json` and `fix --accept all --in-place`: the same exit codes, and
one the fix wrote scans again without failing.

Each file tries `INSPECTOR_MUTATIONS` examples (3 by default); a longer run, and a replay by seed,
as in `test_fuzz.py`:

    INSPECTOR_MUTATIONS=200 INSPECTOR_FUZZ_SEED=7 python -m pytest tests/system/test_mutated_samples.py
"""

from __future__ import annotations

import contextlib
import io
import json
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from inspector.cli.main import main
from tests.helpers.properties import examples, replay
from tests.helpers.samples import SESSIONS, TOOL_SAMPLES

MUTATIONS = examples("INSPECTOR_MUTATIONS", 3)

SAMPLES = sorted(
    path
    for folder in (SESSIONS, TOOL_SAMPLES, TOOL_SAMPLES / "in-place", TOOL_SAMPLES / "hooks")
    for path in [*folder.glob("*.json"), *folder.glob("*.jsonl")]
    if not path.name.endswith(("requests.json", "-requests.json"))  # a mock's record of requests, no session
)
VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=5,
)
DATABASES = sorted([*SESSIONS.glob("*.db"), *TOOL_SAMPLES.glob("*.db")])
CELLS = (
    st.none()
    | st.integers(-(2**63), 2**63 - 1)
    | st.floats(allow_nan=False)
    | st.text(max_size=12)
    | st.binary(max_size=6)
)
CHANGES = ("replace", "remove", "as its JSON string", "cut short", "stray brace")


def _places(value: Any, path: tuple = ()) -> Iterator[tuple[tuple, Any]]:
    """Every value inside `value` (itself first), with the keys and indexes leading to it."""
    yield path, value
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from _places(inner, (*path, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            yield from _places(inner, (*path, index))


def _changed(data: st.DataObject, document: Any) -> Any:
    """`document` with one to three of `CHANGES` drawn from `data`."""
    for _ in range(data.draw(st.integers(1, 3), label="changes")):
        places = list(_places(document))
        path, value = places[data.draw(st.integers(0, len(places) - 1), label="place")]
        change = data.draw(st.sampled_from(CHANGES), label="change")
        if change == "replace" or (not path and change == "remove"):
            new = data.draw(VALUES, label="value")
        elif change == "as its JSON string":
            new = json.dumps(value)
        elif isinstance(value, str):
            new = value[: len(value) // 2] if change == "cut short" else value + "}"
        else:
            new = data.draw(VALUES, label="value")
        if not path:
            document = new
            continue
        parent = document
        for step in path[:-1]:
            parent = parent[step]
        if change == "remove":
            del parent[path[-1]]
        else:
            parent[path[-1]] = new
    return document


def _quiet_main(argv: list[str]) -> int:
    """`main(argv)` with its output captured: an exception escaping it fails the test as it is."""
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return main(argv)


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda path: str(path.relative_to(path.parents[1])))
@replay
@MUTATIONS
@given(data=st.data())
def test_a_session_file_with_its_structure_changed_is_read_or_refused_in_one_line(sample: Path, data):
    text = sample.read_text(encoding="utf-8")
    if sample.suffix == ".jsonl":
        lines = [json.loads(line) for line in text.splitlines() if line.strip()]
        index = data.draw(st.integers(0, len(lines) - 1), label="line")
        lines[index] = _changed(data, lines[index])
        changed = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)
    else:
        changed = json.dumps(_changed(data, json.loads(text)), ensure_ascii=False, indent=1)
    with tempfile.TemporaryDirectory(prefix="inspector-mutated-") as folder:
        path = Path(folder) / sample.name
        path.write_text(changed, encoding="utf-8")
        before = path.read_bytes()
        assert _quiet_main(["scan", "--json", str(path)]) in (0, 1, 2)
        out = Path(folder) / f"fixed.{sample.name}"
        assert _quiet_main(["fix", str(path), "--accept", "all", "-o", str(out)]) in (0, 1, 2)
        assert path.read_bytes() == before
        if out.exists():
            assert _quiet_main(["scan", str(out)]) in (0, 1), f"the output of fix does not read again: {out.name}"


@pytest.mark.parametrize("sample", DATABASES, ids=lambda path: str(path.relative_to(path.parents[1])))
@replay
@MUTATIONS
@given(data=st.data())
def test_a_database_with_its_cells_changed_is_read_or_refused_in_one_line(sample: Path, data):
    with tempfile.TemporaryDirectory(prefix="inspector-mutated-") as folder:
        path = Path(shutil.copyfile(sample, Path(folder) / sample.name))
        with contextlib.closing(sqlite3.connect(path)) as database, database:
            for _ in range(data.draw(st.integers(1, 3), label="changes")):
                _change_a_cell(data, database)
        assert _quiet_main(["scan", "--json", str(path)]) in (0, 1, 2)
        before = path.read_bytes()
        fixed = _quiet_main(["fix", str(path), "--accept", "all", "--in-place"])
        assert fixed in (0, 1, 2)
        if path.read_bytes() != before:
            assert fixed != 2, "a fix that failed changed the database"
            assert _quiet_main(["scan", str(path)]) in (0, 1), "the database a fix wrote does not read again"


def _change_a_cell(data: st.DataObject, database: sqlite3.Connection) -> None:
    """Change one cell of a table drawn from `data`: a JSON text's structure, or any value's type."""
    tables = [name for (name,) in database.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    table = data.draw(st.sampled_from(sorted(tables)), label="table")
    rows = database.execute(f'SELECT rowid, * FROM "{table}"').fetchall()
    if not rows:
        return
    columns = [column[1] for column in database.execute(f'PRAGMA table_info("{table}")')]
    row = data.draw(st.sampled_from(rows), label="row")
    index = data.draw(st.integers(0, len(columns) - 1), label="column")
    value = row[index + 1]
    new: object
    try:
        new = json.dumps(_changed(data, json.loads(value)))
    except (TypeError, ValueError):  # not a JSON text
        new = data.draw(CELLS, label="cell")
    with contextlib.suppress(sqlite3.IntegrityError):  # a NOT NULL or unique column keeps its value
        database.execute(f'UPDATE "{table}" SET "{columns[index]}" = ? WHERE rowid = ?', (new, row[0]))
