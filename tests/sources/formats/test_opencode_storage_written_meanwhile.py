"""OpenCode's older JSON storage (`sessions/opencode-storage/`) written in place while OpenCode
still writes the session: a record file rewritten, or a part or message file added, since the
session was read is a refusal in one line (looked at before the backup and right before the first
rename), and the storage stays byte for byte as OpenCode left it, with no backup, audit or
temporary file behind; left alone, it is written, twice over from the same read too (the app's
export)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import inspector
from inspector.cli.main import main
from inspector.errors import InspectorError
from inspector.sources.formats import _opencode_storage_write
from tests.helpers.scanning import finding_triples
from tests.sources.formats.test_opencode_storage_write import (
    RECOVERED_IN,
    REPAIRED,
    STORAGE,
    _reviewed,
    copied,
    tree,
    written_parts,
)

REWRITTEN = sorted(REPAIRED)[0]  # a part the repair writes too
NEW_PART = f"part/{RECOVERED_IN}/prt_fff000000001AAAAAAAAAAAAAA.json"


def _every_fix(reading: inspector.Source):
    for result in inspector.iter_scan(reading):
        yield inspector.Chosen(result.session, [finding for finding in result.findings if finding.fix is not None])


def _rewritten_same_size(path: Path) -> None:
    """The record saved again by OpenCode: a letter changed, as many bytes, a later time."""
    data = path.read_bytes()
    at = data.index(b'"type"') + 1
    path.write_bytes(data[:at] + data[at : at + 1].upper() + data[at + 1 :])
    status = path.stat()
    os.utime(path, ns=(status.st_atime_ns, status.st_mtime_ns + 5_000_000))


def _added(storage: Path, name: str) -> None:
    """A new record file, as OpenCode adds one for a message or a part it streams."""
    last = max((storage / name).parent.iterdir())
    (storage / name).write_text(last.read_text().replace(last.stem, Path(name).stem))


def _nothing_left_beside(storage: Path) -> None:
    """No backup and no audit beside the storage (its lock file stays, as after any in-place
    write), and no temporary file in it."""
    assert sorted(path.name for path in storage.parent.iterdir()) == ["storage", "storage.lock"]
    assert not list(storage.rglob(".*"))


def _meanwhile(monkeypatch, change) -> dict[str, bytes]:
    """Have `change` run while the repair is built (after the backup, before anything lands);
    the storage as it leaves it, filled in once it ran."""
    build = _opencode_storage_write.write_records
    left: dict[str, bytes] = {}

    def opencode_writes_meanwhile(document, sessions):
        change()
        left.update(tree(document.path.parent.parent.parent))
        return build(document, sessions)

    monkeypatch.setattr(_opencode_storage_write, "write_records", opencode_writes_meanwhile)
    return left


def test_a_part_opencode_rewrote_while_the_repair_was_built_is_refused_in_one_line(tmp_path, capsys, monkeypatch):
    storage, session_file = copied(tmp_path)
    left = _meanwhile(monkeypatch, lambda: _rewritten_same_size(storage / REWRITTEN))
    assert main(["fix", str(session_file), "--accept", "all", "--in-place"]) == 2
    error = capsys.readouterr().err
    assert len(error.splitlines()) == 1
    assert f"{REWRITTEN}: written since the session was read (is OpenCode still running?)" in error
    assert "nothing was written" in error
    assert tree(storage) == left and left[REWRITTEN] != tree(STORAGE)[REWRITTEN]  # as OpenCode left it
    _nothing_left_beside(storage)


def test_a_part_opencode_added_while_the_repair_was_built_is_refused(tmp_path, capsys, monkeypatch):
    storage, session_file = copied(tmp_path)
    left = _meanwhile(monkeypatch, lambda: _added(storage, NEW_PART))
    assert main(["fix", str(session_file), "--accept", "all", "--in-place"]) == 2
    error = capsys.readouterr().err
    assert len(error.splitlines()) == 1 and f"{NEW_PART}: added since the session was read" in error
    assert tree(storage) == left and NEW_PART in left
    _nothing_left_beside(storage)


@pytest.mark.parametrize(
    "change",
    [
        lambda storage: _rewritten_same_size(storage / REWRITTEN),
        lambda storage: _added(storage, NEW_PART),
        lambda storage: _added(storage, "message/ses_ddf1b63fdffeOYSmew4lIfLk5j/msg_fff000000001AAAAAAAAAAAAAA.json"),
    ],
    ids=["part rewritten", "part added", "message added"],
)
def test_a_session_opencode_wrote_since_it_was_read_is_refused_and_left_as_it_was(tmp_path, change):
    storage, session_file = copied(tmp_path)
    source = inspector.open_source(session_file)
    assert any(result.findings for result in inspector.iter_scan(source))  # read, with fixes to write
    change(storage)
    left = tree(storage)
    with pytest.raises(InspectorError, match=r"since the session was read \(is OpenCode still running\?\)"):
        inspector.write_repaired(source, None, _every_fix, in_place=True)
    assert tree(storage) == left
    _nothing_left_beside(storage)


def test_a_session_left_alone_since_it_was_read_is_written_in_place(tmp_path):
    storage, session_file = copied(tmp_path)
    source = inspector.open_source(session_file)
    list(inspector.iter_scan(source))
    outcome = inspector.write_repaired(source, None, _every_fix, in_place=True)
    assert outcome.applied == 4 and tree(outcome.backup) == tree(STORAGE)
    assert finding_triples(session_file) == [(5, "tool-error", "read")]


def _records(storage: Path) -> dict[str, bytes]:
    """The storage's files but the baseline the app's export writes beside the session's file."""
    return {name: data for name, data in tree(storage).items() if not name.endswith(".baseline.ndjson")}


def _recovered(storage: Path) -> list[str]:
    """The parts holding a recovered call in the message it was recovered from."""
    return [name for name in tree(storage) if name.startswith(f"part/{RECOVERED_IN}/") and name not in tree(STORAGE)]


def test_the_app_s_export_over_the_storage_twice_writes_both_times(tmp_path):
    storage, session_file = copied(tmp_path)
    review = _reviewed(session_file)
    assert review.export(overwrite_input=True).applied == 4
    assert review.export(overwrite_input=True).applied == 4  # the storage is what the first export wrote
    changed, new = written_parts(tree(STORAGE), _records(storage))
    assert changed == REPAIRED and new == set(_recovered(storage)) and len(new) == 1  # the call recovered once
    assert finding_triples(session_file) == [(5, "tool-error", "read")]
    _rewritten_same_size(storage / REWRITTEN)  # then OpenCode writes it: the next export is refused
    with pytest.raises(InspectorError, match="written since the session was read"):
        review.export(overwrite_input=True)


def test_a_second_export_from_the_same_read_puts_back_what_the_first_wrote_and_it_does_not(tmp_path):
    storage, session_file = copied(tmp_path)
    review = _reviewed(session_file)
    assert review.export(overwrite_input=True).applied == 4 and len(_recovered(storage)) == 1
    (markup,) = [index for index, finding in enumerate(review.findings(0)) if finding.kind == "tool-markup"]
    review.skip(0, markup)
    assert review.export(overwrite_input=True).applied == 3
    changed, new = written_parts(tree(STORAGE), _records(storage))
    assert new == set() and changed == REPAIRED - {f"part/{RECOVERED_IN}/prt_220e4be7c0019x5JypZQUQQqCm.json"}
    copy = review.export(tmp_path / "copy")  # a copy from the same read holds the same files
    assert copy.applied == 3 and tree(tmp_path / "copy") == _records(storage)
