"""The core must never import Textual: only `inspector.tui` may. The command line loads only what
scanning a session file needs: other storage, writers and other commands' modules wait until used."""

import os
import pkgutil
import subprocess
import sys

import inspector
from tests.helpers.samples import SESSIONS
from tests.hooks.helpers import FAKE_RESULT_END, stop_input, write_lines


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


def loaded_by_command(*arguments: str) -> set[str]:
    """The modules loaded once `inspector ARGUMENTS` has run in a fresh interpreter."""
    code = (
        "import contextlib, io, sys\n"
        "from inspector.cli.main import main\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
        "    main(sys.argv[1:])\n"
        "print('\\n'.join(sys.modules))"
    )
    run = subprocess.run([sys.executable, "-c", code, *arguments], capture_output=True, text=True, check=True)
    return set(run.stdout.splitlines())


def test_a_scan_loads_no_other_storage_writer_or_command():
    loaded = loaded_by_command("scan", str(SESSIONS / "memory-agent.openai.json"))
    assert "inspector.cli.scan_command" in loaded and "inspector.sources.formats.openai" in loaded
    assert not [name for name in loaded if name.startswith("inspector.sources.schemas.")]  # --format names them alone
    not_needed = [
        "inspector.sources.postgres.history",
        "inspector.sources.sqlite.history",
        "inspector.sources.schemas._agents_sdk_write",
        "inspector.sources.schemas._langchain_sql_write",
        "inspector.sources.schemas._llm_fork",
        "inspector.sources.schemas._rubyllm_write",
        "inspector.sources.schemas._text_write",
        "inspector.cli.spark_scan",
        "inspector.cli.fix_command",
        "inspector.cli.undo_command",
        "inspector.cli.report_command",
        "inspector.cli.open_app",
        "inspector.scan.spark.dataset",
        "inspector.repair.execute",
        "inspector.repair.write",
        "inspector.sources.discovery",
        "inspector.sources.openai_export",
        "multiprocessing",
        "zipfile",
        "tempfile",
    ]
    assert [name for name in not_needed if name in loaded] == []


def test_version_help_and_the_hook_commands_load_no_reader_detector_or_scanner():
    for arguments in (["--version"], ["--help"], ["hook", "status"], ["mcp", "--help"]):
        loaded = loaded_by_command(*arguments)
        assert "inspector.cli.main" in loaded
        heavy = ("inspector.sources", "inspector.detect", "inspector.scan", "inspector.repair", "inspector.report")
        assert sorted(name for name in loaded if name.startswith(heavy)) == [], arguments


def test_the_stop_hook_loads_the_claude_code_reader_and_its_detectors_alone(tmp_path):
    """The Stop hook runs at the end of every reply: on one that holds a fake result it imports the
    `claude-code` reader and the detectors of the kinds it checks, not every format and detector."""
    transcript = write_lines(tmp_path / "session.jsonl", FAKE_RESULT_END)
    code = (
        "import io, json, sys\n"
        "from inspector.hooks.stop_hook import run_stop_hook\n"
        f"hook_input = json.dumps({stop_input(transcript)!r}).encode()\n"
        "out = io.StringIO()\n"
        "run_stop_hook(io.BytesIO(hook_input), out, sys.stderr)\n"
        "print(json.loads(out.getvalue())['decision'])\n"
        "print('\\n'.join(sys.modules))"
    )
    environment = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CONFIG_HOME": str(tmp_path)}
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=environment)
    decision, *loaded = run.stdout.splitlines()
    assert decision == "block"
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


def test_a_scan_that_keeps_nothing_loads_none_of_the_search_index():
    loaded = loaded_by_command("scan", "--no-cache", str(SESSIONS / "memory-agent.openai.json"))
    assert "inspector.cli.scan_command" in loaded
    index = ("inspector.search.scan_cache", "inspector.search.detection_key", "sqlite3", "pickle", "hashlib", "difflib")
    assert [name for name in index if name in loaded] == []
    assert "inspector.search.scan_cache" in loaded_by_command("scan", str(SESSIONS / "memory-agent.openai.json"))
