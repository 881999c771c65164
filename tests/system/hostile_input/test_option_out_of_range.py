"""An option out of range is one line and exit 2, and nothing is written."""

from __future__ import annotations

import sys

import pytest

from inspector.cli.main import main


@pytest.mark.parametrize("value", ["1e999", "inf", "nan", "1e12", "-inf"])
def test_an_execute_timeout_out_of_range_is_one_line(tmp_path, capsys, session_copy, value):
    out = tmp_path / "out.json"
    code = main(
        [
            "fix",
            str(session_copy),
            "--accept",
            "all",
            "-o",
            str(out),
            "--execute",
            sys.executable,
            f"--execute-timeout={value}",
        ]
    )
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("inspector: error: --execute-timeout: ") and err.count("\n") == 1
    assert "is not a positive number of seconds up to 86400" in err
    assert not out.exists()
