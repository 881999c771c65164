"""A session whose secrets `fix --accept secret` masked is still resumed by its real tool: Codex
CLI, Gemini CLI and Claude Code each resumed a masked session for one more turn
(`sessions/generate/masked_resume.py`; the files are in `sessions/masked/`).

For each tool, today's `fix --accept secret` on the session as the tool wrote it must give, byte
for byte, the lines the tool resumed from (the start of the file it left): a change in how masks
are written is then one the real tool has not been shown to read. The file the tool left holds
no planted secret, reads in its format with the tool's new turn at its end, and scans clean; the
request the tool sent for the new turn carried the masks and none of the secrets.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.cli.main import main
from inspector.scan.scanner import scan_file
from inspector.sources import load_sessions
from tests.helpers.samples import TOOL_SAMPLES

MASKED = TOOL_SAMPLES / "masked"
TOOLS = ("codex", "gemini-cli", "claude-code")  # each is also the name of its format

# What the generator planted in `secrets.env` (obviously fake), and the masks they get.
SECRETS = ("ghp_FAKEfake0123456789FAKEfake0123456789", "AKIAFAKEEXAMPLE01234", "Fake-Passw0rd-2026")
MASKS = ("[REDACTED:github-token]", "[REDACTED:aws-access-key]", "[REDACTED:secret-value]")
TURN_RESUMED = "Which of them should I rotate first?"
ROTATE_TEXT = "Rotate the GitHub token first: it reaches the most."


def _masked_by_fix(tool: str, tmp_path: Path) -> str:
    """The text `fix --accept secret` writes from the tool's unmasked session."""
    out = tmp_path / f"{tool}.masked.jsonl"
    assert main(["fix", "--accept", "secret", str(MASKED / f"{tool}.before.jsonl"), "-o", str(out)]) == 0
    return out.read_text(encoding="utf-8")


@pytest.mark.parametrize("tool", TOOLS)
def test_the_session_the_tool_wrote_holds_every_planted_secret(tool):
    before = (MASKED / f"{tool}.before.jsonl").read_text(encoding="utf-8")
    assert all(secret in before for secret in SECRETS)
    assert not any(mask in before for mask in MASKS)


@pytest.mark.parametrize("tool", TOOLS)
def test_fix_writes_exactly_the_lines_the_tool_resumed_from(tool, tmp_path, capsys):
    masked = _masked_by_fix(tool, tmp_path)
    resumed = (MASKED / f"{tool}.resumed.jsonl").read_text(encoding="utf-8")
    assert "no finding left" in capsys.readouterr().out
    assert all(mask in masked for mask in MASKS)
    masked_lines = masked.splitlines(keepends=True)
    assert resumed.splitlines(keepends=True)[: len(masked_lines)] == masked_lines
    assert len(resumed) > len(masked)


@pytest.mark.parametrize("tool", TOOLS)
def test_the_resumed_session_holds_no_secret_and_scans_clean(tool):
    path = MASKED / f"{tool}.resumed.jsonl"
    assert not any(secret in path.read_text(encoding="utf-8") for secret in SECRETS)
    assert [finding for result in scan_file(path) for finding in result.findings if finding.kind == "secret"] == []


@pytest.mark.parametrize("tool", TOOLS)
def test_the_resumed_session_reads_in_its_format_with_the_new_turn_at_its_end(tool):
    (session,) = load_sessions(MASKED / f"{tool}.resumed.jsonl")
    (before,) = load_sessions(MASKED / f"{tool}.before.jsonl")
    assert session.format == tool
    assert len(session.turns) > len(before.turns)
    user, reply = [turn for turn in session.turns if turn.role in ("user", "assistant")][-2:]
    assert (user.role, user.text) == ("user", TURN_RESUMED)
    assert (reply.role, reply.text) == ("assistant", ROTATE_TEXT)


@pytest.mark.parametrize("tool", TOOLS)
def test_the_resumed_turns_request_carried_the_masks_and_no_secret(tool):
    request = (MASKED / f"{tool}.resumed-request.json").read_text(encoding="utf-8")
    history = json.loads(request)
    assert TURN_RESUMED in json.dumps(history)
    assert all(mask in request for mask in MASKS)
    assert not any(secret in request for secret in SECRETS)
