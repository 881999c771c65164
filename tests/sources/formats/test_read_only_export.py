"""Every read-only format (logs and traces of model calls, evaluation logs, agent step records)
gets a repaired copy through `fix --to openai`: the copy reads back as OpenAI Chat Completions,
holds what the scan of the original flagged as fixed, and the original is left as it was."""

import json
from pathlib import Path

import pytest

from inspector.cli.main import main
from inspector.sources import load_sessions, open_source
from tests.helpers.samples import SESSIONS, TOOL_SAMPLES


def _read_only_samples() -> list[Path]:
    """Every committed sample whose format cannot be written back in its own format."""
    found = []
    for path in sorted(SESSIONS.iterdir()) + sorted(TOOL_SAMPLES.iterdir()):
        try:
            source = open_source(path)
            source.listing()
        except Exception:  # a sample in a format this check does not open on its own
            continue
        if not (source.capabilities.write_copy or source.capabilities.write_in_place):
            found.append(path)
    return found


READ_ONLY = _read_only_samples()


def test_there_are_read_only_samples_to_check():
    assert {open_source(path).format for path in READ_ONLY} >= {
        "litellm",
        "langfuse",
        "langsmith",
        "smolagents",
        "dspy",
        "otel",
        "inspect-ai",
    }


@pytest.mark.parametrize("path", READ_ONLY, ids=lambda path: path.name)
def test_a_read_only_format_is_exported_repaired_as_openai(path: Path, tmp_path, capsys):
    before = path.read_bytes()
    out = tmp_path / "repaired.json"
    assert main(["fix", str(path), "--accept", "all", "-o", str(out), "--to", "openai"]) in (0, 1)
    printed = capsys.readouterr().out
    assert "wrote" in printed and "(as openai)" in printed
    assert path.read_bytes() == before
    sessions = load_sessions(out)
    assert sessions and {session.format for session in sessions} == {"openai"}
    audit = [json.loads(line) for line in (tmp_path / "repaired.json.audit.ndjson").read_text().splitlines()]
    assert main(["scan", "--json", str(out)]) in (0, 1)
    report = json.loads(capsys.readouterr().out)
    fixed_kinds = {entry["kind"] for entry in audit}
    remaining = {finding["kind"] for session in report["sessions"] for finding in session["findings"]}
    assert not fixed_kinds & (remaining - {"tool-error"})
