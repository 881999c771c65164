"""OpenCode's older JSON storage: `sessions/opencode-storage/`, written by `opencode-ai` 1.1.65
(`sessions/generate/opencode_legacy.py`), opened by the session's file and read, with its
messages and parts, as the SQLite history's rows are; written back: test_opencode_storage_write.py."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from inspector.cli.main import main
from inspector.errors import InspectorError
from inspector.model import ASSISTANT, TOOL, USER
from inspector.sources import FORMATS, load_sessions
from inspector.sources.discovery import discover
from inspector.sources.files.document import read_document
from inspector.sources.files.opencode_storage import read_storage_session
from tests.helpers.frameworks import fix_all, other_samples
from tests.helpers.samples import TOOL_SAMPLES
from tests.helpers.scanning import finding_triples

STORAGE = TOOL_SAMPLES / "opencode-storage"
SESSION_ID = "ses_ddf1b63fdffeOYSmew4lIfLk5j"
SESSION = STORAGE / "session" / "global" / f"{SESSION_ID}.json"
PLANTED = [
    (1, "result-prefix", None),
    (3, "tool-markup", "read"),
    (5, "malformed-arguments", "read"),
    (5, "tool-error", "read"),
]


def copied(tmp_path: Path) -> tuple[Path, Path]:
    """A copy of the sample's storage, and its session file."""
    storage = shutil.copytree(STORAGE, tmp_path / "storage")
    return storage, storage / SESSION.relative_to(STORAGE)


def test_the_session_file_opens_the_whole_session_and_alone_is_none():
    (session,) = load_sessions(SESSION)
    assert (session.format, session.session_id, session.problems) == ("opencode-storage", SESSION_ID, ())
    assert not FORMATS["opencode-storage"].claims(read_document(SESSION))  # the session file without its messages


@pytest.mark.parametrize("path", other_samples("opencode-storage"), ids=lambda p: p.name)
def test_opencode_storage_claims_no_other_sample(path):
    assert not FORMATS["opencode-storage"].claims(read_document(path))


def test_the_messages_are_read_as_opencode_s_database_reads_them():
    (session,) = load_sessions(SESSION)
    (database,) = load_sessions(TOOL_SAMPLES / "opencode.db")

    def shown(turns):  # 1.1.65 ends the user's text with a line break, 1.18 does not
        return [(t.role, t.text.rstrip("\n"), [(c.name, c.arguments_raw) for c in t.tool_calls]) for t in turns]

    assert shown(session.turns) == shown(database.turns)
    assert [turn.role for turn in session.turns][:6] == [USER, ASSISTANT, USER, ASSISTANT, USER, ASSISTANT]
    (broken,) = session.turns[5].tool_calls  # stored as the tool `invalid`: read as the read it was
    assert (broken.name, broken.arguments_raw, broken.arguments) == (
        "read",
        '{"filePath": "/tmp/oc-work/notes.txt"',
        None,
    )
    (error,) = session.turns[6].tool_results
    assert session.turns[6].role == TOOL and error.is_error
    (bash,) = session.turns[9].tool_calls
    assert (bash.name, bash.arguments) == ("bash", {"command": "echo hi", "description": "Print hi"})
    assert session.turns[10].tool_results[0].content == "hi\n"
    assert {turn.model for turn in session.turns if turn.role == ASSISTANT} == {"mock-model"}


def test_the_planted_problems_are_found_once_and_the_good_calls_are_clean():
    assert finding_triples(SESSION) == PLANTED


def test_the_project_s_folder_opens_as_its_sessions(capsys):
    assert main(["scan", "--json", str(SESSION.parent)]) == 1
    (session,) = json.loads(capsys.readouterr().out)["sessions"]
    assert (session["format"], session["session_id"]) == ("opencode-storage", SESSION_ID)


def test_unknown_parts_and_messages_are_counted_and_other_files_left_alone(tmp_path):
    storage, session_file = copied(tmp_path)
    part = sorted((storage / "part").rglob("prt_*.json"))[0]
    part.write_text(json.dumps({**json.loads(part.read_text()), "type": "hologram"}))
    message = sorted((storage / "message" / SESSION_ID).iterdir())[-1]
    message.write_text(json.dumps({**json.loads(message.read_text()), "role": "narrator"}))
    (part.parent / "notes.txt").write_text("not a part")
    (session,) = load_sessions(session_file)
    assert session.problems == (
        "1 part of a type this reader does not know ('hologram'), kept as stored",
        "1 message that is not a user's or an assistant's, kept as stored",
    )
    assert len(session.turns) == 11


def test_a_record_that_is_not_json_is_one_error_naming_it(tmp_path):
    storage, session_file = copied(tmp_path)
    broken = sorted((storage / "part").rglob("prt_*.json"))[3]
    broken.write_text('{"type": "text", ')
    with pytest.raises(InspectorError, match=broken.name):
        read_storage_session(session_file)


def test_fix_writes_a_repaired_copy_of_the_storage_as_a_new_folder(tmp_path, capsys):
    code, error = fix_all(SESSION, tmp_path / "fixed", capsys)
    assert (code, error) == (0, "")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["fixed", "fixed.audit.ndjson"]
    (session,) = load_sessions(tmp_path / "fixed" / SESSION.relative_to(STORAGE))
    assert session.format == "opencode-storage"  # what is written: test_opencode_storage_write.py


def test_a_secret_in_a_tool_s_output_is_not_exported(tmp_path, capsys):
    token = "ghp_1111111111abcdefghijABCDEFGHIJ111111"
    storage, session_file = copied(tmp_path)
    for part in (storage / "part").rglob("prt_*.json"):
        part.write_text(part.read_text().replace("Meeting moved to Thursday.", f"Meeting moved. {token}"))
    out = tmp_path / "out.json"
    assert main(["fix", str(session_file), "--to", "openai", "--accept", "secret", "-o", str(out)]) in (0, 1)
    assert "5 findings" in capsys.readouterr().out  # the four planted problems and the secret
    assert token not in out.read_text()


def test_discovery_finds_each_answered_session_in_the_data_folder(empty_home: Path, tmp_path):
    data = tmp_path / "data"
    shutil.copytree(STORAGE, data / "opencode" / "storage")
    unanswered = data / "opencode" / "storage" / "session" / "global" / "ses_0000000000unansweredAAAAAA.json"
    unanswered.write_text(json.dumps({"id": unanswered.stem, "projectID": "global", "version": "1.1.65", "time": {}}))
    assert [(each.tool, each.path, each.project) for each in discover(empty_home, {}, "linux")] == []
    found = discover(empty_home, {"XDG_DATA_HOME": str(data)}, "linux")
    assert [(each.tool, each.path, each.project) for each in found] == [
        ("OpenCode (JSON storage)", data / "opencode" / "storage" / "session" / "global" / SESSION.name, "/tmp/oc-work")
    ]
