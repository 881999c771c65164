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


def test_the_hooks_reader_and_detectors_load_no_other_format_or_detector():
    """The Stop hook, when a reply may hold a finding, imports the `claude-code` reader and the
    detectors of the kinds it checks: neither every format nor every detector."""
    code = (
        "import sys\n"
        "from inspector.hooks.hook_settings import HOOK_KINDS\n"
        "from inspector.hooks.reply_findings import detectors_of\n"
        "print(','.join(detector.kind for detector in detectors_of(HOOK_KINDS)))\n"
        "print('\\n'.join(sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    kinds, *loaded = out.splitlines()
    assert kinds == "result-prefix,fake-result-block,tool-markup,claimed-success,narrated-action"
    assert "inspector.sources.formats.claude_code" in loaded and "inspector.detect.fake_result_block" in loaded
    not_needed = [
        "inspector.sources.formats.codex",
        "inspector.sources.formats.openai",
        "inspector.sources.files.session_file",
        "inspector.sources.schemas",
        "inspector.detect.orphan_call",
        "inspector.detect.secret",
        "inspector.detect.schema_check",
    ]
    assert [name for name in not_needed if name in loaded] == []
