"""Running `inspector search` as a person does and reading what it printed."""

from __future__ import annotations

import json
from typing import Any

import pytest

from inspector.cli.main import main


def searched(capsys: pytest.CaptureFixture[str], *arguments: str) -> tuple[int, str, str]:
    """`inspector search ARGUMENTS...`: its exit code, standard output and standard error."""
    code = main(["search", *arguments])
    out, err = capsys.readouterr()
    return code, out, err


def searched_json(capsys: pytest.CaptureFixture[str], *arguments: str) -> dict[str, Any]:
    """The JSON document `inspector search ARGUMENTS... --json` printed."""
    code, out, err = searched(capsys, *arguments, "--json")
    assert code in (0, 1), err
    document: dict[str, Any] = json.loads(out)
    return document


def hit_places(document: dict[str, Any]) -> set[tuple[str, int, str]]:
    """Each hit's file name, turn and role."""
    return {(hit["path"].rsplit("/", 1)[-1], hit["turn"], hit["role"]) for hit in document["hits"]}
