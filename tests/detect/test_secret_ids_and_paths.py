"""Detector `secret` on a call's id and on a record's own text fields (a working folder), in the
file Claude Code wrote: a named pattern there is found and `fix --accept secret` writes it
nowhere, while the random-looking ids every session holds stay clean."""

from __future__ import annotations

from pathlib import Path

from inspector.cli.main import main
from inspector.sources import load_sessions
from tests.helpers.samples import TOOL_SAMPLES
from tests.helpers.scanning import findings_of

GITHUB = "ghp_5555555555abcdefghijABCDEFGHIJ555555"
OPENAI = "sk-proj-Abc123def456GHI789jkl012MNO345pqr678"


def _planted(tmp_path: Path, old: str, new: str) -> Path:
    text = (TOOL_SAMPLES / "claude-code.jsonl").read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "claude-code.jsonl"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


def _masked_secrets(path: Path) -> list[str]:
    return [secret for finding in findings_of(path, "secret") for secret, _ in finding.fix.masks]


def test_a_token_in_the_working_folder_of_the_records_is_found_and_masked(tmp_path):
    path = _planted(tmp_path, '"cwd":"/tmp/cc-work"', f'"cwd":"/tmp/cc-work/{GITHUB}"')
    assert set(_masked_secrets(path)) == {GITHUB}
    out = tmp_path / "out.jsonl"
    assert main(["fix", str(path), "--accept", "secret", "-o", str(out)]) in (0, 1)
    assert GITHUB not in out.read_text(encoding="utf-8")
    assert "/tmp/cc-work/[REDACTED:github-token]" in out.read_text(encoding="utf-8")
    assert _masked_secrets(out) == []


def test_a_key_in_a_calls_id_is_found_and_masked_in_the_call_and_its_result(tmp_path):
    path = _planted(tmp_path, "toolu_mock_broken_bash", OPENAI)
    assert _masked_secrets(path) == [OPENAI, OPENAI]  # in the call's turn, and in its result's
    out = tmp_path / "out.jsonl"
    assert main(["fix", str(path), "--accept", "secret", "-o", str(out)]) in (0, 1)
    assert OPENAI not in out.read_text(encoding="utf-8")
    turns = [turn for session in load_sessions(out) for turn in session.turns]
    assert len(turns) == sum(len(session.turns) for session in load_sessions(path))
    assert _masked_secrets(out) == []


def test_a_random_looking_id_is_not_a_secret(tmp_path):
    path = _planted(tmp_path, "toolu_mock_broken_bash", "x9ZqP2mL7vK4nR8sT1wY6bH3cF5gJ0dA")
    assert _masked_secrets(path) == []
