"""OpenHands conversations: `sessions/openhands-conversation/`, a conversation folder built from
the SDK's event models (see `sessions/generate/openhands.py`), opened by its folder or its
`base_state.json` and read into turns; the format is read-only."""

from __future__ import annotations

import json
import shutil

import pytest

from inspector.errors import InspectorError
from inspector.model import ASSISTANT, SYSTEM, TOOL, USER
from inspector.sources import FORMATS, load_sessions
from inspector.sources.files.document import read_document
from inspector.sources.files.openhands_conversation import read_conversation
from tests.helpers.frameworks import fix_all, other_samples
from tests.helpers.samples import TOOL_SAMPLES
from tests.helpers.scanning import finding_triples

FOLDER = TOOL_SAMPLES / "openhands-conversation"
STATE = FOLDER / "base_state.json"
PLANTED = [
    (2, "result-prefix", None),
    (4, "tool-markup", "terminal"),
    (6, "malformed-arguments", "terminal"),
    (7, "tool-error", "terminal"),
]


def test_the_conversation_is_openhands_and_its_state_alone_is_no_session_of_it():
    assert load_sessions(STATE)[0].format == "openhands"
    assert not FORMATS["openhands"].claims(read_document(STATE))  # base_state.json without its events


@pytest.mark.parametrize("path", other_samples("openhands"), ids=lambda p: p.name)
def test_openhands_claims_no_other_sample(path):
    assert not FORMATS["openhands"].claims(read_document(path))


def test_each_event_is_a_turn_in_the_order_of_its_index():
    (session,) = load_sessions(STATE)
    assert session.session_id == "3f2a9c4e-8b1d-4e6f-a5c7-2d9e0b1f4a68" and session.problems == ()
    roles = [turn.role for turn in session.turns]
    assert roles == [SYSTEM, USER, ASSISTANT, USER, ASSISTANT, USER, ASSISTANT, TOOL, ASSISTANT, TOOL, ASSISTANT]
    assert [tool.name for tool in session.tools] == ["terminal", "finish"]
    (broken,) = session.turns[6].tool_calls
    assert (broken.id, broken.arguments_raw, broken.arguments) == (
        "call_mock_broken",
        '{"command": "cat notes.txt"',
        None,
    )
    (error,) = session.turns[7].tool_results
    assert error.call_id == "call_mock_broken" and error.is_error and error.content.startswith("Error validating args")
    (good,) = session.turns[8].tool_calls
    assert (good.name, good.arguments) == ("terminal", {"command": "cat notes.txt"})
    (answer,) = session.turns[9].tool_results
    assert (answer.call_id, answer.is_error, answer.content) == (
        "call_mock_good",
        False,
        "Meeting moved to Thursday.\nBring the draft.\n",
    )
    assert {turn.model for turn in session.turns if turn.role == ASSISTANT} == {"openai/mock"}


def test_the_planted_problems_are_found_once_and_the_good_call_is_clean():
    assert finding_triples(STATE) == PLANTED


def test_the_folder_opens_as_its_conversation(capsys):
    from inspector.cli.main import main

    assert main(["scan", "--json", str(FOLDER)]) == 1
    (session,) = json.loads(capsys.readouterr().out)["sessions"]
    assert (session["format"], session["session_id"]) == ("openhands", "3f2a9c4e-8b1d-4e6f-a5c7-2d9e0b1f4a68")


def test_an_event_of_an_unknown_kind_is_counted_and_other_files_are_left_alone(tmp_path):
    folder = shutil.copytree(FOLDER, tmp_path / "conversation")
    first = sorted((folder / "events").iterdir())[1]
    event = json.loads(first.read_text(encoding="utf-8"))
    first.write_text(json.dumps({**event, "kind": "HologramEvent"}), encoding="utf-8")
    (folder / "events" / "notes.txt").write_text("not an event")
    (session,) = load_sessions(folder / "base_state.json")
    assert session.problems == ("1 event of an unknown kind not read as turns",)
    assert len(session.turns) == 10


def test_an_event_file_that_is_not_json_is_one_error_naming_it(tmp_path):
    folder = shutil.copytree(FOLDER, tmp_path / "conversation")
    broken = sorted((folder / "events").iterdir())[3]
    broken.write_text('{"kind": "MessageEvent", ')
    with pytest.raises(InspectorError, match=broken.name):
        read_conversation(folder / "base_state.json")


def test_fix_says_in_one_line_that_the_format_cannot_be_written(tmp_path, capsys):
    code, error = fix_all(STATE, tmp_path / "fixed.json", capsys)
    assert code == 2 and "openhands format cannot be written" in error and len(error.splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def test_fix_to_openai_accept_secret_exports_no_secret_planted_in_an_event(tmp_path, capsys):
    from inspector.cli.main import main

    token = "ghp_1111111111abcdefghijABCDEFGHIJ111111"
    folder = shutil.copytree(FOLDER, tmp_path / "conversation")
    observation = sorted((folder / "events").iterdir())[9]
    observation.write_text(observation.read_text(encoding="utf-8").replace("Bring the draft.", f"Bring {token}."))
    (session,) = load_sessions(folder / "base_state.json")
    assert token in session.turns[9].tool_results[0].content
    out = tmp_path / "out.json"
    assert main(["fix", str(folder / "base_state.json"), "--to", "openai", "--accept", "secret", "-o", str(out)]) in (
        0,
        1,
    )
    capsys.readouterr()
    assert out.exists() and token.encode() not in out.read_bytes()
