#!/usr/bin/env python3
"""Show that a GitHub Copilot CLI session repaired where Copilot keeps it (`inspector fix
--in-place`, its backup and audit landing beside it in the session's folder) is still resumed by
the real CLI, by id, by id prefix and with `--continue`.

Usage (with the project's venv active, so that `inspector` runs):
    python3 sessions/generate/in_place_resume_copilot.py [OUT_DIR] [--copilot PATH] [--inspector PATH] [--keep]

OUT_DIR defaults to sessions/in-place/.  In a temporary HOME and working folder, against the
scripted mock (Chat Completions, offline, as `copilot_cli.py` runs it):

1. `copilot -p` runs one user turn, which the model answers with a fake tool result before its
   prose (`scenario.FAKE_RESULT_REPLY`): nothing ran;
2. the session (`~/.copilot/session-state/<id>/events.jsonl`) is copied, scrubbed, to
   `copilot-cli.before.jsonl`;
3. `inspector fix --accept all --in-place EVENTS` repairs it where Copilot keeps it: the backup
   and audit land in the session's own folder;
4. the files the fix left are made the newest in the folder (their times only);
   `copilot --resume <session id> -p`, `copilot --resume <its first 8 characters> -p` and
   `copilot --continue -p` each run one more turn;
5. it checks that each exited 0, that `session-state/` still holds the one session folder, that
   the backup and the audit are as the fix left them, that events.jsonl starts with the repaired
   file byte for byte and ends with the new turns, and that each resumed turn's request carried
   the repaired reply and not the fake result.  Any failure exits 1.

It writes `copilot-cli.resumed.jsonl` (events.jsonl after step 4, scrubbed),
`copilot-cli.resumed-requests.json` (each resumed turn's messages from the first user turn on,
scrubbed) and `copilot-cli.folder.txt` (the names in the session's folder after step 4).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import copilot_cli
from harness import TempRun
from in_place_checks import asked_turn, fixed_in_place, main_of, make_newest, resumed_requests, snapshot, write_samples
from in_place_resume import ANSWERS, FAKE_OBJECT, TURN_BY_ID, TURN_FIRST, TURN_LAST, bodies
from mock_server import Reply, chat_completion_sse, chat_completions_responder
from scenario import FAKE_RESULT_REPLY

TURN_BY_PREFIX = "Resumed by an id prefix: still there?"
REPLIES = {**ANSWERS, TURN_BY_PREFIX: "Still there, repaired."}
TURNS = (TURN_BY_ID, TURN_BY_PREFIX, TURN_LAST)
FLAGS = ["--allow-all-tools", "--disable-client-telemetry", "--stream", "on"]


def last_user_turn(messages: list[Any]) -> str:
    """Which of the scenario's turns the last user message of a request asks ('' if none)."""
    return asked_turn(messages, (TURN_FIRST, *TURNS))


def responder() -> Any:
    """The mock's answers: the fake result for the first turn, a plain reply for each resumed one."""
    model = copilot_cli.MODEL

    def step(n: int) -> Reply:  # (unused: every main request is answered below)
        return chat_completion_sse(model, f"chatcmpl-mock-{n:02d}", "")

    fallback = chat_completions_responder(model, "view", {}, step)

    def answer(method: str, path: str, body: Any) -> Reply:
        tools = [(t.get("function") or {}).get("name") for t in (body or {}).get("tools") or [] if isinstance(t, dict)]
        if not path.endswith("/chat/completions") or "view" not in tools:
            return fallback(method, path, body)
        messages = body.get("messages") or []
        text = REPLIES.get(last_user_turn(messages), FAKE_RESULT_REPLY)
        return chat_completion_sse(model, f"chatcmpl-mock-{len(messages):03d}", text)

    return answer


def play(binary: str, inspector: str, out: Path, keep: bool) -> list[str]:
    """Run the five steps; what failed (nothing when the repaired session was resumed as it should be)."""
    run = TempRun("cpip")
    failed: list[str] = []
    with run.mock(responder(), max_requests=80) as srv:
        env = copilot_cli.copilot_env(run, srv.url)
        if run.run_each("copilot", [[binary, *FLAGS, "-p", TURN_FIRST]], env, "first-output.txt") != [0]:
            failed.append("the first turn failed")
        events = Path(run.find_written(os.path.join(run.home, ".copilot/session-state/*/events.jsonl"), "events"))
        fixed = fixed_in_place(run, inspector, events, out / "copilot-cli.before.jsonl")
        if isinstance(fixed, str):
            return [*failed, fixed]
        repaired, beside = fixed
        left = [name for name in beside if name.startswith(events.name + ".")]
        make_newest(events, left)
        session_id = events.parent.name
        sent_before = len(bodies(run))
        resumes = [
            [binary, "--resume", session_id, *FLAGS, "-p", TURN_BY_ID],
            [binary, "--resume", session_id[:8], *FLAGS, "-p", TURN_BY_PREFIX],
            [binary, "--continue", *FLAGS, "-p", TURN_LAST],
        ]
        codes = run.run_each("copilot", resumes, env, "resume-output.txt")
        after = snapshot(events.parent)
        resumed = events.read_bytes()
    failed += [f"resume {how} exited {code}" for how, code in zip(("by id", "by prefix", "--continue"), codes) if code]
    sessions = sorted(name for name in os.listdir(events.parent.parent) if not name.startswith("."))
    if sessions != [session_id]:
        failed.append(f"session-state/ holds {sessions}, not the one session {session_id}")
    failed += [f"{n} changed or went" for n in left if after.get(n) != beside[n]]
    new_turns = (*TURNS, *(REPLIES[t] for t in TURNS))
    if not resumed.startswith(repaired) or not all(t.encode() in resumed[len(repaired) :] for t in new_turns):
        failed.append("events.jsonl does not start with the repaired file and end with the new turns")
    if FAKE_OBJECT[:20].encode() in resumed.replace(b'\\"', b'"'):
        failed.append("a line of events.jsonl still shows the fake result")
    requests, bad = resumed_requests(run, sent_before, TURNS, "messages", last_user_turn)
    failed += bad
    write_samples(run, out, "copilot-cli", resumed, requests, sorted(after))
    run.finish(keep or bool(failed))
    return failed


if __name__ == "__main__":
    main_of("copilot", "@github/copilot", [str(copilot_cli.BINARY)], play)
