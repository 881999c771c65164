"""The core must never import Textual: only `inspector.tui` may."""

import pkgutil
import subprocess
import sys

import inspector


def test_core_modules_do_not_import_textual():
    names = [m.name for m in pkgutil.walk_packages(inspector.__path__, "inspector.")
             if not m.name.startswith("inspector.tui") and m.name != "inspector.__main__"]
    assert "inspector.cli.main" in names and "inspector.detect.result_prefix" in names
    code = "import importlib, sys\n" + "".join(f"importlib.import_module({n!r})\n" for n in names) + \
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'textual'))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
