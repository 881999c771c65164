"""What the in-place resume scripts of Claude Code, Gemini CLI, Qwen Code and Copilot CLI share:
which of the scenario's turns a request asks, the fix in place, the files beside a session (read,
and made the newest), whether each resumed turn's request carried the repaired reply alone, the samples each
script writes, and its command line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from harness import DEFAULT_OUT, TempRun, arg_parser, find_binary, out_dir
from in_place_resume import FAKE_OBJECT, REPLY_KEPT, TURN_FIRST, bodies


def asked_turn(history: list[Any], turns: Sequence[str], text_key: str = "content") -> str:
    """Which of `turns` the last user entry of a request's `history` asks ('' if none): its
    `text_key` (`content`, or Gemini's `parts`) holds the turn's words."""
    last = next((m for m in reversed(history) if isinstance(m, dict) and m.get("role") == "user"), {})
    text = json.dumps(last.get(text_key), ensure_ascii=False)
    return next((turn for turn in turns if turn in text), "")


def snapshot(folder: Path) -> dict[str, bytes | None]:
    """Every name under ``folder`` (recursively, relative) with its bytes (None for a folder)."""
    return {str(path.relative_to(folder)): None if path.is_dir() else path.read_bytes() for path in folder.rglob("*")}


def make_newest(session: Path, names: list[str]) -> None:
    """Give the files ``names`` beside ``session`` a modification time after every other's."""
    newest = max(path.stat().st_mtime for path in session.parent.iterdir()) + 5
    for name in names:
        os.utime(session.parent / name, (newest, newest))


def fixed_in_place(
    run: TempRun, inspector: str, session: Path, before: Path
) -> tuple[bytes, dict[str, bytes | None]] | str:
    """Copy ``session`` scrubbed to ``before``, then `inspector fix --accept all --in-place` it where
    its tool keeps it (the state folder in the temp HOME): the repaired bytes and what its folder
    then holds (`snapshot`), or why the fix failed."""
    run.copy_scrubbed(str(session), before)
    fix_env = {**os.environ, "HOME": run.home, "XDG_STATE_HOME": str(Path(run.home, "state"))}
    fix = subprocess.run([inspector, "fix", "--accept", "all", "--in-place", str(session)], env=fix_env)
    if fix.returncode != 0:
        return f"inspector fix exited {fix.returncode}"
    return session.read_bytes(), snapshot(session.parent)


def resumed_requests(
    run: TempRun, sent_before: int, turns: Sequence[str], key: str, asked: Callable[[list[Any]], str]
) -> tuple[list[dict[str, Any]], list[str]]:
    """Each resumed turn's request history (its body's `key`: `messages`, `contents`) from the
    first user turn on, for the samples, and what failed: a turn with no request, or one whose
    history does not carry the repaired reply alone (`asked` tells which turn a history asks)."""
    requests, failed = [], []
    for turn in turns:
        sent = [
            b["body"]
            for b in bodies(run)[sent_before:]
            if isinstance(b.get("body"), dict) and asked(b["body"].get(key) or []) == turn
        ]
        if not sent:
            failed.append(f"no request for {turn!r}")
            continue
        history = sent[-1][key]
        first = next(i for i, item in enumerate(history) if TURN_FIRST in json.dumps(item))
        shown = json.dumps(history[first:], ensure_ascii=False)
        if FAKE_OBJECT[:20] in shown.replace('\\"', '"') or REPLY_KEPT.strip()[:40] not in shown:
            failed.append(f"the request for {turn!r} does not carry the repaired reply alone")
        requests.append({"turn": turn, key: history[first:]})
    return requests, failed


def write_samples(
    run: TempRun, out: Path, name: str, resumed: bytes, requests: list[dict[str, Any]], names: list[str]
) -> None:
    """Write `<name>.resumed.jsonl` (the session as resumed, scrubbed), `<name>.resumed-requests.json`
    and `<name>.folder.txt` (`names`: the session's folder after the resumes, in order, as the caller shows them)."""
    Path(run.home, "resumed.jsonl").write_bytes(resumed)
    run.copy_scrubbed(os.path.join(run.home, "resumed.jsonl"), out / f"{name}.resumed.jsonl")
    (out / f"{name}.resumed-requests.json").write_text(
        run.scrub(json.dumps(requests, indent=1, ensure_ascii=False)) + "\n"
    )
    (out / f"{name}.folder.txt").write_text("".join(shown + "\n" for shown in names))


def main_of(tool: str, package: str, candidates: list[str], play: Callable[[str, str, Path, bool], list[str]]) -> None:
    """The command line of a tool's script: `[OUT_DIR] [--TOOL PATH] [--inspector PATH] [--keep]`;
    play the scenario and exit 1 when the repaired session was not resumed as it should be."""
    ap = arg_parser("inspector")
    ap.set_defaults(out=str(DEFAULT_OUT / "in-place"))
    ap.add_argument(f"--{tool}")
    args = ap.parse_args()
    binary = find_binary(tool, getattr(args, tool), package, candidates)
    failed = play(binary, args.inspector or "inspector", out_dir(args.out), args.keep)
    for line in failed:
        print("FAILED:", line)
    sys.exit(1 if failed else 0)
