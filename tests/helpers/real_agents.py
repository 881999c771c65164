"""Running a real agent's generator from a test: the agent's binary where the generators install
it (its variable first, then `run_all.sh`'s npm folder), and the generator run in a temporary home."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def agent_binary(variable: str, installed: str) -> str | None:
    """The binary `$variable` names, else `installed` (a path inside `run_all.sh`'s npm tools
    folder) when it exists; None when neither does. Look before a test's empty home hides the
    person's cache."""
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    tools = Path(os.environ.get("NPM_TOOLS") or cache / "inspector-generate" / "npm-tools")
    candidates = [os.environ.get(variable), str(tools / installed)]
    return next((c for c in candidates if c and os.path.exists(c)), None)


def run_generator(generator: Path, folder: Path, option: str, binary: str) -> None:
    """Run `generator` writing into `folder` (also its home), the agent's binary given as `option`,
    the hook run with this interpreter; fail the test with its output when it fails."""
    done = subprocess.run(
        [sys.executable, str(generator), str(folder), option, binary, "--python", sys.executable],
        capture_output=True,
        text=True,
        timeout=500,
        env={**os.environ, "HOME": str(folder)},
    )
    assert done.returncode == 0, done.stdout + done.stderr
