#!/usr/bin/env python3
"""Generate a real OpenCode session in its older JSON storage (before `opencode.db`) against the
scripted mock Chat Completions API.

Usage:
    python3 sessions/generate/opencode_legacy.py [OUT_DIR] [--opencode PATH] [--keep]
    python3 sessions/generate/opencode_legacy.py --resume STORAGE SESSION_ID [--opencode PATH] [--keep]

OUT_DIR defaults to sessions/.  PATH defaults to $OPENCODE_BIN, else
$NPM_TOOLS/opencode-legacy/node_modules/.bin/opencode, else the binary on $PATH; it must be a
release that keeps its sessions as JSON files (`opencode-ai` 1.1.65 is the last one).

What it does: the same scenario, config and runs as `opencode.py` (`opencode run`, then
`opencode run --continue`), then copies the one session's files from
`$HOME/.local/share/opencode/storage/` to OUT_DIR/opencode-storage/, keeping their layout:
`session/<projectID>/<sessionID>.json`, `message/<sessionID>/<messageID>.json` and
`part/<messageID>/<partID>.json`, the temp paths replaced by fixed placeholders.

With --resume, the storage folder STORAGE (one the inspector repaired: `inspector fix SESSION_FILE
-o STORAGE`) becomes a temporary HOME's `storage/`, and `opencode run --session SESSION_ID`
continues that session for one turn against the mock. The mock's request for that turn must carry
the repaired history: no reply starting with the fake result's object, no printed call markup,
and the recovered `read` as a call answered by its result (else the run fails). STORAGE is then
replaced by the session's files as the tool left them (the proof that it loads what was written).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from harness import DEFAULT_OUT, NPM_TOOLS, TempRun, find_binary, out_dir
from opencode import RESUME_TURN, USER_TURNS, Tool, env_for, make_responder, scrubbed, write_config

SAMPLE = "opencode-storage"


def copy_session(storage: Path, dest: Path, run: TempRun) -> str:
    """Copy the one session of `storage` (its file, messages and their parts) into `dest`, scrubbed;
    the session's id."""
    found = sorted(storage.glob("session/*/ses_*.json"))
    if len(found) != 1:
        sys.exit(f"expected one session in {storage}, found {len(found)}")
    session = found[0]
    files = [session]
    for message in sorted((storage / "message" / session.stem).glob("msg_*.json")):
        files.append(message)
        files.extend(sorted((storage / "part" / message.stem).glob("prt_*.json")))
    if dest.exists():
        shutil.rmtree(dest)
    for source in files:
        target = dest / source.relative_to(storage)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(scrubbed(run, source.read_text()))
    print(f"wrote {len(files)} files to {dest} from {storage}")
    return session.stem


def generate(args: argparse.Namespace, tool: Tool, binary: str) -> None:
    """Run the scenario with the JSON-storage release and copy its session."""
    out = out_dir(args.out)
    run = TempRun("oc")
    with run.mock(make_responder(run.work), max_requests=80) as srv:
        write_config(run, tool, srv.url)
        cmds = [[binary, "run", *(["--continue"] if i else []), turn] for i, turn in enumerate(USER_TURNS)]
        run.run_each(tool.name, cmds, env_for(run), f"{tool.name}-output.txt")
    copy_session(Path(run.home, tool.data, "storage"), out / SAMPLE, run)
    run.finish(args.keep)


def resume(args: argparse.Namespace, tool: Tool, binary: str) -> None:
    """Continue session `args.resume[1]` of the storage folder `args.resume[0]` for one turn, in place."""
    storage, session_id = Path(args.resume[0]), args.resume[1]
    run = TempRun("oc")
    home_storage = Path(run.home, tool.data, "storage")
    for source in sorted(path for path in storage.rglob("*.json") if path.is_file()):
        target = home_storage / source.relative_to(storage)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(run.unscrub(source.read_text()))  # the session's folder is this run's working folder
    with run.mock(make_responder(run.work), max_requests=20) as srv:
        write_config(run, tool, srv.url)
        run.run_each(tool.name, [[binary, "run", "--session", session_id, RESUME_TURN]], env_for(run), "resume.txt")
    check_resumed_history(Path(run.home, "bodies.jsonl"))
    copy_session(home_storage, storage, run)
    print(f"{storage}: session {session_id} continued by {tool.name}")
    run.finish(args.keep)


def check_resumed_history(bodies: Path) -> None:
    """Exit unless the last request for the model's answer (one with tools) carries the repaired
    history: no reply starting with an object, no printed call, and the recovered `read` of
    notes.txt as a call answered by a tool message."""
    requests = [json.loads(line).get("body") for line in bodies.read_text().splitlines() if line.strip()]
    asked = [body for body in requests if isinstance(body, dict) and body.get("tools")]
    if not asked:
        sys.exit(f"no request for the model's answer in {bodies}")
    messages = asked[-1].get("messages") or []
    replies = [m for m in messages if m.get("role") == "assistant"]
    texts = [m.get("content") if isinstance(m.get("content"), str) else "" for m in replies]
    calls = {c.get("id"): c.get("function", {}) for m in replies for c in m.get("tool_calls") or []}
    answered = {m.get("tool_call_id") for m in messages if m.get("role") == "tool"}
    recovered = [
        call_id
        for call_id, function in calls.items()
        if function.get("name") == "read" and json.loads(function.get("arguments") or "{}") == {"filePath": "notes.txt"}
    ]
    problems = [
        *(["a reply still starts with an object"] if any(t.lstrip().startswith("{") for t in texts) else []),
        *(["a reply still prints a call"] if any("<tool_call>" in t for t in texts) else []),
        *(["the recovered read is not a call answered by its result"] if not set(recovered) & answered else []),
    ]
    if problems:
        sys.exit(f"the resumed request does not carry the repaired history: {'; '.join(problems)}")
    print(f"the resumed request carries the repaired history ({len(messages)} messages, calls {sorted(calls)})")


def main() -> None:
    """Generate the sample, or continue a repaired session (--resume)."""
    parser = argparse.ArgumentParser()
    parser.add_argument("out", nargs="?", default=str(DEFAULT_OUT))
    parser.add_argument("--opencode", help="an opencode binary that keeps JSON storage (1.1.65)")
    parser.add_argument("--resume", nargs=2, metavar=("STORAGE", "SESSION_ID"))
    parser.add_argument("--keep", action="store_true", help="keep the temp folders")
    args = parser.parse_args()
    tool = Tool(kilo=False)
    default = str(NPM_TOOLS / "opencode-legacy" / "node_modules" / ".bin" / "opencode")
    binary = find_binary("opencode", args.opencode, "opencode-ai@1.1.65", [default])
    (resume if args.resume else generate)(args, tool, binary)
    subprocess.run([binary, "--version"], check=False)


if __name__ == "__main__":
    main()
