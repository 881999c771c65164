"""`inspector hook qwen-code` on Qwen Code's `SubagentStop` and on a chat file holding a
subagent's records: Qwen Code 0.24.4 gives the hook the subagent's `agent_id`
(`NAME-CALL`) and `agent_transcript_path` (the chat file, or the subagent's own JSON Lines file
for one in the background), and writes the subagent's records marked `isSidechain` with its
`agentId`. The chat files are the real sample Qwen Code wrote with the hook installed, with a
subagent's thread planted in it: its task, then a reply opening with a fake result."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.hooks.test_chat_file_hook import HOOKS, QWEN_BLOCK_RUN, QWEN_FAKE_RESULT_END, REASON_START, run_hook

CLEAN_CHAT = (HOOKS / "qwen-code-hook-clean.jsonl").read_bytes()
SESSION_ID = "078764aa-775f-4336-84e4-35465416a1d4"
AGENT_ID = "general-purpose-call_subagent"


def sidechain(agent_id: str = AGENT_ID) -> bytes:
    """The block sample's task and fake-result reply (its main-thread message records up to the
    reply) written as Qwen Code writes a subagent's records: `isSidechain`, its `agentId`, a
    chain of their own."""
    records = [json.loads(line) for line in QWEN_BLOCK_RUN[:QWEN_FAKE_RESULT_END]]
    parent = None
    lines = []
    for index, record in enumerate(records):
        uuid = f"{agent_id}-{index}"
        record.update(uuid=uuid, parentUuid=parent, isSidechain=True, agentId=agent_id, agentName="general-purpose")
        parent = uuid
        lines.append(json.dumps(record).encode() + b"\n")
    return b"".join(lines)


def subagent_stop_input(transcript: Path, agent_id: Any = AGENT_ID, active: bool = False) -> dict[str, Any]:
    """The input Qwen Code 0.24.4 gives a SubagentStop hook (`fireSubagentStopEvent`)."""
    return {
        "session_id": SESSION_ID,
        "transcript_path": str(transcript),
        "cwd": str(transcript.parent),
        "hook_event_name": "SubagentStop",
        "timestamp": "2026-11-28T06:00:00.000Z",
        "permission_mode": "default",
        "stop_hook_active": active,
        "agent_id": agent_id,
        "agent_type": "general-purpose",
        "agent_transcript_path": str(transcript),
        "last_assistant_message": "{success: true, ...}",
    }


def main_stop_input(transcript: Path) -> dict[str, Any]:
    """The input Qwen Code gives a Stop hook."""
    return {
        "session_id": SESSION_ID,
        "transcript_path": str(transcript),
        "cwd": str(transcript.parent),
        "hook_event_name": "Stop",
        "stop_hook_active": False,
        "last_assistant_message": "Saved.",
    }


def test_a_subagent_s_fake_result_blocks_its_own_stop_once(tmp_path, monkeypatch, capsys):
    chat = tmp_path / "chat.jsonl"
    chat.write_bytes(CLEAN_CHAT + sidechain())
    code, answer, err = run_hook(monkeypatch, capsys, subagent_stop_input(chat), "qwen-code")
    assert (code, err) == (0, "")
    assert answer is not None and answer["decision"] == "block" and answer["reason"].startswith(REASON_START)
    assert run_hook(monkeypatch, capsys, subagent_stop_input(chat, active=True), "qwen-code") == (0, None, "")
    assert run_hook(monkeypatch, capsys, subagent_stop_input(chat), "qwen-code") == (0, None, "")


def test_a_background_subagent_s_own_file_is_read(tmp_path, monkeypatch, capsys):
    own = tmp_path / "agent-general-purpose-call_subagent.jsonl"
    own.write_bytes(sidechain())
    code, answer, err = run_hook(monkeypatch, capsys, subagent_stop_input(own), "qwen-code")
    assert (code, err) == (0, "")
    assert answer is not None and answer["decision"] == "block"


def test_the_main_thread_s_finding_does_not_block_a_subagent(tmp_path, monkeypatch, capsys):
    chat = tmp_path / "chat.jsonl"
    chat.write_bytes(b"".join(QWEN_BLOCK_RUN[:QWEN_FAKE_RESULT_END]))
    assert run_hook(monkeypatch, capsys, subagent_stop_input(chat), "qwen-code") == (0, None, "")


def test_another_subagent_s_fake_result_is_not_this_one_s(tmp_path, monkeypatch, capsys):
    chat = tmp_path / "chat.jsonl"
    chat.write_bytes(CLEAN_CHAT + sidechain("explore-call_other"))
    assert run_hook(monkeypatch, capsys, subagent_stop_input(chat), "qwen-code") == (0, None, "")


def test_a_subagent_the_input_does_not_name_is_left(tmp_path, monkeypatch, capsys):
    chat = tmp_path / "chat.jsonl"
    chat.write_bytes(b"".join(QWEN_BLOCK_RUN[:QWEN_FAKE_RESULT_END]) + sidechain())
    for agent_id in (None, "", 7):
        assert run_hook(monkeypatch, capsys, subagent_stop_input(chat, agent_id), "qwen-code") == (0, None, "")


def test_the_main_thread_s_stop_ignores_a_subagent_s_records(tmp_path, monkeypatch, capsys):
    chat = tmp_path / "chat.jsonl"
    chat.write_bytes(CLEAN_CHAT)
    assert run_hook(monkeypatch, capsys, main_stop_input(chat), "qwen-code") == (0, None, "")
    chat.write_bytes(CLEAN_CHAT + sidechain())  # the subagent ran since: only its records are new
    assert run_hook(monkeypatch, capsys, main_stop_input(chat), "qwen-code") == (0, None, "")


def test_a_reply_qwen_code_writes_after_starting_the_hook_is_still_read(tmp_path, monkeypatch, capsys):
    """Qwen Code may start its Stop hook before it writes the reply's record: the hook waits (a
    few seconds at most) until the chat file holds the start of `last_assistant_message`."""
    import threading

    chat = tmp_path / "session.jsonl"
    chat.write_bytes(b"".join(QWEN_BLOCK_RUN[: QWEN_FAKE_RESULT_END - 1]))
    reply_record = json.loads(QWEN_BLOCK_RUN[QWEN_FAKE_RESULT_END - 1])
    reply_text = reply_record["message"]["parts"][0]["text"]

    def written_late() -> None:
        with chat.open("ab") as file:
            file.write(QWEN_BLOCK_RUN[QWEN_FAKE_RESULT_END - 1])

    late = threading.Timer(0.3, written_late)
    late.start()
    hook_input = {**main_stop_input(chat), "last_assistant_message": reply_text}
    code, answer, _ = run_hook(monkeypatch, capsys, hook_input, "qwen-code")
    late.join()
    assert code == 0 and answer is not None and answer["reason"].startswith(REASON_START)
