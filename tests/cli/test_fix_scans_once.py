"""`fix` checks its input by reading the first session before anything is written; a file's
sessions are held once read, so that first session is not scanned a second time when it is
fixed, while a history (read again under the writer's lock) is."""

from __future__ import annotations

import json
from collections import Counter

import pytest

import inspector.scan.scanner as scanner
from inspector.cli.main import main
from inspector.model import Session
from tests.helpers.rubyllm import build_rubyllm
from tests.helpers.samples import TOOL_SAMPLES


@pytest.fixture
def scans(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """How many times the detectors ran over each session (by its id), through any command."""
    counted: Counter[str] = Counter()
    detect = scanner.detect_findings

    def counting(session: Session, extra=()):  # type: ignore[no-untyped-def]
        counted[f"{session.path}#{session.session_id}"] += 1
        return detect(session, extra)

    monkeypatch.setattr(scanner, "detect_findings", counting)
    return counted


def test_a_file_session_is_scanned_once_and_fixed_as_before(scans, tmp_path, capsys):
    source = TOOL_SAMPLES / "copilot-cli.history.json"  # a fake result and printed call markup, planted
    out = tmp_path / "fixed.json"
    assert main(["fix", str(source), "--accept", "result-prefix,tool-markup", "-o", str(out)]) == 0
    assert "2 fixes applied, no finding left" in capsys.readouterr().out
    assert list(scans.values()) == [1]
    texts = [message.get("content") or "" for message in json.loads(out.read_text())["chatMessages"]]
    assert not any(text.startswith("{success") or "<tool_call>" in text for text in texts)


def test_a_history_is_read_and_scanned_again_under_the_writers_lock(scans, tmp_path, capsys):
    source = build_rubyllm(tmp_path / "app.db")  # result-prefix, malformed-arguments and tool-markup, one each
    assert main(["fix", str(source), "--accept", "all", "-o", str(tmp_path / "all.db")]) == 0
    assert "3 fixes applied, no finding left" in capsys.readouterr().out
    first, *others = scans.values()
    assert first == 2 and all(count == 1 for count in others)


def test_fix_with_an_executor_scans_a_files_sessions_once(scans, tmp_path, capsys):
    source = TOOL_SAMPLES / "copilot-cli.history.json"  # printed call markup: a call recovered, then run
    out = tmp_path / "fixed.json"
    assert main(["fix", str(source), "--accept", "tool-markup", "--execute", "cat", "-o", str(out)]) in (0, 1)
    assert "execute " in capsys.readouterr().out
    assert list(scans.values()) == [1]
