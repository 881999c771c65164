"""The line splitter of long texts cuts a long text as `str.splitlines` does, a piece at a time."""

from __future__ import annotations

import random

import pytest

from inspector.support import text_lines as text_lines_module
from inspector.support.text_lines import text_lines

ENDINGS = ["a", "b", " ", "\n", "\r", "\r\n", "\x0b", "\x0c", "\x1c", "\x85", "\u2028", "\u2029"]


@pytest.mark.parametrize("keepends", [False, True])
def test_lines_are_those_splitlines_gives_whatever_the_pieces(keepends: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(text_lines_module, "PIECE", 5)
    rng = random.Random(7)
    for _ in range(2000):
        text = "".join(rng.choice(ENDINGS) for _ in range(rng.randint(0, 80)))
        assert list(text_lines(text, keepends)) == text.splitlines(keepends)
