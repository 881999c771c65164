"""A file that holds no session is refused before any screen, with the line `scan` gives and exit
2: the app never opens an empty review screen on it."""

import json

from inspector.cli.main import main


def test_a_json_file_that_is_no_session_is_one_line_and_exit_2_before_the_app(tmp_path, capsys):
    package = tmp_path / "package.json"
    package.write_text(json.dumps({"name": "demo", "version": "1.0.0", "dependencies": {"left-pad": "^1.3.0"}}))
    assert main(["scan", str(package)]) == 2
    scan_error = capsys.readouterr().err
    assert main([str(package)]) == 2
    app_error = capsys.readouterr().err
    assert app_error == scan_error and app_error.count("\n") == 1
    assert "not a recognised session format" in app_error
