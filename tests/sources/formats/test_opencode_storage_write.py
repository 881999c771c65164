"""OpenCode's older JSON storage written back (`sessions/opencode-storage/`, by `opencode-ai`
1.1.65): `fix -o OUT` copies the session's files into a new storage folder with the repaired
ones, `--in-place` writes the storage itself after a backup under a lock, all files or none;
repaired parts are written as OpenCode writes them."""

from __future__ import annotations

import errno
import json
import os
import shutil
from pathlib import Path

from inspector.cli.main import main
from inspector.review.review import Review
from inspector.scan.scanner import scan_file
from inspector.sources import open_source
from inspector.sources.files.opencode_storage import record_files
from inspector.sources.files.record_files_write import lock_path_for
from inspector.sources.formats._opencode_storage_write import stored_text
from inspector.support import file_lock
from inspector.support.file_lock import exclusive_lock
from tests.helpers.samples import TOOL_SAMPLES
from tests.helpers.scanning import finding_triples

STORAGE = TOOL_SAMPLES / "opencode-storage"
RESUMED = TOOL_SAMPLES / "opencode-storage-repaired"  # repaired by `fix -o`, then continued by opencode 1.1.65
SESSION_ID = "ses_ddf1b63fdffeOYSmew4lIfLk5j"
SESSION = STORAGE / "session" / "global" / f"{SESSION_ID}.json"
RECOVERED_IN = "msg_220e4bd60001J93oZTZ2hU9JW0"  # the message whose text held the printed read call
REPAIRED = {
    "part/msg_220e49e34001775CgAiVBS7w5P/prt_220e49fc30011TJW7sosDt4J0K.json",  # the fake result stripped
    f"part/{RECOVERED_IN}/prt_220e4be7c0019x5JypZQUQQqCm.json",  # the printed call taken out of the text
    "part/msg_220e4cf96001V7cBjpxhzMexD0/prt_220e4d0e1001jCxbW0t49emySZ.json",  # `invalid` become a failed read
}


def tree(folder: Path) -> dict[str, bytes]:
    """Every file under `folder`, by its path in it, with its bytes."""
    return {path.relative_to(folder).as_posix(): path.read_bytes() for path in folder.rglob("*") if path.is_file()}


def copied(tmp_path: Path) -> tuple[Path, Path]:
    """A copy of the sample's storage, and its session file."""
    storage = shutil.copytree(STORAGE, tmp_path / "storage")
    return storage, storage / SESSION.relative_to(STORAGE)


def written_parts(before: dict[str, bytes], after: dict[str, bytes]) -> tuple[set[str], set[str]]:
    """The files changed and the files added."""
    return {name for name in before if after.get(name) != before[name]}, set(after) - set(before)


def test_every_record_is_written_as_opencode_writes_it():
    for path in record_files(SESSION):
        assert stored_text(json.loads(path.read_text())).encode() == path.read_bytes(), path.name


def test_fix_o_writes_a_new_storage_folder_with_the_repaired_parts_and_the_rest_as_it_was(tmp_path, capsys):
    out = tmp_path / "fixed"
    assert main(["fix", str(SESSION), "--accept", "all", "-o", str(out)]) == 0
    before, after = tree(STORAGE), tree(out)
    changed, (new,) = written_parts(before, after)
    assert changed == REPAIRED
    assert tree(STORAGE) == before  # the input is left as it was
    part = json.loads(after[new])
    assert new.startswith(f"part/{RECOVERED_IN}/prt_") and new.endswith(f"{part['id']}.json")
    assert list(part) == ["id", "sessionID", "messageID", "type", "callID", "tool", "state"]
    assert (part["sessionID"], part["messageID"], part["tool"]) == (SESSION_ID, RECOVERED_IN, "read")
    assert part["state"]["input"] == {"filePath": "notes.txt"} and part["state"]["status"] == "completed"
    assert after[new] == stored_text(part).encode()  # two spaces, no final newline
    assert new > max(name for name in before if name.startswith(f"part/{RECOVERED_IN}/"))  # read after the others
    failed = json.loads(after["part/msg_220e4cf96001V7cBjpxhzMexD0/prt_220e4d0e1001jCxbW0t49emySZ.json"])
    assert (failed["tool"], failed["state"]["status"]) == ("read", "error")
    assert list(failed) == ["id", "sessionID", "messageID", "type", "callID", "tool", "state"]
    assert finding_triples(out / SESSION.relative_to(STORAGE)) == [(5, "tool-error", "read")]
    audit = [json.loads(line) for line in (tmp_path / "fixed.audit.ndjson").read_text().splitlines()]
    assert len(audit) == 4 and {entry["kind"] for entry in audit} == {
        "result-prefix",
        "tool-markup",
        "malformed-arguments",
    }


def test_a_copy_with_nothing_repaired_is_the_session_s_files_byte_for_byte(tmp_path):
    assert main(["fix", str(SESSION), "--accept", "secret", "-o", str(tmp_path / "same")]) == 1
    assert tree(tmp_path / "same") == tree(STORAGE)


def test_an_existing_output_folder_is_refused_in_one_line(tmp_path, capsys):
    (tmp_path / "taken").mkdir()
    assert main(["fix", str(SESSION), "--accept", "all", "-o", str(tmp_path / "taken")]) == 2
    error = capsys.readouterr().err
    assert "nothing was written" in error and len(error.splitlines()) == 1
    assert list((tmp_path / "taken").iterdir()) == [] and not (tmp_path / "taken.audit.ndjson").exists()


def test_in_place_backs_up_the_session_s_files_beside_the_storage_then_writes_the_parts(tmp_path, capsys):
    storage, session_file = copied(tmp_path)
    before = tree(storage)
    assert main(["fix", str(session_file), "--accept", "all", "--in-place"]) == 0
    assert tree(tmp_path / "storage.bak") == before  # outside the folders OpenCode lists
    changed, new = written_parts(before, tree(storage))
    assert changed == REPAIRED and len(new) == 1
    assert sorted(path.name for path in tmp_path.iterdir()) == [
        "storage",
        "storage.audit.ndjson",
        "storage.bak",
        "storage.lock",
    ]
    assert not list(storage.rglob(".*"))  # no temporary file left behind
    assert finding_triples(session_file) == [(5, "tool-error", "read")]
    fixed = tree(storage)
    assert main(["fix", str(session_file), "--accept", "all", "--in-place"]) == 1  # nothing left to fix
    assert tree(storage) == fixed and not (tmp_path / "storage.bak.1").exists()  # left as it was, no copy
    shutil.rmtree(storage)
    shutil.copytree(STORAGE, storage)  # the session as it was written before the repair, again
    first_audit = (tmp_path / "storage.audit.ndjson").read_bytes()
    assert main(["fix", str(session_file), "--accept", "all", "--in-place"]) == 0
    assert (tmp_path / "storage.bak.1").is_dir() and tree(tmp_path / "storage.bak") == before  # never written over
    audit = (tmp_path / "storage.audit.ndjson").read_bytes()
    assert audit.startswith(first_audit) and len(audit.splitlines()) == 2 * len(first_audit.splitlines())  # both kept


def test_a_rename_failing_midway_puts_back_every_file_and_leaves_the_storage_as_it_was(tmp_path, capsys, monkeypatch):
    storage, session_file = copied(tmp_path)
    before = tree(storage)
    rename = os.replace
    landed: list[str] = []

    def failing_second_part(source, target):
        if Path(source).name.startswith(".prt_") and Path(target).suffix == ".json" and len(landed) < 2:
            landed.append(Path(target).name)
            if len(landed) == 2:
                raise OSError(errno.EIO, os.strerror(errno.EIO))
        rename(source, target)

    monkeypatch.setattr(os, "replace", failing_second_part)
    assert main(["fix", str(session_file), "--accept", "all", "--in-place"]) == 2
    error = capsys.readouterr().err
    assert "cannot write" in error and "nothing was written" in error and len(error.splitlines()) == 1
    assert len(landed) == 2  # one part file was renamed into place before the failure
    assert tree(storage) == before  # put back, the new part removed, no temporary file left
    assert not (tmp_path / "storage.audit.ndjson").exists()
    assert tree(tmp_path / "storage.bak") == before


def test_in_place_waits_for_the_storage_s_lock_and_refuses_while_another_holds_it(tmp_path, capsys, monkeypatch):
    storage, session_file = copied(tmp_path)
    before = tree(storage)
    monkeypatch.setattr(file_lock, "WAIT_SECONDS", 0.2)
    with exclusive_lock(lock_path_for(storage), "hold it"):
        assert main(["fix", str(session_file), "--accept", "all", "--in-place"]) == 2
    error = capsys.readouterr().err
    assert "held by another process" in error and len(error.splitlines()) == 1
    assert tree(storage) == before and not (tmp_path / "storage.bak").exists()


def test_a_masked_secret_is_masked_in_every_file_of_the_session(tmp_path, capsys):
    token = "ghp_1111111111abcdefghijABCDEFGHIJ111111"
    storage, session_file = copied(tmp_path)
    for path in [*storage.rglob("prt_*.json"), session_file]:
        path.write_text(path.read_text().replace("Meeting moved to Thursday.", f"Meeting moved. {token}"))
    session_file.write_text(session_file.read_text().replace("Notes and a journal memory", f"Notes {token}"))
    assert main(["fix", str(session_file), "--accept", "secret", "-o", str(tmp_path / "out")]) in (0, 1)
    assert "secret" in capsys.readouterr().out
    assert not [name for name, data in tree(tmp_path / "out").items() if token.encode() in data]
    assert tree(storage)[session_file.relative_to(storage).as_posix()].count(token.encode()) == 1


def test_undo_of_a_storage_session_never_fixed_refuses_in_one_line_and_changes_nothing(tmp_path, capsys):
    storage, session_file = copied(tmp_path)
    before = tree(storage)
    assert main(["undo", str(session_file)]) == 2
    error = capsys.readouterr().err
    assert error.endswith(f"no fix --in-place of this session is recorded in {tmp_path / 'storage.audit.ndjson'} "
                          "to undo: nothing was changed\n") and len(error.splitlines()) == 1  # fmt: skip
    assert tree(storage) == before and not (tmp_path / "storage.bak").exists()


def test_undo_puts_the_session_s_files_back_one_fix_in_place_at_a_time_the_last_first(tmp_path, capsys):
    storage, session_file = copied(tmp_path)
    original = tree(storage)
    assert main(["fix", str(session_file), "--accept", "result-prefix", "--in-place"]) == 1  # findings left
    first = tree(storage)
    assert main(["fix", str(session_file), "--accept", "all", "--in-place"]) == 0
    second = tree(storage)
    assert first != original and set(second) - set(first)  # the second added the recovered call's part
    capsys.readouterr()

    assert main(["undo", str(session_file)]) == 0
    said = capsys.readouterr().out.splitlines()
    assert said[0].startswith(f"{session_file}: undid the fix --in-place of ")
    assert said[0].endswith(f"fixes): put back {tmp_path / 'storage.bak.1'}, its copy from before")
    assert said[1:] == [
        f"kept: {tmp_path / 'storage.bak.2'} (as that fix wrote it)",
        f"audit: the undo is recorded in {tmp_path / 'storage.audit.ndjson'}",
    ]
    assert tree(storage) == first  # the part the second fix added is gone, the others as the first left them
    assert tree(tmp_path / "storage.bak.2") == second
    assert main(["undo", str(session_file)]) == 0
    assert tree(storage) == original
    assert tree(tmp_path / "storage.bak.3") == first
    assert main(["undo", str(session_file)]) == 2
    assert (
        "every fix --in-place of this session its storage's audit records is undone already" in capsys.readouterr().err
    )
    assert tree(storage) == original
    kinds = [json.loads(line).get("kind") for line in (tmp_path / "storage.audit.ndjson").read_text().splitlines()]
    assert kinds[-2:] == ["undo", "undo"]
    assert main(["fix", str(session_file), "--accept", "all", "--in-place"]) == 0  # fixed again, undone again
    assert main(["undo", str(session_file)]) == 0 and tree(storage) == original


def test_undo_given_the_storage_folder_its_audit_or_a_record_names_the_session_file_to_give_it(tmp_path, capsys):
    storage, session_file = copied(tmp_path)
    assert main(["undo", str(storage)]) == 2
    assert capsys.readouterr().err == (
        f"inspector: error: {storage}: an OpenCode storage folder: no fix --in-place of its sessions is recorded, "
        "nothing was changed\n"
    )
    assert main(["fix", str(session_file), "--accept", "all", "--in-place"]) == 0
    fixed = tree(storage)
    capsys.readouterr()
    for given, what in ((storage, ""), (tmp_path / "storage.audit.ndjson", "the audit of ")):
        assert main(["undo", str(given)]) == 2
        error = capsys.readouterr().err
        assert error.startswith(f"inspector: error: {given}: {what}an OpenCode storage folder: undo takes one of ")
        assert error.endswith(f"): inspector undo {session_file}\n") and len(error.splitlines()) == 1
    message, part = RECOVERED_IN + ".json", sorted((storage / "part" / RECOVERED_IN).iterdir())[0]
    for given, what in ((storage / "message" / SESSION_ID / message, "message"), (part, "part")):
        assert main(["undo", str(given)]) == 2
        assert capsys.readouterr().err == (
            f"inspector: error: {given}: a {what} of an OpenCode storage session; undo takes the session's file: "
            f"inspector undo {session_file}\n"
        )
    assert tree(storage) == fixed
    assert main(["undo", str(session_file)]) == 0
    assert main(["undo", str(storage)]) == 2
    assert "every fix --in-place of its sessions is undone already" in capsys.readouterr().err


def test_undo_refuses_a_session_opencode_went_on_with_and_changes_nothing(tmp_path, capsys):
    storage, session_file = copied(tmp_path)
    assert main(["fix", str(session_file), "--accept", "all", "--in-place"]) == 0
    repaired = next(iter(sorted(REPAIRED)))
    (storage / repaired).write_text((storage / repaired).read_text().replace("}", ' , "edited": 1}', 1))
    as_it_is = tree(storage)
    capsys.readouterr()
    assert main(["undo", str(session_file)]) == 2
    error = capsys.readouterr().err
    assert f"{storage / repaired}: changed since the fix --in-place of " in error and len(error.splitlines()) == 1
    assert error.endswith(f"the session's files from before that fix are in {tmp_path / 'storage.bak'}\n")
    assert tree(storage) == as_it_is and not (tmp_path / "storage.bak.1").exists()


def _reviewed(session_file: Path) -> Review:
    """A review of the session with every finding that has a fix approved."""
    review = Review.open(open_source(session_file), scan_file(session_file))
    for index, finding in enumerate(review.findings(0)):
        if finding.fix is not None:
            review.approve(0, index)
    return review


def test_the_app_s_export_writes_a_storage_folder_beside_the_storage_never_inside_it(tmp_path):
    storage, session_file = copied(tmp_path)
    review = _reviewed(session_file)
    assert review.default_export_path() == tmp_path / "storage.fixed"
    assert review.default_export_path("openai") == tmp_path / "storage.fixed.openai.json"
    outcome = review.export()
    assert (outcome.out, outcome.applied) == (tmp_path / "storage.fixed", 4)
    assert finding_triples(tmp_path / "storage.fixed" / SESSION.relative_to(STORAGE)) == [(5, "tool-error", "read")]
    assert tree(storage) == tree(STORAGE)


def test_the_app_s_export_over_the_input_backs_it_up_first(tmp_path):
    storage, session_file = copied(tmp_path)
    outcome = _reviewed(session_file).export(overwrite_input=True)
    assert outcome.backup == tmp_path / "storage.bak" and tree(outcome.backup) == tree(STORAGE)
    assert finding_triples(session_file) == [(5, "tool-error", "read")]


def test_opencode_continued_the_repaired_storage_and_kept_the_parts_as_written(tmp_path):
    source = open_source(RESUMED / SESSION.relative_to(STORAGE))
    assert source.listing() == [(SESSION_ID, 15)]
    (session,) = source.sessions()
    assert len(list((RESUMED / "message" / SESSION_ID).iterdir())) == 11
    assert session.turns[-1].text == (
        "Nothing else. The history I was sent holds the tool calls read, read, read, bash, "
        "and 0 replies starting with an object."
    )
    assert finding_triples(RESUMED / SESSION.relative_to(STORAGE)) == [(5, "tool-error", "read")]
    assert main(["fix", str(SESSION), "--accept", "all", "-o", str(tmp_path / "fixed")]) == 0
    resumed = tree(RESUMED)
    assert {name: resumed[name] for name in REPAIRED} == {name: tree(tmp_path / "fixed")[name] for name in REPAIRED}
    (recovered,) = [name for name in resumed if name.startswith(f"part/{RECOVERED_IN}/") and name not in tree(STORAGE)]
    assert json.loads(resumed[recovered])["callID"] == "call_inspector_3_0"


def test_a_recovered_call_s_part_sorts_after_parts_written_by_a_clock_ahead_of_this_one(tmp_path):
    storage, session_file = copied(tmp_path)
    folder = storage / "part" / RECOVERED_IN
    last = max(folder.iterdir())
    ahead = "prt_fff000000001AAAAAAAAAAAAAA"
    (folder / f"{ahead}.json").write_text(last.read_text().replace(last.stem, ahead))
    last.unlink()
    assert main(["fix", str(session_file), "--accept", "all", "-o", str(tmp_path / "out")]) == 0
    names = sorted(path.stem for path in (tmp_path / "out" / "part" / RECOVERED_IN).iterdir())
    assert names[-2] == ahead and json.loads(
        (tmp_path / "out" / "part" / RECOVERED_IN / f"{names[-1]}.json").read_text()
    )["callID"].startswith("call_inspector")
