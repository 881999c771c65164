"""Writing the files the tests read."""

from __future__ import annotations

import json
from pathlib import Path


def write_json(path: Path, value: object, indent: int | None = 2) -> Path:
    """Write `value` as JSON (indented by `indent`, on one line with None) to `path`; the path."""
    path.write_text(json.dumps(value, indent=indent), encoding="utf-8")
    return path


def written(path: Path, data: str | bytes) -> Path:
    """Write `data` (text as UTF-8, byte for byte) to `path`; the path."""
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return path
