"""Finding a person's Kimi CLI sessions (`inspector.sources.discovery.kimi_cli`), on a temporary
home folder only: each session folder's `context.jsonl` (not its `wire.jsonl`), and
`KIMI_SHARE_DIR` moving the share folder."""

from __future__ import annotations

from pathlib import Path

from inspector.sources.discovery import FoundSession, discover
from tests.helpers.home_sessions import put
from tests.helpers.samples import TOOL_SAMPLES

SAMPLE = TOOL_SAMPLES / "kimi-cli.context.jsonl"


def test_each_session_s_context_file_is_found(empty_home: Path):
    session = empty_home / ".kimi" / "sessions" / "0af3" / "9b7e2c1a"
    context = put(SAMPLE, session / "context.jsonl", 1_700_000_300)
    put(SAMPLE, session / "wire.jsonl", 1_700_000_300)
    put(SAMPLE, empty_home / ".kimi" / "sessions" / "0af3" / "stray.jsonl", 1_700_000_300)
    assert discover(empty_home, {}) == [FoundSession("Kimi CLI", context, "", 1_700_000_300, context.stat().st_size)]


def test_kimi_share_dir_moves_the_folder(empty_home: Path, tmp_path: Path):
    put(SAMPLE, empty_home / ".kimi" / "sessions" / "a" / "b" / "context.jsonl", 1_700_000_000)
    moved = put(SAMPLE, tmp_path / "share" / "sessions" / "c" / "d" / "context.jsonl", 1_700_000_000)
    assert [found.path for found in discover(empty_home, {"KIMI_SHARE_DIR": str(tmp_path / "share")})] == [moved]
