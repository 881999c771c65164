"""One huge turn (tens of megabytes of text in one message): the text report's previews look at a
bounded part of it, so the scan's memory stays near the file's own size."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

MARKUP = '<tool_call>{"name":"Read","arguments":{"file_path":"notes.txt"}}</tool_call>'
# the scan's exit code and its peak memory in KiB (VmHWM: reset by exec, unlike getrusage's maxrss,
# which a child keeps from the process it was forked from)
PEAK = """
import sys
from inspector.cli.main import main
code = main(["scan", sys.argv[1]])
with open("/proc/self/status") as status:
    peak = next(line.split()[1] for line in status if line.startswith("VmHWM:"))
print(code, peak, file=sys.stderr)
"""


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="peak memory is read from /proc")
def test_the_previews_of_a_20_mb_turn_stay_bounded(tmp_path: Path):
    text = f"Let me read it. {MARKUP} " + "word " * 4_000_000  # 20 MB, 4 million words
    path = tmp_path / "huge.json"
    path.write_text(
        json.dumps({"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": text}]})
    )
    run = subprocess.run([sys.executable, "-c", PEAK, str(path)], capture_output=True, text=True, timeout=300)
    assert "      text:   Let me read it. word word word" in run.stdout  # the preview is there, cut off
    assert run.stdout.count("…\n") >= 1
    code, peak_kib = run.stderr.split()[-2:]
    assert code == "1"
    assert int(peak_kib) < 200 * 1024, f"peak {int(peak_kib) // 1024} MiB for a 20 MB turn"
