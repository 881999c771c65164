"""The steps the hook generators of Gemini CLI, Qwen Code, Codex and Copilot CLI share: installing the
inspector's hook with `inspector hook install AGENT` (`install_hook`), and keeping of one run
(`block` or `clean`) the session file the agent wrote (temp paths scrubbed) and the evidence
(`<stem>-<run>.requests.json`: the agent's exit code, the journal the real call wrote, each
request the mock model received), the hook's interpreter named by a placeholder in both.

Standard library only."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from harness import TempRun

PYTHON_PLACEHOLDER = "/path/to/python"  # the interpreter named in the hook's command, in the evidence


def install_hook(python: str, agent: str, env: dict[str, str], cwd: str) -> str:
    """`inspector hook install AGENT` run by `python` in the temporary home `env` names; what it said."""
    done = subprocess.run(
        [python, "-m", "inspector", "hook", "install", agent],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
    )
    if done.returncode != 0:
        sys.exit(f"inspector hook install failed: {done.stderr}")
    return done.stdout


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
