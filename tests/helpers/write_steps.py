"""Watching a write's steps on disk, for the crash-safety tests: every rename, link, unlink and
fsync touching one folder, in order, each file named as a person would (a hidden temporary file
`.NAME.XXXXXXXX.tmp` as `tmp(NAME)`, the folder itself as `.`). `record_steps` spies on the steps
of a write run in this process; `run_pausing` runs `fix` in a child process that stops at its Nth step
(saying so in a log file), and kills it exactly there."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.helpers.samples import ROOT

_TEMPORARY = re.compile(r"^\.(?P<name>.+)\.[^.]+\.tmp$")  # support.atomic_files.temporary_beside's names
_WATCHED = ("replace", "rename", "link", "unlink", "fsync")
LANDINGS = ("replace", "rename", "link")  # the steps that give a file its name


@dataclass(frozen=True)
class Step:
    """One step: the call (`replace`, `link`, `unlink`, `fsync`...) and the files it names."""

    call: str
    names: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.call} {' -> '.join(self.names)}"


def _shown(path: object, folder: Path) -> str | None:
    """How a step names `path` (a path or a file descriptor): None when it is outside `folder`."""
    if isinstance(path, int):
        path = os.readlink(f"/proc/self/fd/{path}")
    if not isinstance(path, str | os.PathLike):
        return None
    where = Path(os.fspath(path)).absolute()
    if where == folder:
        return "."
    if where.parent != folder:
        return None
    temporary = _TEMPORARY.match(where.name)
    return f"tmp({temporary['name']})" if temporary else where.name


def watch_steps(folder: Path, on_step: Callable[[Step], None], patch: Callable[[str, object], None]) -> None:
    """Call `on_step` before each watched call naming a file of `folder` runs, installing each spy
    through `patch(name, spy)` (pytest's monkeypatch, or a plain `setattr` in a child process)."""
    folder = folder.absolute()
    for call in _WATCHED:
        real = getattr(os, call)

        def spy(*args: object, real: Callable[..., object] = real, call: str = call, **kwargs: object) -> object:
            names = [_shown(arg, folder) for arg in args[: 1 if call in ("unlink", "fsync") else 2]]
            if any(name is not None for name in names):
                on_step(Step(call, tuple(name or "?" for name in names)))
            return real(*args, **kwargs)

        patch(call, spy)


def record_steps(monkeypatch: pytest.MonkeyPatch, folder: Path) -> list[Step]:
    """The steps of what runs next in this process on `folder`'s files, as they happen."""
    steps: list[Step] = []
    watch_steps(folder, steps.append, lambda name, spy: monkeypatch.setattr(os, name, spy))
    return steps


def check_durable(steps: list[Step]) -> list[str]:
    """Check that every file landed durably: the temporary file flushed (fsync) before it takes its
    name, and the folder flushed after, before anything else lands; the names landed, in order."""
    landed = []
    for index, step in enumerate(steps):
        if step.call not in LANDINGS:
            continue
        source, target = step.names
        assert source.startswith("tmp("), f"{target} was given its name from {source}, not a temporary file"
        assert Step("fsync", (source,)) in steps[:index], f"{source} was not flushed before it became {target}"
        following = next((i for i in range(index + 1, len(steps)) if steps[i].call in LANDINGS), len(steps))
        assert Step("fsync", (".",)) in steps[index + 1 : following], (
            f"the folder was not flushed after {target} landed"
        )
        landed.append(target)
    return landed


# A `fix` in a child process: argv is the folder to watch, the step to stop at (0: none), the log
# file, then `fix`'s arguments. Each step is logged as it comes; at the one to stop at, `paused`.
PAUSING_FIX = """
import os, sys, time
from pathlib import Path
from inspector.cli.main import main
from tests.helpers.write_steps import watch_steps

folder, stop, log = Path(sys.argv[1]), int(sys.argv[2]), open(sys.argv[3], "a", buffering=1)
count = 0

def on_step(step):
    global count
    count += 1
    log.write(f"{step}\\n")
    if count == stop:
        log.write("paused\\n")
        time.sleep(600)

watch_steps(folder, on_step, lambda name, spy: setattr(os, name, spy))
sys.exit(main(sys.argv[4:]))
"""


def run_pausing(folder: Path, stop: int, arguments: list[str]) -> list[str]:
    """Run `inspector ARGUMENTS` (a `fix`) in a child process stopped before its `stop`th step on
    `folder`'s files (0: never, it runs to its end), kill it there with SIGKILL, and return the steps
    it logged (ending with `paused` when it stopped)."""
    log = folder.parent / f"{folder.name}.steps"
    child = subprocess.Popen(
        [sys.executable, "-c", PAUSING_FIX, str(folder), str(stop), str(log), *arguments],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    if not stop:
        child.wait(timeout=60)
    deadline = time.monotonic() + 60
    while stop and child.poll() is None and not (log.exists() and log.read_text().endswith("paused\n")):
        assert time.monotonic() < deadline, f"the fix never reached step {stop}"
        time.sleep(0.01)
    child.kill()
    child.wait(timeout=30)
    return log.read_text().splitlines() if log.exists() else []
