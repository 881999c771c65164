"""A session file written in place while its agent still writes it: the repair is refused in one
line and the file keeps everything the agent wrote, instead of the repair built from what was read
replacing it and dropping the lines appended meanwhile. On the real Claude Code transcript and
an OpenAI document, through `fix --in-place`, the public `write_repaired` and a file followed
as it grows (the app's `--follow`)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

import inspector
from inspector.cli.main import main
from inspector.errors import InspectorError
from inspector.sources.files.growing_file import GrowingFile
from inspector.sources.files.session_file import SessionFile
from tests.helpers.samples import SESSIONS, TOOL_SAMPLES

TRANSCRIPT = TOOL_SAMPLES / "claude-code.jsonl"
APPENDED = b'{"type":"user","uuid":"written-meanwhile","sessionId":"s","message":{"role":"user","content":"go on"}}\n'


def _every_fix(reading: inspector.Source):
    for result in inspector.iter_scan(reading):
        yield inspector.Chosen(result.session, [finding for finding in result.findings if finding.fix is not None])


def _copy(source: Path, folder: Path) -> Path:
    return Path(shutil.copy(source, folder / source.name))


def _append(path: Path, data: bytes = APPENDED) -> None:
    with open(path, "ab") as out:  # as the agent appends, by its own handle
        out.write(data)


def _agent_appends_while_the_repair_is_built(monkeypatch: pytest.MonkeyPatch, path: Path) -> None:
    """Have the agent append a line to `path` while the repaired file is rendered (after the read)."""
    render = inspector.sources.files.session_file.rendered_file

    def agent_writes_meanwhile(sessions):
        _append(path)
        return render(sessions)

    monkeypatch.setattr("inspector.sources.files.session_file.rendered_file", agent_writes_meanwhile)


def test_fix_in_place_refuses_when_the_agent_appends_while_the_repair_is_built(tmp_path, capsys, monkeypatch):
    path = _copy(TRANSCRIPT, tmp_path)
    original = path.read_bytes()
    _agent_appends_while_the_repair_is_built(monkeypatch, path)
    assert main(["fix", str(path), "--accept", "all", "--in-place"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert f"it grew by {len(APPENDED)} bytes since it was read" in err and "nothing was written" in err
    assert path.read_bytes() == original + APPENDED  # every line the agent wrote, as it wrote it
    assert sorted(os.listdir(tmp_path)) == [path.name]  # no backup, no audit left behind


def test_a_refused_fix_in_place_leaves_the_audit_of_the_fix_before_it_as_it_was(tmp_path, capsys, monkeypatch):
    path = _copy(TRANSCRIPT, tmp_path)
    assert main(["fix", str(path), "--accept", "result-prefix", "--in-place"]) == 1
    audit = Path(f"{path}.audit.ndjson")
    first_fix, fixed = audit.read_bytes(), path.read_bytes()
    _agent_appends_while_the_repair_is_built(monkeypatch, path)
    assert main(["fix", str(path), "--accept", "all", "--in-place"]) == 2
    assert "nothing was written" in capsys.readouterr().err
    assert audit.read_bytes() == first_fix  # landed with the refused fix's entries, then put back
    assert path.read_bytes() == fixed + APPENDED


def test_a_file_that_grew_since_it_was_read_is_refused_before_any_backup(tmp_path):
    path = _copy(TRANSCRIPT, tmp_path)
    source = inspector.open_source(path)
    assert any(result.findings for result in inspector.iter_scan(source))  # read, with fixes to write
    _append(path)
    with pytest.raises(InspectorError, match=f"it grew by {len(APPENDED)} bytes since it was read"):
        inspector.write_repaired(source, None, _every_fix, in_place=True)
    assert path.read_bytes() == TRANSCRIPT.read_bytes() + APPENDED
    assert sorted(os.listdir(tmp_path)) == [path.name]


def test_a_document_its_tool_saved_again_since_it_was_read_is_refused(tmp_path):
    path = _copy(SESSIONS / "memory-agent.openai.json", tmp_path)
    source = inspector.open_source(path)
    list(inspector.iter_scan(source))
    saved_again = json.dumps(json.loads(path.read_text()))  # the whole document saved again, shorter
    path.write_text(saved_again)
    with pytest.raises(InspectorError, match="it was written or replaced since it was read"):
        inspector.write_repaired(source, None, _every_fix, in_place=True)
    assert path.read_text() == saved_again


def test_the_same_file_left_alone_is_repaired_in_place(tmp_path):
    path = _copy(TRANSCRIPT, tmp_path)
    source = inspector.open_source(path)
    outcome = inspector.write_repaired(source, None, _every_fix, in_place=True)
    assert outcome.applied > 0 and path.read_bytes() != TRANSCRIPT.read_bytes()
    assert outcome.backup is not None and outcome.backup.read_bytes() == TRANSCRIPT.read_bytes()


def _followed(path: Path) -> SessionFile:
    """The file as the app follows it (`--follow`): its sessions from what was read so far."""
    growing = GrowingFile(path)
    growing.grow()
    return SessionFile.of_document(growing.document(), growing.state())


def test_a_followed_file_with_a_line_still_being_written_is_not_replaced(tmp_path):
    path = _copy(TRANSCRIPT, tmp_path)
    half = APPENDED[:40]  # the agent is in the middle of writing a line: it is not read yet
    _append(path, half)
    with pytest.raises(InspectorError, match=f"it grew by {len(half)} bytes"):
        inspector.write_repaired(_followed(path), None, _every_fix, in_place=True)
    assert path.read_bytes() == TRANSCRIPT.read_bytes() + half


def test_a_followed_file_read_whole_is_repaired_in_place(tmp_path):
    path = _copy(TRANSCRIPT, tmp_path)
    outcome = inspector.write_repaired(_followed(path), None, _every_fix, in_place=True)
    assert outcome.applied > 0 and outcome.backup is not None


def test_a_review_exported_over_its_input_twice_writes_both_times(tmp_path):
    from inspector.review.review import Review

    path = _copy(SESSIONS / "memory-agent.openai.json", tmp_path)
    source = inspector.open_source(path)
    review = Review.open(source, list(inspector.iter_scan(source)))
    first, second = [index for index, _ in enumerate(review.findings(0)) if review.can_approve(0, index)][:2]
    review.approve(0, first)
    assert review.export(overwrite_input=True).applied == 1
    review.approve(0, second)
    assert review.export(overwrite_input=True).applied == 2  # the file is what the first export wrote
    _append(path, b"\n")  # then something else writes it: the next export is refused
    with pytest.raises(InspectorError, match="it grew by 1 byte since"):
        review.export(overwrite_input=True)
