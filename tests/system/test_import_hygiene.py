"""The core must never import Textual: only `inspector.tui` may. The command line loads only what
scanning a session file needs: other storage, writers and other commands' modules wait until used."""

import pkgutil
import subprocess
import sys

import inspector


def test_core_modules_do_not_import_textual():
    names = [
        m.name
        for m in pkgutil.walk_packages(inspector.__path__, "inspector.")
        if not m.name.startswith("inspector.tui") and m.name != "inspector.__main__"
    ]
    assert "inspector.cli.main" in names and "inspector.detect.result_prefix" in names
    code = (
        "import importlib, sys\n"
        + "".join(f"importlib.import_module({n!r})\n" for n in names)
        + "print(sorted(m for m in sys.modules if m.split('.')[0] == 'textual'))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_the_command_line_loads_no_other_storage_writer_or_command():
    code = "import sys, inspector.cli.main\nprint('\\n'.join(sys.modules))"
    loaded = set(
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.splitlines()
    )
    assert "inspector.cli.main" in loaded and "inspector.sources.formats" in loaded
    assert "inspector.sources.schemas.rubyllm" in loaded  # the schemas' names, for --format; not their writers
    not_needed = [
        "inspector.sources.postgres.history",
        "inspector.sources.sqlite.history",
        "inspector.sources.schemas._agents_sdk_write",
        "inspector.sources.schemas._langchain_sql_write",
        "inspector.sources.schemas._llm_fork",
        "inspector.sources.schemas._rubyllm_write",
        "inspector.sources.schemas._text_write",
        "inspector.cli.spark_scan",
        "inspector.scan.spark.dataset",
        "inspector.repair.execute",
        "inspector.sources.discovery",
        "inspector.sources.openai_export",
        "multiprocessing",
        "zipfile",
        "tempfile",
    ]
    assert [name for name in not_needed if name in loaded] == []
