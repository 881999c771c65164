"""The real `llm` CLI, run with the offline `echo` model of `llm-echo` to write its own `logs.db`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.helpers.sqlite_histories import FAKE_SAVE

FUNCTIONS = """
def save_memory(memory_type: str, content: str) -> str:
    "Save something the user wants remembered."
    return "saved"
"""


def run_llm(user_path: Path, *args: str) -> str:
    """Run the real `llm` CLI with its database under `user_path`; returns its output."""
    env = {**os.environ, "LLM_USER_PATH": str(user_path)}
    done = subprocess.run(
        [sys.executable, "-m", "llm", *args], env=env, capture_output=True, text=True, timeout=60, cwd=user_path
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def build_logs_db(home: Path) -> Path:
    """A real logs.db under `home`: a thread with a fake save_memory result, and one with a real
    call that ran; its path."""
    (home / "functions.py").write_text(FUNCTIONS)
    run_llm(home, "-m", "echo", json.dumps({"raw": FAKE_SAVE}))
    call = {"name": "save_memory", "arguments": {"memory_type": "fact", "content": "Likes tea."}}
    run_llm(home, "-m", "echo", "--functions", "functions.py", json.dumps({"tool_calls": [call]}))
    run_llm(home, "-c", "-m", "echo", json.dumps({"raw": "Noted, tea it is."}))
    return home / "logs.db"
