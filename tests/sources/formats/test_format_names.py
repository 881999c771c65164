"""The names `--format` takes are listed without importing a format (a command that reads no file,
or takes every finding from the scan's cache, imports none), and they are the registry's names,
in its probe order."""

from __future__ import annotations

import subprocess
import sys

from inspector.sources.formats import FORMATS, format_names


def test_the_names_are_the_registrys_in_probe_order():
    assert format_names() == list(FORMATS)


def test_listing_the_names_imports_no_format():
    probe = (
        "import sys; from inspector.sources.formats import format_names; names = format_names(); "
        "print(sorted(m for m in sys.modules if m.startswith('inspector.sources.formats.')))"
    )
    loaded = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "['inspector.sources.formats.contract']"
