"""What the agent-framework format tests share (AG2, AutoGen, smolagents, Haystack, DSPy): the
samples the real libraries wrote, which formats claim a file, a byte-faithful round trip
and a fix whose output re-scans clean."""

from __future__ import annotations

from pathlib import Path

from inspector.cli.main import main
from inspector.sources import load_sessions, render_sessions
from inspector.sources.files.document import read_document
from inspector.sources.formats import SPECIFIC, format_of
from tests.helpers.samples import FILE_SUFFIXES, SESSIONS, TOOL_SAMPLES


def specific_claims(path: Path) -> list[str]:
    """The specific formats that claim the file."""
    document = read_document(path)
    return [file_format.name for file_format in SPECIFIC if file_format.claims(document)]


def format_read(path: Path) -> str:
    """The format that reads the file when none is named."""
    return format_of(read_document(path)).name


def other_samples(own_format: str) -> list[Path]:
    """Every committed session file (bundled sessions and tool samples) not written in `own_format`."""
    paths = [p for folder in (SESSIONS, TOOL_SAMPLES) for p in sorted(folder.iterdir()) if p.suffix in FILE_SUFFIXES]
    return [p for p in paths if load_sessions(p)[0].format != own_format]


def rendered_unchanged(path: Path) -> str:
    """The file's text as its format writes it back with nothing repaired."""
    return render_sessions(load_sessions(path))


def fix_all(path: Path, out: Path, capsys) -> tuple[int, str]:
    """`inspector fix PATH --accept all -o OUT`: its exit code and the one error line it printed."""
    code = main(["fix", str(path), "--accept", "all", "-o", str(out)])
    return code, capsys.readouterr().err.strip()
