"""`docs/integrations.md` documents the integrations as they are: the hand-written loop runs as
written and prints what the page says, each framework's example imports what it names, and the
page lists each extra `pyproject.toml` declares for an integration."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from tests.helpers.markdown_pages import page

EXTRAS = {"langchain", "openai-agents", "pydantic-ai"}


def examples(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", page("integrations.md"), re.M | re.S)


def test_the_hand_written_loop_runs_as_written(capsys):
    *_, loop = examples("python")
    exec(compile(loop, "integrations.md", "exec"), {"__name__": "example"})
    [printed] = examples("text")
    assert capsys.readouterr().out == printed


def test_each_framework_example_imports_what_it_names():
    *frameworks, _ = examples("python")
    assert len(frameworks) == 3
    for example in frameworks:
        imports = "\n".join(line for line in example.splitlines() if line.startswith(("from ", "import ")))
        exec(compile(imports, "integrations.md", "exec"), {"__name__": "example"})


def test_the_page_gives_the_install_line_of_each_integration_s_extra():
    pyproject = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text(encoding="utf-8"))
    extras = pyproject["project"]["optional-dependencies"]
    assert set(extras) >= EXTRAS
    for extra in EXTRAS:
        assert set(extras[extra]) <= set(extras["test"]), f"the test extra lacks {extra}'s requirements"
    for extra in EXTRAS:
        assert f'`pip install "inspector[{extra}]"`' in page("integrations.md")
