"""Running the Claude Code hook as Claude Code does: its input as JSON on stdin, its decision read
from stdout, on transcripts cut from the sample Claude Code 2.1.332 wrote against the scripted
model (its replies, in order: a fake result at line 18, leaked call markup at line 28, ...)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from inspector.cli.main import main
from tests.helpers.samples import TOOL_SAMPLES

SAMPLE = TOOL_SAMPLES / "claude-code.v2.1.332.jsonl"
SAMPLE_LINES = SAMPLE.read_bytes().splitlines(keepends=True)
FAKE_RESULT_END = 18  # the lines up to the reply that opens with a fake result
MARKUP_END = 28  # ... and up to the reply that prints a Hermes call


def write_lines(path: Path, end: int, start: int = 0) -> Path:
    """Write (or add, with `start`) the sample's lines from `start` to `end` to `path`."""
    with path.open("ab" if start else "wb") as file:
        file.write(b"".join(SAMPLE_LINES[start:end]))
    return path


def stop_input(transcript: Path, active: bool = False, **extra: Any) -> dict[str, Any]:
    """The input Claude Code gives a Stop hook."""
    return {
        "session_id": "dec5de36-feea-41b0-9c4b-a6998d3ba838",
        "transcript_path": str(transcript),
        "cwd": str(transcript.parent),
        "permission_mode": "default",
        "hook_event_name": "Stop",
        "stop_hook_active": active,
        **extra,
    }


def run_hook(monkeypatch, capsys, hook_input: Any) -> tuple[int, dict[str, Any] | None, str]:
    """`inspector hook claude-code` with `hook_input` on stdin (JSON unless bytes): its exit code,
    its decision (None when it printed nothing) and its stderr."""
    data = hook_input if isinstance(hook_input, bytes) else json.dumps(hook_input).encode()
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data)))
    code = main(["hook", "claude-code"])
    out, err = capsys.readouterr()
    return code, json.loads(out) if out.strip() else None, err
