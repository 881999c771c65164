"""The library's public names are declared (`inspector.__all__`), each imports, and `import
inspector` stays cheap: it loads none of the readers, detectors or writers, and touching every
public name loads neither Textual, PostgreSQL's driver, Spark nor the SQL histories' modules."""

from __future__ import annotations

import importlib
import subprocess
import sys

import inspector

PUBLIC = [
    "AppliedFix",
    "Check",
    "Chosen",
    "Finding",
    "Fix",
    "InspectorError",
    "ScanResult",
    "Session",
    "Source",
    "ToolCall",
    "ToolResult",
    "ToolSpec",
    "Turn",
    "WriteOutcome",
    "__version__",
    "apply_fixes",
    "check_reply",
    "detect_findings",
    "iter_scan",
    "load_tools_file",
    "open_source",
    "scan_file",
    "write_repaired",
]
HEAVY = ("textual", "psycopg", "pyspark", "inspector.sources.sqlite.history", "inspector.sources.postgres.history")


def test_the_public_names_are_pinned():
    assert inspector.__all__ == PUBLIC
    assert set(PUBLIC) <= set(dir(inspector))


def test_each_public_name_imports_as_its_module_defines_it():
    for name in set(PUBLIC) - {"__version__"}:
        value = getattr(inspector, name)
        assert getattr(importlib.import_module(value.__module__), name) is value, name
    namespace: dict[str, object] = {}
    exec("from inspector import *", namespace)
    assert set(PUBLIC) <= set(namespace)


def test_an_unknown_name_is_an_attribute_error():
    try:
        inspector.no_such_name  # noqa: B018
    except AttributeError as error:
        assert "no_such_name" in str(error)
    else:
        raise AssertionError("inspector.no_such_name should not exist")


def loaded_after(code: str) -> list[str]:
    """The modules loaded once `code` has run in a fresh interpreter."""
    program = f"import sys\n{code}\nprint('\\n'.join(sorted(sys.modules)))"
    return subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True).stdout.split()


def test_import_inspector_loads_nothing_of_the_package_but_itself():
    loaded = loaded_after("import inspector")
    assert [name for name in loaded if name.startswith("inspector")] == ["inspector"]
    assert [name for name in loaded if name.startswith(HEAVY)] == []


def test_the_public_names_load_no_ui_server_driver_spark_or_sql_history():
    loaded = loaded_after("import inspector\nfor name in inspector.__all__: getattr(inspector, name)")
    assert "inspector.repair.write" in loaded and "inspector.detect" in loaded
    assert [name for name in loaded if name.startswith(HEAVY)] == []
