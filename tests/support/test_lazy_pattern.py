"""A pattern made by `lazy_pattern` is compiled on its first use and then behaves as the compiled
pattern does; every pattern the package's modules hold compiles, and none is compiled at import."""

from __future__ import annotations

import ast
import importlib
import pickle
import pkgutil
import re
from pathlib import Path

import pytest

import inspector
from inspector.support.lazy_pattern import lazy_pattern

TEXT = "call search(query='garden') then search(query=\"canal\")"


def test_it_finds_what_the_compiled_pattern_finds():
    source, flags = r"(?P<name>\w+)\((?P<arguments>[^)]*)\)", re.IGNORECASE
    lazy, compiled = lazy_pattern(source, flags), re.compile(source, flags)
    assert [m.groupdict() for m in lazy.finditer(TEXT)] == [m.groupdict() for m in compiled.finditer(TEXT)]
    found, expected = lazy.search(TEXT), compiled.search(TEXT)
    assert found is not None and expected is not None and found.span() == expected.span()
    assert lazy.sub(r"\g<name>()", TEXT) == compiled.sub(r"\g<name>()", TEXT)
    assert lazy.split(TEXT) == compiled.split(TEXT)
    assert (lazy.pattern, lazy.flags, lazy.groups, lazy.groupindex) == (
        compiled.pattern,
        compiled.flags,
        compiled.groups,
        compiled.groupindex,
    )
    assert lazy_pattern(rb"sk-\w+").findall(b"key sk-abc and sk-def") == [b"sk-abc", b"sk-def"]


def test_it_pickles_as_its_source_and_flags():
    copy = pickle.loads(pickle.dumps(lazy_pattern(r"garden", re.I)))
    assert copy.search("GARDEN") is not None
    used = lazy_pattern(r"canal")
    used.search("")
    assert pickle.loads(pickle.dumps(used)).fullmatch("canal") is not None


def test_a_wrong_pattern_fails_at_its_first_use_and_an_unknown_attribute_is_refused():
    wrong = lazy_pattern(r"(unclosed")
    with pytest.raises(re.error):
        wrong.search("text")
    with pytest.raises(AttributeError):
        getattr(lazy_pattern("x"), "no_such_attribute")  # noqa: B009


def test_every_pattern_the_package_holds_compiles():
    lazy_type = type(lazy_pattern(""))
    held = []
    for module in pkgutil.walk_packages(inspector.__path__, "inspector."):
        if module.name == "inspector.__main__":  # (runs the command line)
            continue
        values = vars(importlib.import_module(module.name)).values()
        held += [(module.name, value) for value in values if isinstance(value, lazy_type)]
    assert len(held) > 100
    for name, pattern in held:
        assert isinstance(pattern.pattern, (str, bytes)), name  # compiled here: raises if it cannot


class _CompiledAtImport(ast.NodeVisitor):
    """The lines where `re.compile` is called outside any function (run when the module is imported)."""

    def __init__(self) -> None:
        self.lines: list[int] = []

    def visit_FunctionDef(self, node: ast.AST) -> None:
        pass  # (its body runs when it is called)

    visit_AsyncFunctionDef = visit_Lambda = visit_FunctionDef

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if node.attr == "compile" and isinstance(node.value, ast.Name) and node.value.id == "re":
            self.lines.append(node.lineno)
        self.generic_visit(node)


def test_no_module_compiles_a_pattern_when_it_is_imported():
    compiled_at_import = []
    for path in sorted(Path(inspector.__file__).parent.rglob("*.py")):
        visitor = _CompiledAtImport()
        visitor.visit(ast.parse(path.read_text(encoding="utf-8")))
        compiled_at_import += [f"{path.name}:{line}" for line in visitor.lines]
    assert compiled_at_import == []
