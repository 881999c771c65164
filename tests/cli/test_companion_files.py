"""A folder scanned whole leaves out the files an agent keeps beside its sessions (a Claude Code
subagent's metadata, a Factory Droid session's settings, a Cline CLI session's metadata, a VS Code
task's metadata, Continue CLI's list of its sessions): they are not sessions, and said nothing of; a
file of such a name beside no such session is still read, and said to be no session."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from inspector.cli.main import main
from tests.helpers.samples import TOOL_SAMPLES

# What Claude Code 2.1.332 wrote beside a subagent's transcript (`<session>/subagents/`)
SUBAGENT_META = {
    "agentType": "general-purpose",
    "isBuiltIn": True,
    "launchedWithDefaults": True,
    "description": "Read notes",
    "toolUseId": "toolu_mock_agent",
    "spawnDepth": 1,
    "requestShape": "background",
    "requestNonInteractive": True,
    "model": "claude-sonnet-4-5",
    "modelNotNamed": True,
    "pickedEffortModel": "claude-sonnet-4-5",
    "finished": True,
}
SETTINGS = {
    "model": "custom:mock",
    "reasoningEffort": "none",
    "autonomyLevel": "high",
    "tokenUsage": {"inputTokens": 10},
}

FOLDERS = {  # a session sample, the name it takes, and the companion beside it
    "claude-code-subagent": ("claude-code.jsonl", "agent-a1b2c3d4e5f6a7b8c.jsonl", "agent-a1b2c3d4e5f6a7b8c.meta.json"),
    "factory-droid": ("factory-droid.jsonl", "5f0c.jsonl", "5f0c.settings.json"),
    "cline-cli": ("cline.messages.json", "1767.messages.json", "1767.json"),
    "vscode-task": ("cline.api_conversation_history.json", "api_conversation_history.json", "task_metadata.json"),
}


def _scan(capsys, folder: Path) -> tuple[int, dict, str]:
    code = main(["scan", "--json", "--no-cache", str(folder)])
    out, err = capsys.readouterr()
    return code, json.loads(out), err


@pytest.mark.parametrize("kind", FOLDERS)
def test_a_session_s_companion_is_left_out_of_its_folder(kind, tmp_path, capsys):
    sample, name, companion = FOLDERS[kind]
    shutil.copyfile(TOOL_SAMPLES / sample, tmp_path / name)
    (tmp_path / companion).write_text(json.dumps(SUBAGENT_META if kind == "claude-code-subagent" else SETTINGS))
    code, report, err = _scan(capsys, tmp_path)
    assert err == "" and report["errors"] == []
    assert code == 1  # the sample's planted findings
    assert [Path(session["path"]).name for session in report["sessions"]] == [name]


def _continue_folder(folder: Path, listed: str) -> None:
    """Continue CLI's sessions folder: one session, and the list of sessions as Continue writes it."""
    session = json.loads((TOOL_SAMPLES / "continue.session.json").read_text(encoding="utf-8"))
    shutil.copyfile(TOOL_SAMPLES / "continue.session.json", folder / f"{session['sessionId']}.json")
    entry = {"sessionId": listed, "title": session.get("title"), "dateCreated": "1795834379268", "messageCount": 9}
    (folder / "sessions.json").write_text(json.dumps([entry], indent=2))


def test_continue_s_list_of_its_sessions_is_left_out_of_its_folder(tmp_path, capsys):
    session_id = json.loads((TOOL_SAMPLES / "continue.session.json").read_text(encoding="utf-8"))["sessionId"]
    _continue_folder(tmp_path, session_id)
    code, report, err = _scan(capsys, tmp_path)
    assert (code, err, report["errors"]) == (1, "", [])
    assert [Path(session["path"]).name for session in report["sessions"]] == [f"{session_id}.json"]


def test_a_list_naming_no_session_of_its_folder_is_still_read(tmp_path, capsys):
    _continue_folder(tmp_path, "another-session")
    code, _, err = _scan(capsys, tmp_path)
    assert code == 2 and "sessions.json: not a recognised session format (a JSON list)" in err


def test_a_file_named_like_a_companion_beside_no_session_is_still_read(tmp_path, capsys):
    shutil.copyfile(TOOL_SAMPLES / "claude-code.jsonl", tmp_path / "agent-a1.jsonl")
    (tmp_path / "agent-b2.meta.json").write_text(json.dumps(SUBAGENT_META))  # its session is not here
    code, report, err = _scan(capsys, tmp_path)
    assert code == 2
    assert "agent-b2.meta.json: not a recognised session format" in err
    assert [Path(session["path"]).name for session in report["sessions"]] == ["agent-a1.jsonl"]
