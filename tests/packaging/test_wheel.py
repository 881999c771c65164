"""The package installs anywhere: a wheel built from the source, installed with its dependencies
into a fresh virtual environment outside the checkout, scans its own bundled samples and opens
them in the app when the person has no sessions, reading nothing from the checkout."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.samples import ROOT

pytestmark = pytest.mark.slow

# The environment as the suite was started, before each test's empty HOME: pip keeps its
# configuration and its cache under the real one.
PIP_ENVIRONMENT = {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}

# Run inside the installed venv: `inspector` with no path and no sessions of one's own, under
# Textual's Pilot; prints the screen's kind, its title and each session listed.
APP_SCRIPT = """
import asyncio
from textual.widgets import DataTable, Static
from inspector.cli.main import main
from inspector.tui.app import InspectorApp

apps = []
InspectorApp.run = lambda self, *args, **kwargs: apps.append(self)
assert main([]) == 0 and len(apps) == 1

async def shown():
    async with apps[0].run_test(size=(140, 40)) as pilot:
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        screen = pilot.app.screen
        table = screen.query_one(DataTable)
        print(type(screen).__name__)
        print(str(screen.query_one("#title", Static).visual).replace("\\n", " "))
        for index in range(table.row_count):
            print(table.get_row_at(index)[0])

asyncio.run(shown())
"""


def run(command: list[str], cwd: Path, env: dict[str, str], timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False)


def build_wheel(tmp_path: Path) -> Path:
    """A wheel built from a copy of the source (so that the build writes nothing into the checkout)."""
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    shutil.copytree(ROOT / "inspector", source / "inspector", ignore=shutil.ignore_patterns("__pycache__"))
    built = run(
        [sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "-w", str(tmp_path / "dist")],
        tmp_path,
        PIP_ENVIRONMENT,
    )
    assert built.returncode == 0, built.stderr
    (wheel,) = (tmp_path / "dist").glob("inspector-*.whl")
    return wheel


def installed_venv(tmp_path: Path, wheel: Path) -> Path:
    """A fresh virtual environment with the wheel and its dependencies installed (through pip's cache)."""
    venv = tmp_path / "venv"
    assert run([sys.executable, "-m", "venv", str(venv)], tmp_path, PIP_ENVIRONMENT).returncode == 0
    installed = run([str(venv / "bin" / "python"), "-m", "pip", "install", str(wheel)], tmp_path, PIP_ENVIRONMENT)
    assert installed.returncode == 0, installed.stderr
    return venv


def test_the_wheel_installs_in_a_fresh_venv_and_runs_on_its_own_samples(tmp_path: Path, empty_home: Path):
    venv = installed_venv(tmp_path, build_wheel(tmp_path))
    elsewhere = tmp_path / "elsewhere"  # the working folder: neither the checkout nor the venv
    elsewhere.mkdir()
    env = {**os.environ, "PATH": f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}"}
    env.pop("PYTHONPATH", None)

    where = run([str(venv / "bin" / "python"), "-c", "import inspector; print(inspector.__file__)"], elsewhere, env)
    package = Path(where.stdout.strip()).parent
    assert package.is_relative_to(venv) and not package.is_relative_to(ROOT)
    samples = sorted(path.name for path in (package / "samples").iterdir() if path.is_file())
    assert samples and (package / "samples" / "tools" / "memory-agent.json").is_file()

    scanned = run([str(venv / "bin" / "inspector"), "scan", "--samples", "--json"], elsewhere, env)
    assert (scanned.returncode, scanned.stderr) == (1, "")
    report = json.loads(scanned.stdout)
    assert report["summary"]["findings"] > 0 and report["errors"] == []
    assert sorted({Path(session["path"]).name for session in report["sessions"]}) == samples
    assert all(Path(session["path"]).is_relative_to(package / "samples") for session in report["sessions"])

    state = empty_home / ".local" / "state" / "inspector"  # where the scan kept its cache
    kept = [path for path in empty_home.rglob("*") if path.is_file() and not path.is_relative_to(state)]
    assert kept == []  # the person has no sessions: the app falls back on the samples
    opened = run([str(venv / "bin" / "python"), "-c", APP_SCRIPT], elsewhere, env, timeout=120)
    assert opened.returncode == 0, opened.stderr
    screen, title, *listed = opened.stdout.splitlines()
    assert screen == "PickerScreen"
    assert title.startswith(f"Sessions in {package / 'samples'} · ") and "These are the bundled samples" in title
    assert sorted(set(listed)) == samples  # a row per session: a file of several has several
