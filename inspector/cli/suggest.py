"""What the command line says when a word typed is not one it knows: one line, naming the closest
it does know (`difflib`), for a command (`inspector scna`), a format's name (`--format
claude_code`), a kind (`--accept result-prefx`), any other closed set of values (`--to opena`) or
a file's name or extension (`session.jsn`: the closest file beside it); and its parser, whose errors are one line too, never the usage block."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from inspector.cli.help_wrapping import WholeWordsFormatter
from inspector.support.safe_text import one_line, shown_name


def did_you_mean(typed: str, known: Sequence[str]) -> str:
    """'; did you mean NAME?' naming the closest of `known` to `typed` (case and `_`/`-` aside),
    or '' when none is close."""
    from difflib import get_close_matches  # (only a word not known asks: 2 ms to import)

    folded = {name.lower().replace("_", "-"): name for name in known}
    close = get_close_matches(typed.lower().replace("_", "-"), list(folded), n=1, cutoff=0.6)
    return f"; did you mean {folded[close[0]]}?" if close else ""


def one_of(known: Sequence[str], what: str, any_case: bool = False) -> Callable[[str], str]:
    """An argparse `type` accepting only one of `known` (in any case when `any_case`), refusing
    anything else in one line that says what is closest and what there is to choose from."""
    folded = {name.lower() for name in known} if any_case else set()

    def check(value: str) -> str:
        if value in known or value.lower() in folded:
            return value
        close = did_you_mean(value, known)
        raise argparse.ArgumentTypeError(f"unknown {what} {value!r}" + (close or f" (choose from: {', '.join(known)})"))

    check.__name__ = what  # argparse names the type in some messages
    return check


def choices_shown(known: Sequence[str]) -> str:
    """The metavar showing `known` as argparse shows its choices: `{a,b,c}`."""
    return "{" + ",".join(known) + "}"


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr, saying where the help is, with exit 2,
    and whose help is wrapped between words only (`WholeWordsFormatter`, unless it is given another)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", WholeWordsFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        """Print `message` in one line and exit 2 (argparse prints the whole usage first)."""
        self.exit(2, f"{self.prog}: error: {one_line(message)} (see {self.prog} --help)\n")

    def parse_command_line(self, arguments: Sequence[str]) -> argparse.Namespace:
        """The arguments parsed; words no option takes are refused in one line by the command they
        were given to (`inspector fix`, `inspector hook install`), naming its option closest to the
        first of them and its own help."""
        args, extras = self.parse_known_args(arguments)
        if extras:
            command = self._chosen_parser(args)
            options = [option for option in command._option_string_actions if option.startswith("--")]
            close = did_you_mean(extras[0], options) if extras[0].startswith("--") else ""
            command.error(f"unrecognized arguments: {' '.join(extras)}{close}")
        return args

    def _chosen_parser(self, args: argparse.Namespace) -> argparse.ArgumentParser:
        """The parser of the innermost command word `args` chose (this one when none was)."""
        parser: argparse.ArgumentParser = self
        while True:
            words = [action for action in parser._actions if isinstance(action, argparse._SubParsersAction)]
            chosen = getattr(args, words[0].dest, None) if words else None
            if not words or chosen not in words[0].choices:
                return parser
            parser = words[0].choices[chosen]


SIBLINGS = 10_000  # names of a folder weighed for a path mistyped, at most: a huge folder is not listed whole


def missing_file_hint(path: object) -> str:
    """'; did you mean NAME?' naming the file beside `path` closest to it, when `path` names
    nothing (a mistyped name or extension: `session.jsn`); else ''."""
    if not isinstance(path, Path) or os.path.lexists(path):
        return ""
    try:
        with os.scandir(path.parent if str(path.parent) else ".") as entries:
            names = [entry.name for _, entry in zip(range(SIBLINGS), entries)]
    except (OSError, ValueError):
        return ""
    from difflib import get_close_matches

    close = get_close_matches(path.name, names, n=1, cutoff=0.75)
    return f"; did you mean {shown_name(path.with_name(close[0]))}?" if close else ""
