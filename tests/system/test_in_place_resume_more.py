"""A chat repaired where Gemini CLI, Qwen Code or Copilot CLI keeps it, `fix --in-place` leaving
its backup and audit beside it, is still resumed by the real CLI: Gemini CLI by id, by index and as
the latest session, its session retention sparing both files
(`sessions/generate/in_place_resume_gemini.py`); Qwen Code by id and with `--continue`
(`sessions/generate/in_place_resume_qwen.py`); GitHub Copilot CLI by id, by id prefix and with
`--continue` (`sessions/generate/in_place_resume_copilot.py`); the files are in `sessions/in-place/`.

Today's `fix --accept all --in-place` on the chat as the tool wrote it must give, byte for byte,
the lines the tool resumed from (the start of the file it left), and the same names beside it.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from inspector.cli.main import main
from inspector.sources import load_sessions
from tests.helpers.samples import TOOL_SAMPLES
from tests.system.test_in_place_resume import FAKE_RESULT, REPLY_KEPT, TURNS_RESUMED

IN_PLACE = TOOL_SAMPLES / "in-place"
TURN_BY_INDEX = "Resumed by index: still there?"
TURN_BY_PREFIX = "Resumed by an id prefix: still there?"

# sample name -> (the chat's folder under the temp HOME, its file name, the name written SESSION,
# the user turns resumed in order, the key of a request's history)
TOOLS = {
    "gemini-cli": (
        ".gemini/tmp/gmip-work/chats",
        "session-2026-11-29T01-03-b23dee33.jsonl",
        "session-2026-11-29T01-03-b23dee33.jsonl",
        (TURNS_RESUMED[0], TURN_BY_INDEX, TURNS_RESUMED[1]),
        "contents",
    ),
    "qwen-code": (
        ".qwen/projects/-tmp-qwip-work/chats",
        "9b911b40-df35-4f3c-b698-90482167c73d.jsonl",
        "9b911b40-df35-4f3c-b698-90482167c73d",
        TURNS_RESUMED,
        "messages",
    ),
    "copilot-cli": (
        ".copilot/session-state/5c30f2b7-0793-4045-b9f7-2edae1886879",
        "events.jsonl",
        "events.jsonl",
        (TURNS_RESUMED[0], TURN_BY_PREFIX, TURNS_RESUMED[1]),
        "messages",
    ),
}

SESSION_IDS = {
    "gemini-cli": "b23dee33-93f6-4af8-934b-ac1ef46e1a3f",
    "qwen-code": "9b911b40-df35-4f3c-b698-90482167c73d",
    "copilot-cli": "5c30f2b7-0793-4045-b9f7-2edae1886879",
}


def _fixed_in_place(tmp_path: Path, tool: str) -> Path:
    """A copy of the chat the tool wrote, named and placed as the tool keeps it, repaired in place today."""
    folder_name, file_name, _, _, _ = TOOLS[tool]
    folder = tmp_path / folder_name
    folder.mkdir(parents=True)
    chat = folder / file_name
    shutil.copy(IN_PLACE / f"{tool}.before.jsonl", chat)
    assert main(["fix", "--accept", "all", "--in-place", str(chat)]) == 0
    return chat


@pytest.mark.parametrize("tool", TOOLS)
def test_the_chat_the_tool_wrote_opens_with_a_fake_result(tool, capsys):
    assert main(["scan", str(IN_PLACE / f"{tool}.before.jsonl")]) == 1
    assert "result-prefix" in capsys.readouterr().out


@pytest.mark.parametrize("tool", TOOLS)
def test_fix_in_place_writes_exactly_what_the_tool_resumed_from(tool, tmp_path, capsys):
    chat = _fixed_in_place(tmp_path, tool)
    assert "no finding left" in capsys.readouterr().out
    repaired = chat.read_bytes()
    resumed = (IN_PLACE / f"{tool}.resumed.jsonl").read_bytes()
    assert resumed.startswith(repaired) and len(resumed) > len(repaired)
    assert chat.with_name(chat.name + ".bak").read_bytes() == (IN_PLACE / f"{tool}.before.jsonl").read_bytes()


@pytest.mark.parametrize("tool", TOOLS)
def test_fix_in_place_leaves_beside_the_chat_the_names_the_tool_was_resumed_with(tool, tmp_path, capsys):
    chat = _fixed_in_place(tmp_path, tool)
    as_session = TOOLS[tool][2]
    written = sorted(path.name.replace(as_session, "SESSION") for path in chat.parent.iterdir())
    listed = (IN_PLACE / f"{tool}.folder.txt").read_text(encoding="utf-8").splitlines()
    # (Copilot keeps more in a session's folder: the names of the session's own file and of what the fix wrote)
    assert written == [
        name for name in (n.replace(as_session, "SESSION") for n in listed) if name.startswith("SESSION")
    ]


@pytest.mark.parametrize("tool", TOOLS)
def test_the_resumed_turns_requests_carried_the_repaired_reply(tool):
    _, _, _, turns, history_key = TOOLS[tool]
    requests = json.loads((IN_PLACE / f"{tool}.resumed-requests.json").read_text(encoding="utf-8"))
    assert [request["turn"] for request in requests] == list(turns)
    for request in requests:
        history = json.dumps(request[history_key], ensure_ascii=False)
        assert FAKE_RESULT not in history.replace('\\"', '"') and REPLY_KEPT in history
    assert turns[0] in json.dumps(requests[-1][history_key])  # the last resume continued the turn by id


@pytest.mark.parametrize("tool", TOOLS)
def test_the_chat_the_tool_resumed_holds_the_new_turns_under_its_own_id(tool):
    turns = TOOLS[tool][3]
    (session,) = load_sessions(IN_PLACE / f"{tool}.resumed.jsonl")
    assert session.format == tool
    users = [turn.text for turn in session.turns if turn.role == "user"]
    assert users[-len(turns) :] == list(turns)
    lines = (IN_PLACE / f"{tool}.resumed.jsonl").read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines]
    ids = {record.get("sessionId") or (record.get("data") or {}).get("sessionId") for record in records}
    assert ids - {None} == {SESSION_IDS[tool]}
