"""Benchmark: `inspector hook claude-code` at the end of a reply, on a 100 MB Claude Code transcript.

Run by hand from anywhere (pytest does not collect it):

    python tests/benchmarks/bench_hook.py [--megabytes 100] [--runs 11] [--keep]

It writes a transcript of `--megabytes` (the session Claude Code 2.1.332 wrote against the
scripted model, `sessions/claude-code.v2.1.332.jsonl`, over and over), then times the hook's
whole process, from its start to its exit, as Claude Code runs it (`python -m inspector.hooks
claude-code`, the hook's JSON on stdin), interleaved with `python -c pass` (the interpreter's own
start), in four cases:

- `first call`: no state yet; the last reply is plain prose (the hook reads the file's last 4 MB);
- `clean reply`: the state says where the last call stopped, and one prompt and a plain answer
  were added since (what the hook does at the end of most replies);
- `failed call`: as above, but the reply holds calls that failed, so the detectors run and find
  nothing to block (the `claude-code` reader and the hook's detectors imported);
- `fake result`: as above, but the reply opens with a fake result: the hook blocks.

It prints each case's median, min and max wall time and median CPU time, the median of the
ratio to `python -c pass` taken run by run, and the 200 ms target. It exits 0 whatever the
figures (a report, not a test) unless the hook prints what it should not.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_runner import ROOT, child_environment

SAMPLE = ROOT / "sessions" / "claude-code.v2.1.332.jsonl"
TARGET = 0.200  # seconds, process start included
SESSION = "bench-session"


def main() -> None:
    """Write the transcripts, time each case against `python -c pass`, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megabytes", type=int, default=100)
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--keep", action="store_true", help="keep the transcripts and print where")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="inspector-bench-hook-"))
    try:
        cases = write_cases(folder, args.megabytes * 10**6)
        report(folder, cases, args.runs)
    finally:
        if args.keep:
            print(f"kept: {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)


def write_cases(folder: Path, size: int) -> dict[str, tuple[Path, int | None, bool]]:
    """Each case's transcript, the offset its state says was read (None: no state), and whether it blocks."""
    lines = SAMPLE.read_bytes().splitlines(keepends=True)
    prompt, fake_reply = _event(lines, "user", str), _event(lines, "assistant", list)
    clean_reply = json.dumps({**json.loads(fake_reply), "message": {**json.loads(fake_reply)["message"], "content": [{"type": "text", "text": "The meeting moved to Thursday; bring the draft."}]}}).encode() + b"\n"  # fmt: skip
    whole = b"".join(lines)
    base = folder / "base.jsonl"
    with base.open("wb") as file:
        for _ in range(max(1, size // len(whole))):
            file.write(whole)
        file.write(prompt + clean_reply)  # the last reply: plain prose
    offset = base.stat().st_size
    failed_calls = b"".join(lines[30:44])  # a prompt, calls whose input did not parse, their errors
    added = {"clean reply": prompt + clean_reply, "failed call": failed_calls, "fake result": prompt + fake_reply}
    cases: dict[str, tuple[Path, int | None, bool]] = {"first call": (base, None, False)}
    for name, new in added.items():
        path = folder / f"{name.replace(' ', '-')}.jsonl"
        shutil.copyfile(base, path)
        with path.open("ab") as file:
            file.write(new)
        cases[name] = (path, offset, name == "fake result")
    return cases


def _event(lines: list[bytes], kind: str, content: type) -> bytes:
    """The first line of the sample that is a `kind` event whose message content is a `content`."""
    for line in lines:
        event = json.loads(line)
        if event.get("type") == kind and isinstance(event.get("message", {}).get("content"), content):
            return line
    raise SystemExit(f"no {kind} event in {SAMPLE}")


def report(folder: Path, cases: dict[str, tuple[Path, int | None, bool]], runs: int) -> None:
    """Time each case interleaved with `python -c pass` and print the table."""
    environment = {**child_environment(), "XDG_STATE_HOME": str(folder / "state"), "XDG_CONFIG_HOME": str(folder)}
    baseline = [sys.executable, "-c", "pass"]
    hook = [sys.executable, "-m", "inspector.hooks", "claude-code"]
    print(f"transcript: {cases['first call'][0].stat().st_size / 1e6:.0f} MB; {runs} runs each, after one warm-up")
    print(f"\n{'case':14}{'median s':>10}{'min':>8}{'max':>8}{'CPU s':>8}{'ratio to python -c pass':>26}")
    for name, (path, offset, blocks) in cases.items():
        stdin = json.dumps({"session_id": SESSION, "transcript_path": str(path), "hook_event_name": "Stop", "stop_hook_active": False})  # fmt: skip
        timed, ratios = [], []
        for run in range(runs + 1):
            _set_state(folder / "state", path, offset)
            seconds, cpu, out = _timed(hook, stdin, environment)
            if ('"decision": "block"' in out) != blocks:
                raise SystemExit(f"{name}: the hook printed {out!r}")
            base_seconds, _, _ = _timed(baseline, "", environment)
            if run:  # the first is the warm-up
                timed.append((seconds, cpu))
                ratios.append(seconds / base_seconds)
        walls = [seconds for seconds, _ in timed]
        print(
            f"{name:14}{statistics.median(walls):>10.3f}{min(walls):>8.3f}{max(walls):>8.3f}"
            f"{statistics.median(cpu for _, cpu in timed):>8.3f}{statistics.median(ratios):>26.2f}"
        )
    print(f"\ntarget: a median under {TARGET * 1000:.0f} ms, process start included")


def _set_state(folder: Path, transcript: Path, offset: int | None) -> None:
    """The state the hook finds in `folder`: none, or `offset` bytes of `transcript` read."""
    from inspector.hooks.hook_state import HEAD_BYTES, HookState, save_state, state_path
    from inspector.hooks.transcript_tail import head_digest

    shutil.rmtree(folder, ignore_errors=True)
    if offset is None:
        return
    with transcript.open("rb") as file:
        head = head_digest(file.read(HEAD_BYTES), offset)
    os.environ["XDG_STATE_HOME"] = str(folder)
    save_state(state_path(SESSION, None), HookState(str(transcript), offset, head))


def _timed(command: list[str], stdin: str, environment: dict[str, str]) -> tuple[float, float, str]:
    """Wall and CPU seconds of one whole process, and what it printed."""
    start = time.perf_counter()
    process = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=environment
    )
    out, err = process.communicate(stdin.encode())
    seconds = time.perf_counter() - start
    if err:
        raise SystemExit(f"{' '.join(command)}: {err.decode('utf-8', 'replace')}")
    cpu = _children_cpu()
    return seconds, cpu, out.decode()


_last_cpu = [0.0]


def _children_cpu() -> float:
    """The CPU seconds the last child reaped took (the growth of this process's children's total)."""
    usage = os.times()
    total = usage.children_user + usage.children_system
    spent, _last_cpu[0] = total - _last_cpu[0], total
    return spent


if __name__ == "__main__":
    main()
