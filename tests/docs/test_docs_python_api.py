"""`docs/python-api.md` documents the library as it is: its examples run as written, from the root
of a fresh clone, and its tables name exactly the public names (`inspector.__all__`)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

import inspector
from tests.helpers.markdown_pages import code_names, page, tables
from tests.helpers.samples import SESSIONS


def test_the_example_runs_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys):
    shutil.copytree(SESSIONS, tmp_path / "inspector" / "samples")
    monkeypatch.chdir(tmp_path)
    example, _ = re.findall(r"^```python\n(.*?)^```", page("python-api.md"), re.M | re.S)
    exec(compile(example, "python-api.md", "exec"), {"__name__": "example"})
    shown = capsys.readouterr().out
    assert "6 result-prefix error Reply starts with a fake save_memory result" in shown
    assert "11 turns before, 13 after" in shown and "1 fixes applied" in shown
    audit = (tmp_path / "quickstart.fixed.jsonl.audit.ndjson").read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["kind"] for line in audit] == ["result-prefix"]
    assert "{saved: true" not in (tmp_path / "quickstart.fixed.jsonl").read_text(encoding="utf-8")


def test_the_loop_example_runs_as_written(capsys):
    _, example = re.findall(r"^```python\n(.*?)^```", page("python-api.md"), re.M | re.S)
    exec(compile(example, "python-api.md", "exec"), {"__name__": "example"})
    assert capsys.readouterr().out.splitlines() == [
        "run save_memory {'content': 'Met Ana at the cafe'}",
        "show: Noted, it is in your journal.",
        "or tell the model: Your reply contains a tool result you wrote yourself; no tool ran. (result-prefix: "
        "Reply starts with a fake save_memory result; no save_memory call ran, so its data (content) would be lost. "
        'It is written with unquoted keys.) Call save_memory with {"content": "Met Ana at the cafe"} now as a '
        "real tool call, then answer from its real result; do not tell the person it was done until it has run.",
    ]


def test_the_tables_name_every_public_name_and_only_those():
    text = page("python-api.md")
    documented = [
        re.match(r"\w+", code_names(row[0])[0])[0] for rows in tables(text, "| name | what it is |") for row in rows
    ]
    assert len(documented) == len(set(documented))
    assert {*documented, "__version__"} == set(inspector.__all__)
    assert "`__version__`" in text
