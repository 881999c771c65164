#!/usr/bin/env python3
"""Show that a Codex CLI rollout repaired where Codex keeps it (`inspector fix --in-place`, its
backup and audit landing beside it) is still resumed by the real CLI, by id and as the last one.

Usage (with the project's venv active, so that `inspector` runs):
    python3 sessions/generate/in_place_resume.py [OUT_DIR] [--codex PATH] [--inspector PATH] [--keep]

OUT_DIR defaults to sessions/in-place/.  In a temporary HOME (CODEX_HOME=$HOME/.codex) and working
folder, against the scripted mock (the wire format of `codex.py`):

1. `codex exec` runs one user turn, which the model answers with a fake tool result before its
   prose (`scenario.FAKE_RESULT_REPLY`): nothing ran;
2. the rollout is copied, scrubbed as every generator scrubs it, to `codex.before.jsonl`;
3. `inspector fix --accept all --in-place ROLLOUT` repairs the rollout where Codex keeps it:
   `ROLLOUT.bak` and `ROLLOUT.audit.ndjson` land beside it, in the folder Codex lists;
4. `codex exec resume <session id>`, then `codex exec resume --last`, each run one more turn;
5. it checks that both exited 0, that the folder then holds the rollout, its backup and its audit
   and nothing else, that the backup and the audit are as the fix left them, that the rollout
   starts with the repaired file byte for byte and ends with the two new turns, that no line of
   it (Codex's own events included) still shows the fake result, and that the request of each
   resumed turn carried the repaired reply and not the fake result.  Any failure exits 1.

It writes `codex.resumed.jsonl` (the rollout after step 4, scrubbed), `codex.resumed-requests.json`
(each resumed turn's request input from the first user turn on, scrubbed) and `codex.folder.txt`
(the names in the rollout's folder after step 4, the rollout's own name written `ROLLOUT`).
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
import codex
from harness import DEFAULT_OUT, NPM_TOOLS, TempRun, arg_parser, find_binary, out_dir
from mock_server import Reply, sse
from scenario import FAKE_RESULT_REPLY

TURN_FIRST = "How is the refactor going? Save a note about it."
TURN_BY_ID = "Resumed by id: what did you save?"
TURN_LAST = "Resumed as the last session: anything else?"
FAKE_OBJECT = FAKE_RESULT_REPLY[: FAKE_RESULT_REPLY.index("}") + 1]  # what the fix strips
REPLY_KEPT = FAKE_RESULT_REPLY[len(FAKE_OBJECT) :]  # the prose the repaired reply keeps
ANSWERS = {TURN_BY_ID: "Nothing was saved: no tool ran for it.", TURN_LAST: "Nothing else."}


def responder() -> Any:
    """The mock's answers: the fake result for the first turn, a plain reply for each resumed one."""
    script, fallback = codex.Script(), codex.make_responder(codex.Script(), {})

    def answer(method: str, path: str, body: Any) -> Reply:
        if not (path.endswith("/responses") and isinstance(body, dict)):
            return fallback(method, path, body)
        asked = _last_user_text(body.get("input") or [])
        text = ANSWERS.get(asked, FAKE_RESULT_REPLY)
        return sse(script.events([codex.message(f"msg_mock_{len(body.get('input') or []):03d}", text)]))

    return answer


def _last_user_text(items: list[Any]) -> str:
    """The text of the last user message in a request's input."""
    for item in reversed(items):
        if isinstance(item, dict) and item.get("type") == "message" and item.get("role") == "user":
            parts = item.get("content") or []
            return "".join(part.get("text", "") for part in parts if isinstance(part, dict))
    return ""


def bodies(run: TempRun) -> list[dict[str, Any]]:
    """The requests the mock recorded so far (`bodies.jsonl` in the temp HOME)."""
    path = Path(run.home, "bodies.jsonl")
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def play(binary: str, inspector: str, out: Path, keep: bool) -> list[str]:
    """Run the five steps; what failed (nothing when the repaired rollout was resumed as it should be)."""
    run = TempRun("cxip")
    home = Path(run.home, ".codex")
    home.mkdir()
    failed: list[str] = []
    skip = "--skip-git-repo-check"
    with run.mock(responder(), max_requests=40) as srv:
        Path(home, "config.toml").write_text(
            f'model = "{codex.MODEL}"\nmodel_provider = "mock"\napproval_policy = "never"\n'
            f'sandbox_mode = "danger-full-access"\n\n[model_providers.mock]\nname = "Mock"\n'
            f'base_url = "{srv.url}/v1"\nwire_api = "responses"\nenv_key = "MOCK_API_KEY"\n'
            "request_max_retries = 0\nstream_max_retries = 0\n"
        )
        env = run.base_env(CODEX_HOME=str(home), MOCK_API_KEY="dummy", RUST_LOG="warn")
        if run.run_each("codex", [[binary, "exec", skip, TURN_FIRST]], env, "first-output.txt") != [0]:
            failed.append("the first turn failed")
        rollout = Path(run.find_written(str(home / "sessions/*/*/*/rollout-*.jsonl"), "rollout"))
        run.copy_scrubbed(str(rollout), out / "codex.before.jsonl")
        fix_env = {**os.environ, "HOME": run.home, "XDG_STATE_HOME": str(Path(run.home, "state"))}
        fix = subprocess.run([inspector, "fix", "--accept", "all", "--in-place", str(rollout)], env=fix_env)
        if fix.returncode != 0:
            return [*failed, f"inspector fix exited {fix.returncode}"]
        repaired = rollout.read_bytes()
        beside = {name: Path(rollout.parent, name).read_bytes() for name in os.listdir(rollout.parent)}
        session_id = json.loads(repaired.split(b"\n", 1)[0])["payload"]["id"]
        sent_before = len(bodies(run))
        resumes = [[binary, "exec", "resume", session_id, skip, TURN_BY_ID]]
        resumes.append([binary, "exec", "resume", "--last", skip, TURN_LAST])
        codes = run.run_each("codex", resumes, env, "resume-output.txt")
    failed += [f"resume {n} exited {code}" for n, code in enumerate(codes, 1) if code != 0]
    names = sorted(os.listdir(rollout.parent))
    if names != sorted(beside):
        failed.append(f"the folder holds {names}, not {sorted(beside)}")
    failed += [
        f"{n} changed"
        for n, data in beside.items()
        if n != rollout.name and Path(rollout.parent, n).read_bytes() != data
    ]
    resumed = rollout.read_bytes()
    if not resumed.startswith(repaired) or not all(
        t.encode() in resumed[len(repaired) :] for t in (*ANSWERS, *ANSWERS.values())
    ):
        failed.append("the rollout does not start with the repaired file and end with both new turns")
    if FAKE_OBJECT[:20].encode() in resumed:
        failed.append("a line of the rollout still shows the fake result")
    requests = []
    for turn in (TURN_BY_ID, TURN_LAST):
        sent = [
            b["body"]
            for b in bodies(run)[sent_before:]
            if _last_user_text((b.get("body") or {}).get("input") or []) == turn
        ]
        if not sent:
            failed.append(f"no request for {turn!r}")
            continue
        items = sent[-1]["input"]
        first = next(i for i, item in enumerate(items) if TURN_FIRST in json.dumps(item))
        history = json.dumps(items[first:])
        if FAKE_OBJECT[:20] in history or json.dumps(REPLY_KEPT.strip())[1:-1] not in history:
            failed.append(f"the request for {turn!r} does not carry the repaired reply alone")
        requests.append({"turn": turn, "input": items[first:]})
    run.copy_scrubbed(str(rollout), out / "codex.resumed.jsonl")
    (out / "codex.resumed-requests.json").write_text(
        run.scrub(json.dumps(requests, indent=1, ensure_ascii=False)) + "\n"
    )
    (out / "codex.folder.txt").write_text("".join(name.replace(rollout.name, "ROLLOUT") + "\n" for name in names))
    run.finish(keep or bool(failed))
    return failed


def main() -> None:
    """Play the scenario and exit 1 when the repaired rollout was not resumed as it should be."""
    ap = arg_parser("inspector")
    ap.set_defaults(out=str(DEFAULT_OUT / "in-place"))
    ap.add_argument("--codex")
    args = ap.parse_args()
    binary = find_binary("codex", args.codex, "@openai/codex", [str(NPM_TOOLS / "codex/node_modules/.bin/codex")])
    inspector = args.inspector or "inspector"
    failed = play(binary, inspector, out_dir(args.out), args.keep)
    for line in failed:
        print("FAILED:", line)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
