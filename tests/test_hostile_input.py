"""Hostile input never crashes, hangs or floods: odd values where the format wants a string, lone
surrogates, terminal escapes in what is printed, and options out of range each end as a normal
report or as one line and exit 2."""

from __future__ import annotations

import shutil
import sys

import pytest
from conftest import SESSIONS

from inspector.cli.main import main


def _copy(tmp_path, name):
    target = tmp_path / name
    shutil.copy(SESSIONS / name, target)
    return target


@pytest.mark.parametrize("value", ["1e999", "inf", "nan", "1e12", "-inf"])
def test_an_execute_timeout_out_of_range_is_one_line(tmp_path, capsys, value):
    path = _copy(tmp_path, "memory-agent.openai.json")
    out = tmp_path / "out.json"
    code = main(["fix", str(path), "--accept", "all", "-o", str(out), "--execute", sys.executable,
                 f"--execute-timeout={value}"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("inspector: error: --execute-timeout: ") and err.count("\n") == 1
    assert "is not a positive number of seconds up to 86400" in err
    assert not out.exists()
