"""A Codex CLI rollout repaired where Codex keeps it, `fix --in-place` leaving its backup and audit
beside it, is still resumed by the real CLI, by id and as the last session
(`sessions/generate/in_place_resume.py`; the files are in `sessions/in-place/`).

Today's `fix --accept all --in-place` on the rollout as Codex wrote it must give, byte for byte,
the lines Codex resumed from (the start of the rollout it left), and the same names beside it:
a change in either is one the real CLI has not been shown to resume. The requests of the resumed
turns carried the repaired reply, not the fake result.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from inspector.cli.main import main
from inspector.sources import load_sessions
from tests.helpers.samples import TOOL_SAMPLES

IN_PLACE = TOOL_SAMPLES / "in-place"
FAKE_RESULT = '{success: true, memory_type: "journal"'
REPLY_KEPT = "You saw right through me. I saved that to your journal"
TURNS_RESUMED = ("Resumed by id: what did you save?", "Resumed as the last session: anything else?")


def _fixed_in_place(tmp_path: Path) -> Path:
    """A copy of the rollout Codex wrote, named as Codex names one, repaired in place today."""
    folder = tmp_path / "sessions" / "2026" / "11" / "28"
    folder.mkdir(parents=True)
    rollout = folder / "rollout-2026-11-28T21-07-24-01a223fb-f520-7340-ad57-91d31cc578ab.jsonl"
    shutil.copy(IN_PLACE / "codex.before.jsonl", rollout)
    assert main(["fix", "--accept", "all", "--in-place", str(rollout)]) == 0
    return rollout


def test_the_rollout_codex_wrote_opens_with_a_fake_result(capsys):
    assert main(["scan", str(IN_PLACE / "codex.before.jsonl")]) == 1
    assert "result-prefix" in capsys.readouterr().out


def test_fix_in_place_writes_exactly_what_codex_resumed_from(tmp_path, capsys):
    rollout = _fixed_in_place(tmp_path)
    assert "no finding left" in capsys.readouterr().out
    repaired = rollout.read_bytes()
    resumed = (IN_PLACE / "codex.resumed.jsonl").read_bytes()
    assert resumed.startswith(repaired) and len(resumed) > len(repaired)
    assert FAKE_RESULT.encode() not in resumed.replace(b'\\"', b'"')  # Codex's own events show the repair too
    assert rollout.with_name(rollout.name + ".bak").read_bytes() == (IN_PLACE / "codex.before.jsonl").read_bytes()


def test_fix_in_place_leaves_beside_the_rollout_the_names_codex_was_resumed_with(tmp_path, capsys):
    rollout = _fixed_in_place(tmp_path)
    written = sorted(path.name.replace(rollout.name, "ROLLOUT") for path in rollout.parent.iterdir())
    assert written == (IN_PLACE / "codex.folder.txt").read_text(encoding="utf-8").splitlines()


def test_the_resumed_turns_requests_carried_the_repaired_reply():
    requests = json.loads((IN_PLACE / "codex.resumed-requests.json").read_text(encoding="utf-8"))
    assert [request["turn"] for request in requests] == list(TURNS_RESUMED)
    for request in requests:
        history = json.dumps(request["input"], ensure_ascii=False)
        assert FAKE_RESULT not in history.replace('\\"', '"') and REPLY_KEPT in history


def test_the_resumed_rollout_reads_as_codex_with_both_new_turns_at_its_end():
    (session,) = load_sessions(IN_PLACE / "codex.resumed.jsonl")
    (before,) = load_sessions(IN_PLACE / "codex.before.jsonl")
    assert session.format == "codex" and len(session.turns) > len(before.turns)
    users = [turn.text for turn in session.turns if turn.role == "user"]
    assert users[-2:] == list(TURNS_RESUMED)
