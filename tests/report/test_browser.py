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


def _load(page: Path, profile: Path, width: int = 1200) -> tuple[str, list[str]]:
    """The DOM chromium builds from `page` once loaded in a window `width` pixels wide, and the
    console messages it logged."""
    done = subprocess.run(
        [
            CHROMIUM,
            "--headless",
            f"--window-size={width},900",
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


# Measures the page once laid out and writes what it found on the root element, for --dump-dom.
MEASURE = (
    "<script>const box = document.querySelector('.rates').parentElement;"
    "document.documentElement.dataset.measured = [document.documentElement.scrollWidth, window.innerWidth,"
    " box.scrollWidth, box.clientWidth].join(' ');</script>"
)


def _samples_report_measured(tmp_path: Path, script: str) -> str:
    """The DOM of the bundled samples' HTML report in a window 900 pixels wide, `script` run in a
    copy of the page whose policy is taken out (so that it runs), which logged nothing."""
    out = tmp_path / "report.html"
    assert main(["report", "--samples", "--html", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    policy = re.search(r'<meta http-equiv="Content-Security-Policy"[^>]*>', page)
    assert policy is not None
    measured = tmp_path / "measured.html"
    measured.write_text(page.replace(policy[0], "").replace("</body>", script + "</body>"), encoding="utf-8")
    dom, console = _load(measured, tmp_path / "profile", width=900)
    assert console == []
    return dom


def test_a_rates_table_wider_than_the_window_scrolls_in_its_box_not_the_page(tmp_path):
    """The bundled samples' rates have ten kinds: in a window 900 pixels wide their table is wider than
    the page, and scrolls in its own box while the page keeps to the window (a copy of the page,
    its policy taken out so that a measuring script runs)."""
    dom = _samples_report_measured(tmp_path, MEASURE)
    found = re.search(r'data-measured="(\d+) (\d+) (\d+) (\d+)"', dom)
    assert found is not None
    page_width, window_width, table_width, box_width = map(int, found.groups())
    assert window_width == 900 and page_width <= window_width  # the page does not scroll sideways
    assert table_width > box_width  # the table is wider than its box, which scrolls


# Writes the drawn width of each bar of the findings-by-kind table, and the count beside it, for --dump-dom.
BARS = (
    "<script>document.documentElement.dataset.bars = [...document.querySelectorAll('.kinds tbody tr')]"
    ".map(row => row.cells[1].textContent + ':' + row.querySelector('svg').getBoundingClientRect().width).join(' ');"
    "</script>"
)


def test_each_kind_is_shown_once_with_a_bar_as_long_as_its_count(tmp_path):
    """The findings by kind are one table, each kind's count beside a bar drawn in proportion to it
    (the largest 300 pixels, none under 2), not a chart and then a table of the same counts."""
    dom = _samples_report_measured(tmp_path, BARS)
    summary = dom[dom.index('<section id="summary">') : dom.index("<h3>Rates")]
    assert summary.count(">malformed-arguments<") == 1 and summary.count("<svg") == summary.count("<tr>") - 1
    found = re.search(r'data-bars="([^"]+)"', dom)
    assert found is not None
    bars = [
        (int(count.replace(",", "")), float(width)) for count, width in (pair.split(":") for pair in found[1].split())
    ]
    most = bars[0][0]
    assert len(bars) >= 10 and most == max(count for count, _ in bars)
    assert [width for _, width in bars] == [max(2, round(300 * count / most)) for count, _ in bars]
