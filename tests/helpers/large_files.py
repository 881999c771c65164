"""Session files larger than the start the app reads first (`file_start.START_BYTES`), made from
the bundled samples in a temporary folder."""

from __future__ import annotations

import json
from pathlib import Path

from inspector.sources.files.file_start import START_BYTES
from tests.helpers.samples import SESSIONS


def large_openai(folder: Path, indent: int | None = 2) -> Path:
    """The analyst sample (its first finding a malformed-arguments at turn 2) with its messages
    repeated past twice START_BYTES, its tools kept before them."""
    document = json.loads((SESSIONS / "analyst-agent.openai.json").read_text(encoding="utf-8"))
    document["messages"] *= START_BYTES // 1500
    path = folder / "large.openai.json"
    path.write_text(json.dumps(document, indent=indent, ensure_ascii=False), encoding="utf-8")
    assert path.stat().st_size > 2 * START_BYTES
    return path
