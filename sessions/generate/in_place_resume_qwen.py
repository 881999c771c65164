#!/usr/bin/env python3
"""Show that a Qwen Code chat repaired where Qwen keeps it (`inspector fix --in-place`, its backup
and audit landing beside it) is still listed and resumed by the real CLI, by id and with
`--continue`.

Usage (with the project's venv active, so that `inspector` runs):
    python3 sessions/generate/in_place_resume_qwen.py [OUT_DIR] [--qwen PATH] [--inspector PATH] [--keep]

OUT_DIR defaults to sessions/in-place/.  In a temporary HOME and working folder, against the
scripted mock (the wire format of `qwen_code.py`):

1. `qwen -p` runs one user turn, which the model answers with a fake tool result before its
   prose (`scenario.FAKE_RESULT_REPLY`): nothing ran;
2. the chat (`~/.qwen/projects/<slug>/chats/<uuid>.jsonl`) is copied, scrubbed, to
   `qwen-code.before.jsonl`;
3. `inspector fix --accept all --in-place CHAT` repairs it where Qwen keeps it;
4. the files the fix left beside it are made the newest in the folder (their times only);
   `qwen sessions list` must name the one session; `qwen --resume <session id> -p`, then
   `qwen --continue -p` each run one more turn;
5. it checks that each exited 0, that the folder then holds what it held after the fix and
   nothing else, that the backup and the audit are as the fix left them, that the chat starts
   with the repaired file byte for byte and ends with the new turns, and that each resumed
   turn's request carried the repaired reply and not the fake result.  Any failure exits 1.

Qwen Code's housekeeping (`general.cleanupPeriodDays`) sweeps file-history backups, subagent
transcripts and logs, never a project's `chats/` folder: there is no retention of chats to check.

It writes `qwen-code.resumed.jsonl` (the chat after step 4, scrubbed),
`qwen-code.resumed-requests.json` (each resumed turn's messages from the first user turn on,
scrubbed) and `qwen-code.folder.txt` (the names in the chats folder after step 4, the session id
written `SESSION`).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import qwen_code
from harness import NPM_TOOLS, TempRun
from in_place_checks import asked_turn, fixed_in_place, main_of, make_newest, resumed_requests, snapshot, write_samples
from in_place_resume import ANSWERS, FAKE_OBJECT, TURN_BY_ID, TURN_FIRST, TURN_LAST, bodies
from mock_server import Reply, sse
from scenario import FAKE_RESULT_REPLY

FLAGS = ["--auth-type", "openai", "-m", qwen_code.MODEL, "-o", "stream-json", "--approval-mode", "yolo"]


def last_user_turn(messages: list[Any]) -> str:
    """Which of the scenario's turns the last user message of a request asks ('' if none)."""
    return asked_turn(messages, (TURN_FIRST, TURN_BY_ID, TURN_LAST))


def replayed_lines(chat: bytes) -> list[str]:
    """The chat's lines but Qwen's own `ui_telemetry` records, which keep each API response's raw
    text (`response_text`, the fake result among them) and are never sent back to the model."""
    lines = chat.decode().splitlines()
    return [line for line in lines if json.loads(line).get("subtype") != "ui_telemetry"]


def responder(run: TempRun) -> Any:
    """The mock's answers: the fake result for the first turn, a plain reply for each resumed one."""
    fallback = qwen_code.make_responder(run.work, {})

    def answer(method: str, path: str, body: Any) -> Reply:
        if not (path.endswith("/chat/completions") and isinstance(body, dict)) or "read_file" not in (
            qwen_code.tool_names(body)
        ):
            return fallback(method, path, body)
        asked = last_user_turn(body.get("messages") or [])
        return sse(qwen_code.completion_events(ANSWERS.get(asked, FAKE_RESULT_REPLY)))

    return answer


def play(binary: str, inspector: str, out: Path, keep: bool) -> list[str]:
    """Run the five steps; what failed (nothing when the repaired chat was resumed as it should be)."""
    run = TempRun("qwip")
    Path(run.home, ".qwen").mkdir()
    Path(run.home, ".qwen", "settings.json").write_text(json.dumps(qwen_code.settings(), indent=2))
    failed: list[str] = []
    cmd = [binary, *FLAGS]
    with run.mock(responder(run), max_requests=80) as srv:
        env = run.base_env(
            OPENAI_API_KEY="dummy",
            OPENAI_BASE_URL=srv.url + "/v1",
            OPENAI_MODEL=qwen_code.MODEL,
            QWEN_DISABLE_AUTO_TITLE="1",
            NO_BROWSER="true",
        )
        if run.run_each("qwen", [[*cmd, "-p", TURN_FIRST]], env, "first-output.txt") != [0]:
            failed.append("the first turn failed")
        chat = Path(run.find_written(os.path.join(run.home, ".qwen/projects/*/chats/*.jsonl"), "chat file"))
        fixed = fixed_in_place(run, inspector, chat, out / "qwen-code.before.jsonl")
        if isinstance(fixed, str):
            return [*failed, fixed]
        repaired, beside = fixed
        left = [name for name, data in beside.items() if name != chat.name and data is not None]
        make_newest(chat, left)
        session_id = chat.stem
        listed = subprocess.run(
            [binary, "sessions", "list"], cwd=run.work, env=env, capture_output=True, text=True, timeout=120
        )
        run.save("sessions-list.txt", listed.stdout + listed.stderr)
        if listed.returncode or (listed.stdout + listed.stderr).count(session_id[:8]) != 1:
            failed.append(f"`qwen sessions list` did not list the one session: {listed.stdout + listed.stderr!r}")
        sent_before = len(bodies(run))
        resumes = [[*cmd, "--resume", session_id, "-p", TURN_BY_ID], [*cmd, "--continue", "-p", TURN_LAST]]
        codes = run.run_each("qwen", resumes, env, "resume-output.txt")
        after = snapshot(chat.parent)
        resumed = chat.read_bytes()
    failed += [f"qwen {how} exited {code}" for how, code in zip(("--resume", "--continue"), codes) if code]
    if sorted(after) != sorted(beside):
        failed.append(f"the folder holds {sorted(after)}, not {sorted(beside)}")
    failed += [f"{n} changed" for n in left if after.get(n) != beside[n]]
    if not resumed.startswith(repaired) or not all(
        t.encode() in resumed[len(repaired) :] for t in (*ANSWERS, *ANSWERS.values())
    ):
        failed.append("the chat does not start with the repaired file and end with both new turns")
    if any(FAKE_OBJECT[:20] in line.replace('\\"', '"') for line in replayed_lines(resumed)):
        failed.append("a line of the chat still shows the fake result")
    requests, bad = resumed_requests(run, sent_before, (TURN_BY_ID, TURN_LAST), "messages", last_user_turn)
    failed += bad
    write_samples(run, out, "qwen-code", resumed, requests, [n.replace(session_id, "SESSION") for n in sorted(after)])
    run.finish(keep or bool(failed))
    return failed


if __name__ == "__main__":
    main_of("qwen", "@qwen-code/qwen-code", [str(NPM_TOOLS / "qwen/node_modules/.bin/qwen")], play)
