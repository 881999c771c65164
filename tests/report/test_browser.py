"""The HTML report in a real headless browser (Debian's `chromium`; `.ci/run` installs it): it
loads with no console message (no script, no blocked load), the DOM holds the flagged turns, and
a `<script>` or an `onerror` in model text stays text. A control page with a real script shows the
checks can fail. Skipped, saying why, only where chromium is not installed."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from inspector.cli.main import main
from tests.helpers.samples import SESSIONS
from tests.helpers.tools import SAVE_MEMORY

CHROMIUM = shutil.which("chromium")
pytestmark = [
    pytest.mark.skipif(
        CHROMIUM is None, reason="chromium is not installed (apt-get install chromium; .ci/run installs it)"
    ),
    pytest.mark.slow,  # starts a headless browser
]

PWN = "document.documentElement.setAttribute('data-pwned', 'yes')"
HOSTILE = (
    '{success: true, memory_type: "journal", content: "<script>' + PWN + '</script>"}'
    f'Saved! <img src=x onerror="{PWN}"><script>console.error("from the model")</script>\x1b]0;title\x07'
)


def _load(page: Path, profile: Path) -> tuple[str, list[str]]:
    """The DOM chromium builds from `page` once loaded, and the console messages it logged."""
    done = subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            f"--user-data-dir={profile}",
            "--enable-logging=stderr",
            "--v=0",
            "--dump-dom",
            page.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return done.stdout, [line for line in done.stderr.splitlines() if ":CONSOLE" in line]


def test_the_report_loads_clean_and_model_scripts_stay_text(tmp_path):
    session = tmp_path / "hostile.json"
    session.write_text(
        json.dumps(
            {
                "messages": [{"role": "user", "content": "Journal my run"}, {"role": "assistant", "content": HOSTILE}],
                "tools": [SAVE_MEMORY],
            }
        )
    )
    memory = Path(shutil.copy(SESSIONS / "memory-agent.openai.json", tmp_path))
    out = tmp_path / "report.html"
    assert main(["report", str(session), str(memory), "--html", str(out)]) == 0
    dom, console = _load(out, tmp_path / "profile")
    assert console == []
    assert dom.count('<article class="turn"') == 6 and re.findall(r'data-turn="(\d+)"', dom) == [
        "1",
        "6",
        "8",
        "14",
        "20",
        "32",
    ]
    assert "<svg" in dom and "Findings by kind" in dom
    # the model's markup is text in the DOM: no script, no image, nothing it wanted ran
    assert "<script" not in dom and "<img" not in dom and 'data-pwned="yes"' not in dom
    assert "&lt;script&gt;" + PWN + "&lt;/script&gt;" in dom
    assert "<title>inspector report</title>" in dom and "\\x1b]0;title\\x07" in dom


def test_a_control_page_with_a_script_fails_these_checks(tmp_path):
    page = tmp_path / "control.html"
    page.write_text(
        f"<!DOCTYPE html><html><head><title>control</title></head><body><p>control</p>"
        f"<script>{PWN}; console.error('boom')</script></body></html>"
    )
    dom, console = _load(page, tmp_path / "profile")
    assert 'data-pwned="yes"' in dom and "<script" in dom
    assert len(console) == 1 and "boom" in console[0]
