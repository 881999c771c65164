"""Reading the documentation's pages as the tests check them: a page, one of its sections, and the
rows of one of its tables."""

from __future__ import annotations

import re

from tests.helpers.samples import DOCS


def page(name: str) -> str:
    """The text of `docs/<name>`."""
    return (DOCS / name).read_text(encoding="utf-8")


def section(text: str, heading: str) -> str:
    """The section under the level-2 `heading` (`## heading`), up to the next level-2 heading."""
    parts = text.split(f"\n## {heading}\n")
    assert len(parts) == 2, f"one section '## {heading}' expected"
    return parts[1].split("\n## ")[0]


def table(text: str, header: str) -> list[list[str]]:
    """The rows of the one table whose header line starts with `header` (its cells stripped; a
    `\\|` inside a cell is a `|` of the cell's text)."""
    (rows,) = tables(text, header)
    return rows


def tables(text: str, header: str) -> list[list[list[str]]]:
    """The rows of each table whose header line starts with `header`, as `table` gives them."""
    found = []
    for part in text.split(f"\n{header}")[1:]:
        lines = (header + part).split("\n\n")[0].splitlines()
        assert set(lines[1]) <= set("|-: "), "a header line, then its separator"
        found.append([[cell.strip() for cell in re.split(r"(?<!\\)\|", line)[1:-1]] for line in lines[2:]])
    return found


def code_names(cell: str) -> list[str]:
    """The names a cell writes in backticks."""
    return re.findall(r"`([^`]+)`", cell)
