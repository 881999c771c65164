"""Handing a text to the person's own editor (`$VISUAL`, else `$EDITOR`, else `vi`) and reading it
back, for long texts and arguments in the fix editor.

The text goes into a file of its own in a private temporary folder (deleted afterwards, whatever
happens); the editor runs on it without a shell (the variable is split as a shell would split it,
so `code --wait` works) and its new text is read back. Nothing the model wrote goes on the command
line: only the file's name. `hand_over` gives the terminal to the editor through Textual's
`App.suspend`.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TypeVar

from textual.app import App, SuspendNotSupported

FALLBACK = "vi"
T = TypeVar("T")


class EditorFailed(Exception):
    """The editor could not be run, or gave nothing usable back: one line saying why (the text is
    unchanged)."""


def editor_command(environ: Mapping[str, str] = os.environ) -> list[str]:
    """The editor to run, split into its arguments: `$VISUAL`, else `$EDITOR`, else `vi`; raises
    `EditorFailed` when the variable cannot be split or names no program that can be found."""
    variable = next((name for name in ("VISUAL", "EDITOR") if environ.get(name, "").strip()), None)
    try:
        argv = shlex.split(environ[variable]) if variable else [FALLBACK]
    except ValueError as error:
        raise EditorFailed(f"${variable} cannot be read ({error}): the text is unchanged") from None
    if shutil.which(argv[0]) is None:
        named = f"${variable} names {argv[0]!r}" if variable else f"No {FALLBACK} found"
        raise EditorFailed(f"{named}, which cannot be run: set $VISUAL or $EDITOR to your editor")
    return argv


def edit_externally(text: str, suffix: str, argv: list[str]) -> str:
    """Write `text` to a temporary file named `*suffix`, run `argv` on it and return the file's text
    afterwards (a final line ending the editor added is dropped). Raises `EditorFailed` when the
    editor fails, exits with an error status or leaves no UTF-8 text; the file is deleted either way."""
    try:
        with tempfile.TemporaryDirectory(prefix="inspector-edit-") as folder:
            path = Path(folder) / f"edit{suffix}"
            path.write_text(text, encoding="utf-8")
            _run(argv, path)
            if not path.is_file():
                raise EditorFailed("The editor left no file behind: the text is unchanged")
            edited = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise EditorFailed("The edited file is not UTF-8 text: the text is unchanged") from None
    except OSError as error:
        raise EditorFailed(f"The file could not be edited ({error.strerror or error}): the text is unchanged") from None
    return edited[:-1] if edited.endswith("\n") and not text.endswith("\n") else edited


def _run(argv: list[str], path: Path) -> None:
    """Run the editor on `path`, in the terminal; `EditorFailed` when it fails."""
    try:
        status = subprocess.run([*argv, str(path)], check=False).returncode
    except OSError as error:
        raise EditorFailed(f"{argv[0]!r} cannot be run ({error.strerror or error}): the text is unchanged") from None
    if status != 0:
        raise EditorFailed(f"The editor exited with status {status}: the text is unchanged")


def hand_over(app: App[object], run: Callable[[], T]) -> T:
    """`run()` with the terminal handed over (the app suspended meanwhile). An app without a
    terminal to give (the headless one of tests) runs it as it is; one that cannot suspend (in a
    browser) raises `EditorFailed`. An `EditorFailed` that `run` raises is raised once the app is
    back (Textual's `suspend` does not resume the app when its block raises)."""
    try:
        with app.suspend():
            outcome = _caught(run)
    except SuspendNotSupported:
        if not app.is_headless:
            raise EditorFailed("This terminal cannot be handed to an editor: edit the text here") from None
        outcome = _caught(run)
    if isinstance(outcome, EditorFailed):
        raise outcome
    return outcome


def _caught(run: Callable[[], T]) -> T | EditorFailed:
    """What `run()` returns, or the `EditorFailed` it raised (an interruption is one too)."""
    try:
        return run()
    except EditorFailed as failure:
        return failure
    except KeyboardInterrupt:
        return EditorFailed("Interrupted: the text is unchanged")
