"""The app starts light: its module and its first screen, the picker, load no reader, detector,
scanner, review screen, review file or highlighter; each is imported when first used (the review
screen when a session is opened, the scanner by the picker's scan)."""

from __future__ import annotations

import subprocess
import sys

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
    loaded = loaded_by("import inspector.tui.app")
    assert "inspector.tui.picker.found" in loaded and "inspector.tui.picker.screen" in loaded
    assert heavy(loaded) == []
