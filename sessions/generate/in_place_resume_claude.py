#!/usr/bin/env python3
"""Show that a Claude Code session repaired where Claude keeps it (`inspector fix --in-place`, its
backup and audit landing beside it) is still resumed by the real CLI, by id and with `--continue`.

Usage (with the project's venv active, so that `inspector` runs):
    python3 sessions/generate/in_place_resume_claude.py [OUT_DIR] [--claude PATH] [--inspector PATH] [--keep]

OUT_DIR defaults to sessions/in-place/.  In a temporary HOME (CLAUDE_CONFIG_DIR=$HOME/.claude) and
working folder, against the scripted mock (the wire format of `claude_code.py`):

1. `claude -p` runs one user turn, which the model answers with a fake tool result before its
   prose (`scenario.FAKE_RESULT_REPLY`): nothing ran;
2. the session file is copied, scrubbed as every generator scrubs it, to `claude-code.before.jsonl`;
3. `inspector fix --accept all --in-place SESSION` repairs the session where Claude keeps it, in
   the project's folder Claude lists sessions from;
4. `claude -p --resume <session id>` runs one more turn; then the files the fix left beside the
   session are made the newest in the folder (their times only), and `claude -p --continue`,
   which resumes the project's most recent session, runs another;
5. it checks that both exited 0 and reported the session's own id, that the folder then holds
   what it held after the fix and nothing else, that those files are as the fix left them, that
   the session starts with the repaired file byte for byte and ends with the two new turns, and
   that the request of each resumed turn carried the repaired reply and not the fake result;
6. the files the fix left are dated 40 days back, beside an old session of the same age (a copy of
   the session under another UUID), and one more turn runs, its reply held `HOLD_SECONDS` so that
   Claude's retention cleanup (`cleanupPeriodDays`, 30 days by default) runs meanwhile: it checks
   that the old session was deleted (the cleanup ran) and that the audit and the backup were not.
   Any failure exits 1.

It writes `claude-code.resumed.jsonl` (the session after step 4, scrubbed),
`claude-code.resumed-requests.json` (each resumed turn's messages from the first user turn on,
scrubbed) and `claude-code.folder.txt` (the names in the project's folder after step 4, the
session's id written `SESSION`).
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
import uuid
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import claude_code
from harness import NPM_TOOLS, TempRun
from in_place_checks import asked_turn, fixed_in_place, main_of, make_newest, resumed_requests, snapshot, write_samples
from in_place_resume import ANSWERS, FAKE_OBJECT, TURN_BY_ID, TURN_FIRST, TURN_LAST, bodies
from mock_server import Reply, sse
from scenario import FAKE_RESULT_REPLY

FLAGS = ["--output-format", "json", "--model", "claude-sonnet-4-5"]
TURN_HELD = "A last turn, long enough for the cleanup: is the record of the fix still there?"
HOLD_SECONDS = 9  # the held reply: Claude's cleanup of old sessions runs in the background meanwhile
DAYS_OLD = 40  # older than Claude's default retention of 30 days


def responder(run: TempRun) -> Any:
    """The mock's answers: the fake result for the first turn, a plain reply for each resumed one."""
    fallback = claude_code.make_responder(run.work)

    def answer(method: str, path: str, body: Any) -> Reply:
        tools = [t.get("name") for t in (body or {}).get("tools") or [] if isinstance(t, dict)]
        if path.split("?")[0] != "/v1/messages" or "Read" not in tools:
            return fallback(method, path, body)
        messages = body.get("messages") or []
        asked = last_user_turn(messages)
        if asked == TURN_HELD:
            time.sleep(HOLD_SECONDS)
        text = ANSWERS.get(asked, "Yes." if asked == TURN_HELD else FAKE_RESULT_REPLY)
        blocks = [claude_code.text_block_events(0, text)]
        msg_id = f"msg_mock_{len(messages):03d}"
        return sse(claude_code.message_events(msg_id, body.get("model", "mock"), blocks, "end_turn"))

    return answer


def last_user_turn(messages: list[Any]) -> str:
    """Which of the scenario's turns the last user message of a request asks ('' if none)."""
    return asked_turn(messages, (TURN_FIRST, TURN_BY_ID, TURN_LAST, TURN_HELD))


def reported_ids(run: TempRun, output_name: str) -> list[str]:
    """The session id each `--output-format json` run reported, in order (from the saved output)."""
    lines = Path(run.home, output_name).read_text().splitlines()
    return [json.loads(line)["session_id"] for line in lines if line.startswith('{"type":"result"')]


def kept_by_the_cleanup(binary: str, run: TempRun, env: dict[str, str], session: Path, left: list[str]) -> list[str]:
    """Step 6: what failed when the files `left` beside `session` and an old session, all dated
    `DAYS_OLD` days back, go through a turn long enough for Claude's cleanup of old sessions."""
    old_session = session.with_name(f"{uuid.uuid4()}.jsonl")
    shutil.copyfile(session, old_session)
    then = time.time() - DAYS_OLD * 86400
    for path in [old_session, *(session.parent / name for name in left)]:
        os.utime(path, (then, then))
    codes = run.run_each("claude", [[binary, "-p", TURN_HELD, "--continue", *FLAGS]], env, "held-output.txt")
    failed = [f"claude --continue (held) exited {code}" for code in codes if code]
    if old_session.exists():
        failed.append(f"the cleanup did not run: an old session {DAYS_OLD} days old was kept")
    failed += [f"the cleanup deleted {name}" for name in left if not (session.parent / name).exists()]
    return failed


def play(binary: str, inspector: str, out: Path, keep: bool) -> list[str]:
    """Run the six steps; what failed (nothing when the repaired session was resumed as it should be)."""
    run = TempRun("ccip")
    failed: list[str] = []
    with run.mock(responder(run), max_requests=40) as srv:
        env = claude_code.claude_env(run, srv.url)
        if run.run_each("claude", [[binary, "-p", TURN_FIRST, *FLAGS]], env, "first-output.txt") != [0]:
            failed.append("the first turn failed")
        session = Path(run.find_written(os.path.join(run.home, ".claude/projects/*/*.jsonl"), "session file"))
        fixed = fixed_in_place(run, inspector, session, out / "claude-code.before.jsonl")
        if isinstance(fixed, str):
            return [*failed, fixed]
        repaired, beside = fixed
        session_id = session.stem
        sent_before = len(bodies(run))
        by_id = [binary, "-p", TURN_BY_ID, "--resume", session_id, *FLAGS]
        codes = run.run_each("claude", [by_id], env, "resume-output.txt")
        make_newest(session, [name for name, data in beside.items() if name != session.name and data is not None])
        codes += run.run_each("claude", [[binary, "-p", TURN_LAST, "--continue", *FLAGS]], env, "continue-output.txt")
        after = snapshot(session.parent)
        left = [name for name, data in beside.items() if name != session.name and data is not None]
        resumed = session.read_bytes()
        failed += kept_by_the_cleanup(binary, run, env, session, left)
    failed += [f"claude {how} exited {code}" for how, code in zip(("--resume", "--continue"), codes) if code]
    ids = reported_ids(run, "resume-output.txt") + reported_ids(run, "continue-output.txt")
    if ids != [session_id, session_id]:
        failed.append(f"the resumed turns reported the sessions {ids}, not {session_id} twice")
    if sorted(after) != sorted(beside):
        failed.append(f"the folder holds {sorted(after)}, not {sorted(beside)}")
    failed += [f"{n} changed" for n, data in beside.items() if n != session.name and after.get(n) != data]
    if not resumed.startswith(repaired) or not all(
        t.encode() in resumed[len(repaired) :] for t in (*ANSWERS, *ANSWERS.values())
    ):
        failed.append("the session does not start with the repaired file and end with both new turns")
    if FAKE_OBJECT[:20].encode() in resumed.replace(b'\\"', b'"'):
        failed.append("a line of the session still shows the fake result")
    requests, bad = resumed_requests(run, sent_before, (TURN_BY_ID, TURN_LAST), "messages", last_user_turn)
    failed += bad
    write_samples(run, out, "claude-code", resumed, requests, [n.replace(session_id, "SESSION") for n in sorted(after)])
    run.finish(keep or bool(failed))
    return failed


if __name__ == "__main__":
    main_of(
        "claude",
        "@anthropic-ai/claude-code",
        [str(NPM_TOOLS / "claude/node_modules/@anthropic-ai/claude-code-linux-x64/claude")],
        play,
    )
