"""`inspector.guard.integrations` itself imports none of the frameworks: each integration's module
imports its own, and only whoever uses it imports that module."""

from __future__ import annotations

import subprocess
import sys

FRAMEWORKS = ("langchain", "langchain_core", "langgraph", "agents", "openai", "pydantic_ai")


def test_the_package_imports_no_framework():
    program = "import sys, inspector.guard.integrations\nprint('\\n'.join(sys.modules))"
    loaded = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True).stdout.split()
    assert "inspector.guard.integrations" in loaded
    assert [name for name in loaded if name.split(".")[0] in FRAMEWORKS] == []
