"""Every file format meets the contract (`inspector/sources/formats/contract.py`): each public module
of `inspector.sources.formats` ends with one `FileFormat` built from its own functions, registered
once under the name the user types (the module's file name with `-` for `_`), depending on no
other format; a read-only format is one with no writer, and `fix -o` refuses it in its own format
with one line."""

import ast
import importlib
import pkgutil
from pathlib import Path

import pytest

from inspector.cli.main import main
from inspector.sources import FORMATS, open_source
from inspector.sources import formats as registry
from inspector.sources.formats.contract import FileFormat
from tests.helpers.samples import FILE_SUFFIXES, ROOT

FORMAT_MODULES = sorted(
    info.name
    for info in pkgutil.iter_modules(registry.__path__)
    if not info.name.startswith("_") and info.name != "contract"
)
READ_ONLY = {
    "litellm",
    "langfuse",
    "langsmith",
    "smolagents",
    "dspy",
    "otel",
    "inspect-ai",
    "cline-task",
    "mini-swe-agent",
    "aider",
    "aider-llm-history",
    "swe-agent",
    "amp",
    "kimi-cli",
    "kimi-code",
    "openhands",
}


def _samples_by_format() -> dict[str, list[Path]]:
    """The committed samples (bundled and written by the real tools) of each file format."""
    found: dict[str, list[Path]] = {}
    conversations = sorted((ROOT / "sessions").glob("*/base_state.json"))  # OpenHands keeps a conversation as a folder
    conversations += sorted((ROOT / "sessions").glob("*/session/*/ses_*.json"))  # OpenCode's older JSON storage
    for path in (
        sorted((ROOT / "inspector" / "samples").iterdir()) + sorted((ROOT / "sessions").iterdir()) + conversations
    ):
        if path.is_file() and path.suffix in (*FILE_SUFFIXES, ".eval"):
            found.setdefault(open_source(path).format, []).append(path)
    return found


SAMPLES = _samples_by_format()


def test_every_format_module_is_registered_once_under_the_name_the_user_types():
    assert len(FORMAT_MODULES) == 41
    assert sorted(FORMATS) == sorted(name.replace("_", "-") for name in FORMAT_MODULES)
    assert len(registry.SPECIFIC) + 1 == len(FORMATS)  # no two formats share a name
    assert list(FORMATS.values()) == [*registry.SPECIFIC, registry.GENERAL]


@pytest.mark.parametrize("module_name", FORMAT_MODULES)
def test_a_format_module_ends_with_one_file_format_built_from_its_own_functions(module_name):
    module = importlib.import_module(f"inspector.sources.formats.{module_name}")
    file_format = module.FORMAT
    assert isinstance(file_format, FileFormat)
    assert FORMATS[module_name.replace("_", "-")] is file_format
    assert file_format.name == module_name.replace("_", "-")
    writers = [file_format.write, file_format.write_records]
    own = [file_format.claims, file_format.read] + [writer for writer in writers if writer is not None]
    assert all(callable(function) and function.__module__ == module.__name__ for function in own)
    assert not hasattr(module, "WRITABLE")
    last = ast.parse(Path(module.__file__).read_text(encoding="utf-8")).body[-1]
    assert isinstance(last, ast.Assign) and [target.id for target in last.targets] == ["FORMAT"]


HELPERS = sorted(info.name for info in pkgutil.iter_modules(registry.__path__) if info.name.startswith("_"))


def _owner(module_name: str) -> str | None:
    """The format a module serves: itself, or for a private helper `_<format>_*.py` that format."""
    if not module_name.startswith("_"):
        return module_name
    owners = [name for name in FORMAT_MODULES if module_name.startswith(f"_{name}_")]
    return max(owners, key=len) if owners else None


@pytest.mark.parametrize("module_name", FORMAT_MODULES + HELPERS)
def test_a_format_and_its_helpers_depend_on_no_other_format(module_name):
    """Shared message shapes live in `inspector.sources.messages`; a format (and each of its
    private helpers, named `_<format>_*.py`) imports only those and its own helpers."""
    owner = _owner(module_name)
    assert owner is not None, f"{module_name} serves no format named in its file name"
    tree = ast.parse((Path(registry.__file__).parent / f"{module_name}.py").read_text(encoding="utf-8"))
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
    imported |= {
        f"{node.module}.{alias.name}"
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "inspector.sources.formats"
        for alias in node.names
    }
    others = {f"inspector.sources.formats.{name}" for name in FORMAT_MODULES if name != owner}
    helpers = {name.rsplit(".", 1)[1] for name in imported if name.startswith("inspector.sources.formats._")}
    assert not imported & others
    assert {helper for helper in helpers if _owner(helper) != owner} == set()


def test_the_read_only_formats_are_those_without_a_writer():
    assert {name for name, file_format in FORMATS.items() if not file_format.writable} == READ_ONLY


@pytest.mark.parametrize("name", sorted(READ_ONLY))
def test_a_read_only_format_is_refused_for_fix_in_its_own_format_with_one_line(name, tmp_path, capsys):
    assert SAMPLES.get(name), f"no committed sample of the {name} format"
    for path in SAMPLES[name]:
        out = tmp_path / f"fixed-{path.name}"
        assert main(["fix", str(path), "--accept", "all", "-o", str(out)]) == 2
        assert capsys.readouterr().err == (
            f"inspector: error: {path}: the {name} format cannot be written as a copy "
            "(it is read-only: write a repaired copy with -o OUT --to openai); nothing was written\n"
        )
        assert list(tmp_path.iterdir()) == []


def test_every_format_has_a_committed_sample():
    assert sorted(SAMPLES) == sorted(FORMATS)
