"""How the command line's help is wrapped: between words only, so that a hyphenated name
(`claude-code`, `--no-cache`, `result-prefix`) is never cut at its hyphen across two lines, where
it could not be copied whole."""

from __future__ import annotations

import argparse
import textwrap


class WholeWordsFormatter(argparse.HelpFormatter):
    """argparse's help formatter, wrapping at white space only."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        return textwrap.wrap(" ".join(text.split()), width, break_on_hyphens=False)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return textwrap.fill(
            " ".join(text.split()), width, initial_indent=indent, subsequent_indent=indent, break_on_hyphens=False
        )
