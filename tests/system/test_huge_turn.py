"""One huge turn (tens of megabytes of text in one message): the text report's previews look at a
bounded part of it, so the scan's memory stays near the file's own size."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

MARKUP = '<tool_call>{"name":"Read","arguments":{"file_path":"notes.txt"}}</tool_call>'
PEAK = """
import resource, sys
from inspector.cli.main import main
code = main(["scan", sys.argv[1]])
print(code, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)
"""


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
