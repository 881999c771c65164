"""What `inspector scan --json` reports of every committed sample (the bundled sessions, and each
entry of `sessions/` but its generators) and of the benchmarks' files, written small by their
generators (`BENCHMARKS`): each session's findings with their repairs, its problems, and the
files refused. `tests/detect/test_sample_findings.py` holds the scan to the record of them, so a
change meant only to make the scan faster or its code tidier is seen to change no finding, repair
or problem. When a change means to change them, write the record again by hand and read what
changed in `git diff`:

    python -m tests.helpers.sample_findings
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from inspector.cli.main import main
from tests.helpers.samples import ROOT, SESSIONS, TOOL_SAMPLES

RECORD = ROOT / "tests" / "detect" / "sample_findings.jsonl"  # one line a sample: its name, its report
# The benchmarks' files, each written by its generator at a small size: the record's name of it,
# and the generator's arguments.
BENCHMARKS = {
    "bench.openai.json": ["bench_scan.py", "--messages", "2000"],
    "bench.claude-code.jsonl": ["bench_claude_code.py", "--events", "2000"],
    "bench.codex.jsonl": ["bench_codex.py", "--events", "2000"],
    "bench.copilot-cli-history.json": ["bench_agents.py", "--format", "copilot-cli-history", "--events", "300"],
    "bench.aider.md": ["bench_agents.py", "--format", "aider", "--events", "300"],
}


def sample_names() -> list[str]:
    """The samples, as paths from the repository's root (a folder is scanned whole, as `scan` does)."""
    entries = [SESSIONS, *(path for path in TOOL_SAMPLES.iterdir() if path.name != "generate")]
    return sorted(str(path.relative_to(ROOT)) for path in entries)


def reported(name: str) -> dict:
    """The sessions and the refused files of the report `scan --json --no-cache` makes of the sample
    `name`, a path from the folder the caller is in (the repository's root for the committed
    samples, so the report names each file as the record does); the error it gives instead when it
    refuses the sample whole."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        main(["scan", "--json", "--no-cache", name])
    if not out.getvalue():
        return {"refused": err.getvalue().strip()}
    report = json.loads(out.getvalue())
    return {"sessions": report["sessions"], "errors": report["errors"]}


def generated(name: str, folder: Path) -> None:
    """Write the benchmark file `name` (of `BENCHMARKS`) into `folder`, by its generator."""
    script, *arguments = BENCHMARKS[name]
    command = [sys.executable, str(ROOT / "tests" / "benchmarks" / script), *arguments, "--generate-only", name]
    subprocess.run(command, cwd=folder, check=True, capture_output=True)


def recorded() -> dict[str, dict]:
    """The record: each sample's name and the report the scan made of it when it was written."""
    lines = RECORD.read_text(encoding="utf-8").splitlines()
    return {entry["sample"]: entry["report"] for entry in map(json.loads, lines)}


def write_record() -> None:
    """Scan every sample from the repository's root, under an empty home folder, and write the record."""
    os.chdir(ROOT)
    with tempfile.TemporaryDirectory(prefix="inspector-record-home-") as home:
        os.environ["HOME"] = home
        os.environ["XDG_STATE_HOME"] = str(Path(home, ".local", "state"))
        lines = [json.dumps({"sample": name, "report": reported(name)}, sort_keys=True) for name in sample_names()]
        os.chdir(home)
        for name in BENCHMARKS:
            generated(name, Path(home))
            lines.append(json.dumps({"sample": name, "report": reported(name)}, sort_keys=True))
        os.chdir(ROOT)
    RECORD.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{RECORD.relative_to(ROOT)}: {len(lines)} samples")


if __name__ == "__main__":
    write_record()
