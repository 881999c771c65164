"""The app starts light: its module and its first screen, the picker, load no reader, detector,
scanner, review screen, review file or highlighter; each is imported when first used (the review
screen when a session is opened, the scanner by the picker's scan). A session file opened straight
away is reviewed without the picker or every agent's places. The review screen in turn leaves what
only a key opens (the fix editor, the raw record's view, the file watcher of `--follow`)."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.helpers.samples import SESSIONS

NOT_AT_START = (
    "inspector.tui.review.screen",
    "inspector.tui.help",
    "inspector.review.review",
    "inspector.review.review_file",
    "inspector.scan.scanner",
    "inspector.detect",
    "inspector.repair",
    "inspector.view",
    "inspector.sources.formats",
    "inspector.sources.files",
    "inspector.sources.schemas",
    "inspector.sources.sqlite",
    "inspector.sources.discovery",
    "pygments",
    "json5",
    "sqlite_utils",
    "msgspec",
    "jsonschema",
)


def loaded_by(code: str) -> set[str]:
    """The modules loaded once `code` has run in a fresh interpreter."""
    program = f"import sys\n{code}\nprint('\\n'.join(sys.modules))"
    run = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True)
    return set(run.stdout.splitlines())


def heavy(loaded: set[str]) -> list[str]:
    """The modules of NOT_AT_START, or of their packages, among `loaded`."""
    return sorted(
        name for name in loaded if name in NOT_AT_START or name.startswith(tuple(f"{n}." for n in NOT_AT_START))
    )


def test_the_app_and_its_picker_import_no_reader_detector_or_review_screen():
    loaded = loaded_by("import inspector.tui.app, inspector.tui.picker.found, inspector.tui.picker.screen")
    assert "inspector.tui.picker.table" in loaded
    assert heavy(loaded) == []


def test_the_review_screen_leaves_its_editors_and_the_file_watcher_until_they_are_asked_for():
    loaded = loaded_by("import inspector.tui.review.screen")
    assert "inspector.tui.review.turn_list" in loaded and "inspector.tui.review.detail" in loaded
    later = ("inspector.tui.review.editor", "inspector.tui.review.raw_view", "inspector.tui.review.following")
    assert [name for name in (*later, "watchfiles", "textual.widgets._text_area") if name in loaded] == []


def test_the_app_opened_on_a_session_file_reviews_it_without_the_lists_or_every_agent_s_places(tmp_path):
    """A session file opened straight away is reviewed without the picker's modules or discovery's
    (every agent's places): the picker is imported when a list is shown, discovery once the review
    is ready (to look for the session's subagents) or an export is written."""
    session = tmp_path / "memory-agent.openai.json"
    session.write_bytes((SESSIONS / "memory-agent.openai.json").read_bytes())
    code = (
        "import asyncio, sys\n"
        "from pathlib import Path\n"
        "from inspector.tui.app import InspectorApp\n"
        "from inspector.tui.review.screen import ReviewScreen\n"
        "at_ready = []\n"
        "ready = InspectorApp.review_ready\n"
        "def review_ready(app, path):\n"
        "    at_ready.extend(sys.modules)\n"
        "    ready(app, path)\n"
        "InspectorApp.review_ready = review_ready\n"
        "async def review():\n"
        "    app = InspectorApp(Path(sys.argv[1]))\n"
        "    async with app.run_test(size=(120, 40)) as pilot:\n"
        "        while not at_ready:\n"
        "            await pilot.pause(0.01)\n"
        "        await app.workers.wait_for_complete()\n"
        "        assert isinstance(app.screen, ReviewScreen) and app.screen.review is not None\n"
        "asyncio.run(review())\n"
        "print('\\n'.join(at_ready))\n"
        "print('-')\n"
        "print('\\n'.join(sys.modules))"
    )
    environment = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CONFIG_HOME": str(tmp_path)}
    run = subprocess.run(
        [sys.executable, "-c", code, str(session)], capture_output=True, text=True, check=True, env=environment
    )
    lines = run.stdout.splitlines()
    at_ready, after = lines[: lines.index("-")], lines[lines.index("-") + 1 :]
    assert "inspector.tui.review.screen" in at_ready and "inspector.detect.result_prefix" in at_ready
    assert [name for name in at_ready if name.startswith(("inspector.tui.picker", "inspector.sources.discovery"))] == []
    assert "inspector.sources.discovery" in after and "inspector.tui.picker.screen" not in after
