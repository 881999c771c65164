#!/usr/bin/env python3
"""Show that a Gemini CLI chat repaired where Gemini keeps it (`inspector fix --in-place`, its
backup and audit landing beside it) is still listed and resumed by the real CLI, by id, by index
and as the latest session, and that its session retention cleanup spares the backup and audit.

Usage (with the project's venv active, so that `inspector` runs):
    python3 sessions/generate/in_place_resume_gemini.py [OUT_DIR] [--gemini PATH] [--inspector PATH] [--keep]

OUT_DIR defaults to sessions/in-place/.  In a temporary HOME and working folder, against the
scripted mock (the wire format of `gemini_cli.py`):

1. `gemini -p` runs one user turn, which the model answers with a fake tool result before its
   prose (`scenario.FAKE_RESULT_REPLY`): nothing ran;
2. the chat (`~/.gemini/tmp/<project>/chats/session-*.jsonl`) is copied, scrubbed, to
   `gemini-cli.before.jsonl`;
3. `inspector fix --accept all --in-place CHAT` repairs it where Gemini keeps it;
4. the files the fix left beside it are made the newest in the folder (their times only);
   `gemini --list-sessions` must list one session; `gemini --resume <session id> -p`, then
   `gemini --resume 1 -p` (by index) and `gemini --resume latest -p` each run one more turn;
5. it checks that each exited 0, that the folder then holds what it held after the fix and
   nothing else, that the backup and the audit are as the fix left them, that the chat starts
   with the repaired file byte for byte and ends with the new turns, and that each resumed
   turn's request carried the repaired reply and not the fake result;
6. with `general.sessionRetention` on (maxAge 30d), the backup and audit dated 40 days back
   beside an old chat of the same age (another session id), one more turn runs, its reply held
   `HOLD_SECONDS` so that the cleanup Gemini starts at launch runs meanwhile: the old chat must
   be deleted (the cleanup ran) and the backup and audit kept.  Any failure exits 1.

It writes `gemini-cli.resumed.jsonl` (the chat after step 4, scrubbed),
`gemini-cli.resumed-requests.json` (each resumed turn's `contents` from the first user turn on,
scrubbed) and `gemini-cli.folder.txt` (the names in the chats folder after step 4, the chat's own
name written `SESSION`).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import gemini_cli
from harness import NPM_TOOLS, TempRun
from in_place_checks import asked_turn, fixed_in_place, main_of, make_newest, resumed_requests, snapshot, write_samples
from in_place_resume import ANSWERS, FAKE_OBJECT, TURN_BY_ID, TURN_FIRST, TURN_LAST, bodies
from in_place_resume_claude import HOLD_SECONDS, TURN_HELD
from mock_server import Reply, sse
from scenario import FAKE_RESULT_REPLY

TURN_BY_INDEX = "Resumed by index: still there?"
REPLIES = {**ANSWERS, TURN_BY_INDEX: "Still there, repaired.", TURN_HELD: "Yes."}
TURNS = (TURN_FIRST, TURN_BY_ID, TURN_BY_INDEX, TURN_LAST, TURN_HELD)
FLAGS = ["-m", gemini_cli.MODEL, "-o", "stream-json", "--skip-trust", "--approval-mode", "yolo"]
DAYS_OLD = 40


def settings(retention: bool) -> str:
    """~/.gemini/settings.json: API key auth, nothing sent out, the retention cleanup on or off."""
    keep = {"enabled": True, "maxAge": "30d"} if retention else {"enabled": False}
    return json.dumps(
        {
            "security": {"auth": {"selectedType": "gemini-api-key"}, "folderTrust": {"enabled": False}},
            "privacy": {"usageStatisticsEnabled": False},
            "telemetry": {"enabled": False},
            "general": {"disableAutoUpdate": True, "disableUpdateNag": True, "sessionRetention": keep},
            "ide": {"enabled": False},
        },
        indent=2,
    )


def last_user_turn(contents: list[Any]) -> str:
    """Which of the scenario's turns the last user content of a request asks ('' if none)."""
    return asked_turn(contents, TURNS, "parts")


def responder(run: TempRun) -> Any:
    """The mock's answers: the fake result for the first turn, a plain reply for each resumed one."""
    fallback = gemini_cli.make_responder(run.work, {})

    def answer(method: str, path: str, body: Any) -> Reply:
        decls = [d.get("name") for t in (body or {}).get("tools") or [] for d in t.get("functionDeclarations") or []]
        if ":streamGenerateContent" not in path or "read_file" not in decls:
            return fallback(method, path, body)
        asked = last_user_turn(body.get("contents") or [])
        if asked == TURN_HELD:
            time.sleep(HOLD_SECONDS)
        return sse([(None, c) for c in gemini_cli.text_chunks(REPLIES.get(asked, FAKE_RESULT_REPLY))])

    return answer


def old_chat(chat: Path) -> Path:
    """A copy of ``chat`` under another session id, its name and times `DAYS_OLD` days back."""
    text = chat.read_text()
    session_id = json.loads(text.splitlines()[0])["sessionId"]
    other = "0ld0c0de" + session_id[8:]
    then = time.gmtime(time.time() - DAYS_OLD * 86400)
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S.000Z", then)
    dated = re.sub(
        r'"(startTime|lastUpdated|timestamp)": ?"[^"]*"', rf'"\1":"{stamp}"', text.replace(session_id, other)
    )
    old = chat.with_name(f"session-{time.strftime('%Y-%m-%dT%H-%M', then)}-{other[:8]}.jsonl")
    old.write_text(dated)
    return old


def kept_by_the_cleanup(cmd: list[str], run: TempRun, env: dict[str, str], chat: Path, left: list[str]) -> list[str]:
    """Step 6: what failed when the files ``left`` beside ``chat`` and an old chat, dated
    `DAYS_OLD` days back, go through a turn long enough for Gemini's retention cleanup."""
    Path(run.home, ".gemini", "settings.json").write_text(settings(retention=True))
    old = old_chat(chat)
    then = time.time() - DAYS_OLD * 86400
    for path in [old, *(chat.parent / name for name in left)]:
        os.utime(path, (then, then))
    codes = run.run_each("gemini", [[*cmd, "--resume", "latest", "-p", TURN_HELD]], env, "held-output.txt")
    failed = [f"gemini (held) exited {code}" for code in codes if code]
    if old.exists():
        failed.append(f"the cleanup did not run: an old chat {DAYS_OLD} days old was kept")
    return failed + [f"the cleanup deleted {name}" for name in left if not (chat.parent / name).exists()]


def gemini_copies(
    chat: Path, after: dict[str, bytes | None], beside: dict[str, bytes | None], session_id: str
) -> list[str]:
    """The chat files Gemini itself added for the same session: a resume that starts in another
    minute than the chat's name says records the loaded history anew under that minute's name
    (`session-<minute>-<id prefix>.jsonl`), as it does for any chat, repaired or not."""
    prefix = f"-{session_id[:8]}.jsonl"
    return [
        name
        for name, data in after.items()
        if name not in beside
        and name.startswith("session-")
        and name.endswith(prefix)
        and data is not None
        and data.startswith(b'{"sessionId":"' + session_id.encode())
    ]


def shows_fake(data: bytes | None) -> bool:
    """Whether a chat file's bytes still show the fake result."""
    return data is not None and FAKE_OBJECT[:20].encode() in data.replace(b'\\"', b'"')


def play(binary: str, inspector: str, out: Path, keep: bool) -> list[str]:
    """Run the six steps; what failed (nothing when the repaired chat was resumed as it should be)."""
    run = TempRun("gmip")
    Path(run.home, ".gemini").mkdir()
    Path(run.home, ".gemini", "settings.json").write_text(settings(retention=False))
    failed: list[str] = []
    cmd = [binary, *FLAGS]
    with run.mock(responder(run), max_requests=80) as srv:
        env = run.base_env(
            GEMINI_API_KEY="dummy", GOOGLE_GEMINI_BASE_URL=srv.url, GEMINI_CLI_NO_RELAUNCH="true", NO_BROWSER="true"
        )
        if run.run_each("gemini", [[*cmd, "-p", TURN_FIRST]], env, "first-output.txt") != [0]:
            failed.append("the first turn failed")
        chat = Path(run.find_written(os.path.join(run.home, ".gemini/tmp/*/chats/session-*.json*"), "chat file"))
        fixed = fixed_in_place(run, inspector, chat, out / "gemini-cli.before.jsonl")
        if isinstance(fixed, str):
            return [*failed, fixed]
        repaired, beside = fixed
        left = [name for name, data in beside.items() if name != chat.name and data is not None]
        make_newest(chat, left)
        session_id = json.loads(repaired.split(b"\n", 1)[0])["sessionId"]
        listed = subprocess.run(
            [binary, "--list-sessions"], cwd=run.work, env=env, capture_output=True, text=True, timeout=120
        )
        run.save("list-sessions.txt", listed.stdout + listed.stderr)
        if listed.returncode or listed.stdout.count(session_id) != 1 or "Available sessions" not in listed.stdout:
            failed.append(f"--list-sessions did not list the one session: {listed.stdout!r}")
        sent_before = len(bodies(run))
        resumes = [
            [*cmd, "--resume", session_id, "-p", TURN_BY_ID],
            [*cmd, "--resume", "1", "-p", TURN_BY_INDEX],
            [*cmd, "--resume", "latest", "-p", TURN_LAST],
        ]
        codes = run.run_each("gemini", resumes, env, "resume-output.txt")
        after = snapshot(chat.parent)
        resumed = chat.read_bytes()
        failed += kept_by_the_cleanup(cmd, run, env, chat, left)
    failed += [f"resume {how} exited {code}" for how, code in zip(("by id", "1", "latest"), codes) if code]
    own = gemini_copies(chat, after, beside, session_id)
    failed += [
        f"{name}, Gemini's own copy of the chat, still shows the fake result" for name in own if shows_fake(after[name])
    ]
    after = {name: data for name, data in after.items() if name not in own}
    if sorted(after) != sorted(beside):
        failed.append(f"the folder holds {sorted(after)}, not {sorted(beside)}")
    failed += [f"{n} changed" for n in left if after.get(n) != beside[n]]
    new_turns = (TURN_BY_ID, TURN_BY_INDEX, TURN_LAST, *(REPLIES[t] for t in (TURN_BY_ID, TURN_BY_INDEX, TURN_LAST)))
    if not resumed.startswith(repaired) or not all(t.encode() in resumed[len(repaired) :] for t in new_turns):
        failed.append("the chat does not start with the repaired file and end with the new turns")
    if shows_fake(resumed):
        failed.append("a line of the chat still shows the fake result")
    requests, bad = resumed_requests(
        run, sent_before, (TURN_BY_ID, TURN_BY_INDEX, TURN_LAST), "contents", last_user_turn
    )
    failed += bad
    write_samples(run, out, "gemini-cli", resumed, requests, [n.replace(chat.name, "SESSION") for n in sorted(after)])
    run.finish(keep or bool(failed))
    return failed


if __name__ == "__main__":
    main_of("gemini", "@google/gemini-cli", [str(NPM_TOOLS / "gemini/node_modules/.bin/gemini")], play)
