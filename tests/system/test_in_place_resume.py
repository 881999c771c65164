"""A session repaired where its tool keeps it, `fix --in-place` leaving its backup and audit
beside it, is still resumed by the real CLI: a Codex CLI rollout by id and as the last session
(`sessions/generate/in_place_resume.py`), a Claude Code session by id and with `--continue`, the
audit and the backup made the newest files in the project's folder
(`sessions/generate/in_place_resume_claude.py`); the files are in `sessions/in-place/`.

Today's `fix --accept all --in-place` on the session as the tool wrote it must give, byte for byte,
the lines the tool resumed from (the start of the file it left), and the same names beside it:
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


CLAUDE_SESSION_ID = "963cf8f6-8561-4c1c-9ea9-40ccd4f29cc7"


def _claude_fixed_in_place(tmp_path: Path) -> Path:
    """A copy of the session Claude Code wrote, in a project's folder as Claude left it (with its
    `memory/` folder), repaired in place today."""
    folder = tmp_path / ".claude" / "projects" / "-tmp-ccip-work"
    (folder / "memory").mkdir(parents=True)
    session = folder / f"{CLAUDE_SESSION_ID}.jsonl"
    shutil.copy(IN_PLACE / "claude-code.before.jsonl", session)
    assert main(["fix", "--accept", "all", "--in-place", str(session)]) == 0
    return session


def test_the_session_claude_code_wrote_opens_with_a_fake_result(capsys):
    assert main(["scan", str(IN_PLACE / "claude-code.before.jsonl")]) == 1
    assert "result-prefix" in capsys.readouterr().out


def test_fix_in_place_writes_exactly_what_claude_code_resumed_from(tmp_path, capsys):
    session = _claude_fixed_in_place(tmp_path)
    assert "no finding left" in capsys.readouterr().out
    repaired = session.read_bytes()
    resumed = (IN_PLACE / "claude-code.resumed.jsonl").read_bytes()
    assert resumed.startswith(repaired) and len(resumed) > len(repaired)
    assert FAKE_RESULT.encode() not in resumed.replace(b'\\"', b'"')
    before = (IN_PLACE / "claude-code.before.jsonl").read_bytes()
    assert session.with_name(session.name + ".bak").read_bytes() == before


def test_fix_in_place_leaves_beside_the_session_the_names_claude_code_was_resumed_with(tmp_path, capsys):
    session = _claude_fixed_in_place(tmp_path)
    written = sorted(path.name.replace(CLAUDE_SESSION_ID, "SESSION") for path in session.parent.iterdir())
    assert written == (IN_PLACE / "claude-code.folder.txt").read_text(encoding="utf-8").splitlines()


def test_claude_codes_resumed_turns_carried_the_repaired_reply_and_continue_the_real_session():
    requests = json.loads((IN_PLACE / "claude-code.resumed-requests.json").read_text(encoding="utf-8"))
    assert [request["turn"] for request in requests] == list(TURNS_RESUMED)
    for request in requests:
        history = json.dumps(request["messages"], ensure_ascii=False)
        assert FAKE_RESULT not in history.replace('\\"', '"') and REPLY_KEPT in history
    assert TURNS_RESUMED[0] in json.dumps(requests[1]["messages"])  # --continue resumed the turn by id too


def test_the_session_claude_code_resumed_holds_both_new_turns_under_its_own_id():
    (session,) = load_sessions(IN_PLACE / "claude-code.resumed.jsonl")
    assert session.format == "claude-code"
    users = [turn.text for turn in session.turns if turn.role == "user"]
    assert users[-2:] == list(TURNS_RESUMED)
    lines = (IN_PLACE / "claude-code.resumed.jsonl").read_text(encoding="utf-8").splitlines()
    assert {json.loads(line)["sessionId"] for line in lines} == {CLAUDE_SESSION_ID}
