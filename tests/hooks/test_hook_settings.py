"""The person chooses which kinds block, which only warn and which the hook leaves
(`$XDG_CONFIG_HOME/inspector/hooks.toml`, or `hooks.json`); a settings file that cannot be used
is said in one line and the defaults hold."""

from __future__ import annotations

import json
import os
from pathlib import Path

from tests.hooks.helpers import FAKE_RESULT_END, MARKUP_END, run_hook, stop_input, write_lines


def settings(name: str, text: str) -> Path:
    path = Path(os.environ["XDG_CONFIG_HOME"]) / "inspector" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_a_kind_turned_off_never_blocks(tmp_path, monkeypatch, capsys):
    settings("hooks.toml", '[kinds]\nresult-prefix = "off"\n')
    transcript = write_lines(tmp_path / "session.jsonl", FAKE_RESULT_END)
    assert run_hook(monkeypatch, capsys, stop_input(transcript)) == (0, None, "")


def test_a_kind_set_to_warn_tells_the_person_and_lets_the_agent_stop(tmp_path, monkeypatch, capsys):
    settings("hooks.json", json.dumps({"kinds": {"tool-markup": "warn"}}))
    transcript = write_lines(tmp_path / "session.jsonl", MARKUP_END)
    code, decision, _ = run_hook(monkeypatch, capsys, stop_input(transcript))
    assert code == 0 and list(decision) == ["systemMessage"]
    assert "tool-markup: Leaked hermes tool-call markup for Read" in decision["systemMessage"]


def test_errors_only_lets_a_fake_result_no_tool_matches_warn(tmp_path, monkeypatch, capsys):
    settings("hooks.toml", 'block_severity = "error"\n')
    transcript = write_lines(tmp_path / "session.jsonl", FAKE_RESULT_END)  # a warning: no known tool matches it
    assert list(run_hook(monkeypatch, capsys, stop_input(transcript))[1]) == ["systemMessage"]


def test_a_settings_file_with_a_typo_is_one_line_and_the_defaults_still_block(tmp_path, monkeypatch, capsys):
    path = settings("hooks.toml", '[kinds]\nresult-prefx = "off"\n')
    transcript = write_lines(tmp_path / "session.jsonl", FAKE_RESULT_END)
    code, decision, err = run_hook(monkeypatch, capsys, stop_input(transcript))
    assert code == 0 and decision["decision"] == "block"
    assert (
        err
        == f"inspector hook: {path}: the hook checks no kind 'result-prefx' (result-prefix, fake-result-block, tool-markup, relayed-fake-result, claimed-success, narrated-action): the defaults are used\n"
    )


def test_a_settings_file_that_is_not_toml_is_one_line(tmp_path, monkeypatch, capsys):
    settings("hooks.toml", "kinds = [\n")
    transcript = write_lines(tmp_path / "session.jsonl", FAKE_RESULT_END)
    code, decision, err = run_hook(monkeypatch, capsys, stop_input(transcript))
    assert code == 0 and decision["decision"] == "block"
    assert "hooks.toml: not TOML (" in err and err.count("\n") == 1
