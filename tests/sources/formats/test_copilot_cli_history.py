"""GitHub Copilot CLI's older session files: the session Copilot CLI 0.0.340 wrote
(`sessions/copilot-cli.history.json`, see `sessions/generate/README.md`), claimed by this format
alone, read into turns, written back byte for byte where nothing changed, repaired as the CLI
writes its messages, and the repaired file as the real CLI resumed it
(`sessions/clean.copilot-cli.history.resumed.json`); discovery lists the older folder's files."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from inspector.cli.main import main
from inspector.model import ASSISTANT, TOOL, USER
from inspector.sources import load_sessions
from inspector.sources.discovery import discover
from inspector.sources.files.document import read_document
from inspector.sources.formats import GENERAL
from tests.helpers.frameworks import format_read, other_samples, rendered_unchanged, specific_claims
from tests.helpers.samples import TOOL_SAMPLES

NAME = "copilot-cli-history"
SAMPLE = TOOL_SAMPLES / "copilot-cli.history.json"
RESUMED = TOOL_SAMPLES / "clean.copilot-cli.history.resumed.json"
SESSION_ID = "a118ed79-0481-40dc-bf5f-338c65ee80c1"
PLANTED = [(1, "result-prefix", None), (3, "tool-markup", "str_replace_editor")]


def findings(path: Path, capsys) -> list[tuple]:
    capsys.readouterr()
    assert main(["scan", "--json", str(path)]) in (0, 1)
    (session,) = json.loads(capsys.readouterr().out)["sessions"]
    return [(f["turn"], f["kind"], f["tool"]) for f in session["findings"]]


def test_the_file_is_claimed_by_copilot_cli_history_alone_and_not_by_the_general_format():
    for path in (SAMPLE, RESUMED):
        assert specific_claims(path) == [NAME]
        assert format_read(path) == NAME
        assert not GENERAL.claims(read_document(path))
    (session,) = load_sessions(SAMPLE)
    assert (session.format, session.session_id, session.problems) == (NAME, SESSION_ID, ())


def test_no_other_sample_is_claimed():
    assert all(NAME not in specific_claims(path) for path in other_samples(NAME))


def test_chat_messages_are_the_turns_and_calls_link_to_their_results():
    (session,) = load_sessions(SAMPLE)
    assert [t.role for t in session.turns] == [USER, ASSISTANT] * 3 + [TOOL, ASSISTANT, TOOL, ASSISTANT]
    (view,) = session.turns[5].tool_calls
    assert (view.id, view.name, view.arguments) == (
        "call_mock_good_view",
        "str_replace_editor",
        {"command": "view", "path": "/tmp/ch-work/notes.txt"},
    )
    (answer,) = session.turns[6].tool_results
    assert (answer.call_id, answer.name) == ("call_mock_good_view", "str_replace_editor")
    assert "Meeting moved to Thursday." in answer.content
    (bash,) = session.turns[7].tool_calls
    (printed,) = session.turns[8].tool_results
    assert (bash.name, printed.call_id, printed.content) == (
        "bash",
        "call_mock_good_bash",
        "hi\n<exited with exit code 0>",
    )


def test_the_planted_problems_are_found_and_the_good_calls_stay_clean(capsys):
    assert findings(SAMPLE, capsys) == PLANTED
    assert findings(RESUMED, capsys) == []


def test_loading_and_rendering_unchanged_gives_the_same_bytes():
    for path in (SAMPLE, RESUMED):
        assert rendered_unchanged(path) == path.read_text(encoding="utf-8")


def test_fix_writes_the_messages_as_the_cli_does_and_keeps_the_rest(tmp_path: Path, capsys):
    out = tmp_path / "repaired.json"
    assert main(["fix", str(SAMPLE), "--accept", "all", "-o", str(out)]) == 0
    before, after = json.loads(SAMPLE.read_text()), json.loads(out.read_text())
    assert {key: value for key, value in after.items() if key != "chatMessages"} == {
        key: value for key, value in before.items() if key != "chatMessages"
    }
    messages = after["chatMessages"]
    assert messages[1]["content"].startswith("You saw right through me.")
    recovered, result = messages[3], messages[4]
    assert recovered["tool_calls"][0]["function"]["name"] == "str_replace_editor"
    assert (result["role"], result["tool_call_id"]) == ("tool", recovered["tool_calls"][0]["id"])
    assert "not executed" in result["content"]
    assert messages[5]["content"] == "Let me read it."
    assert messages[6:] == before["chatMessages"][4:]
    assert not out.read_text().endswith("\n")
    assert findings(out, capsys) == []


def test_the_cli_resumed_the_repaired_file_as_written(tmp_path: Path, capsys):
    out = tmp_path / "repaired.json"
    main(["fix", str(SAMPLE), "--accept", "all", "-o", str(out)])
    repaired = json.loads(out.read_text())["chatMessages"]
    resumed = json.loads(RESUMED.read_text())["chatMessages"]
    canonical = [json.dumps(message, sort_keys=True) for message in repaired]
    assert [json.dumps(message, sort_keys=True) for message in resumed[: len(repaired)]] == canonical
    assert [message["role"] for message in resumed[len(repaired) :]] == ["user", "assistant"]


def test_timeline_entries_of_an_unknown_type_are_counted_and_kept(tmp_path: Path):
    value = json.loads(SAMPLE.read_text())
    value["timeline"].append({"id": "x", "timestamp": "2026-01-01T00:00:00.000Z", "type": "hologram"})
    value["chatMessages"].append({"role": "narrator", "content": "Once upon a time."})
    path = tmp_path / "session.json"
    path.write_text(json.dumps(value, indent=2))
    (session,) = load_sessions(path)
    assert session.problems == (
        "1 message without a known role not read as turns",
        "1 timeline entry of a type this reader does not know ('hologram'), kept as stored",
    )
    assert rendered_unchanged(path) == path.read_text()


def test_timeline_entries_that_are_not_objects_or_whose_type_is_a_list_are_counted_as_such(tmp_path: Path):
    value = json.loads(SAMPLE.read_text())
    value["timeline"] += [5, "hologram", {"id": "x", "type": ["user"]}]
    path = tmp_path / "session.json"
    path.write_text(json.dumps(value, indent=2))
    (session,) = load_sessions(path)
    assert session.problems == (
        "2 timeline entries that are not JSON objects, kept as stored",
        "1 timeline entry of a type this reader does not know (\"['user']\"), kept as stored",
    )
    assert rendered_unchanged(path) == path.read_text()


def test_discovery_lists_the_older_folder_s_files(empty_home: Path, tmp_path: Path):
    folder = empty_home / ".copilot" / "history-session-state"
    folder.mkdir(parents=True)
    stored = Path(shutil.copy(SAMPLE, folder / f"session_{SESSION_ID}_1795844029837.json"))
    assert [(found.tool, found.path, found.project) for found in discover(empty_home, {})] == [
        ("Copilot CLI", stored, "")
    ]
    moved = tmp_path / "copilot" / "history-session-state"
    moved.mkdir(parents=True)
    elsewhere = Path(shutil.copy(SAMPLE, moved / stored.name))
    assert [found.path for found in discover(empty_home, {"COPILOT_HOME": str(tmp_path / "copilot")})] == [elsewhere]
