"""What a hook generator keeps of one run (`block` or `clean`) of an agent with the inspector's
hook installed: the session file the agent wrote (temp paths scrubbed) and the evidence
(`<stem>-<run>.requests.json`: the agent's exit code, the journal the real call wrote, each
request the mock model received), the hook's interpreter named by a placeholder in both.

Standard library only."""

from __future__ import annotations

import json
import os
from pathlib import Path

from harness import TempRun

PYTHON_PLACEHOLDER = "/path/to/python"  # the interpreter named in the hook's command, in the evidence


def save_evidence(
    run: TempRun, out: Path, stem: str, run_name: str, agent: str, exit_code: int, requests: list, session: str
) -> None:
    """Copy the `session` file the agent wrote and write the run's evidence into `out`."""
    run.copy_scrubbed(session, out / f"{stem}-{run_name}.jsonl")
    journal = Path(run.work, "journal.txt")
    evidence = {
        f"{agent}_exit": exit_code,
        "journal_written": journal.read_text() if journal.exists() else None,
        "requests": requests,
    }
    (out / f"{stem}-{run_name}.requests.json").write_text(
        run.scrub(json.dumps(evidence, indent=1, ensure_ascii=False)) + "\n"
    )


def interpreter_hidden(out: Path, stem: str, run_name: str, python: str) -> None:
    """The hook's interpreter, named in the run's files, as `PYTHON_PLACEHOLDER`."""
    for name in (f"{stem}-{run_name}.jsonl", f"{stem}-{run_name}.requests.json"):
        path = out / name
        path.write_text(path.read_text().replace(os.path.abspath(python), PYTHON_PLACEHOLDER))
