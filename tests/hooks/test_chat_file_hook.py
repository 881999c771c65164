"""`inspector hook gemini-cli` (Gemini CLI's AfterAgent hook), `inspector hook qwen-code` (Qwen
Code's Stop hook) and `inspector hook codex` (Codex's Stop hook), run as the agent runs them (the
input as JSON on stdin, the decision read from stdout) on chat files cut from the ones Gemini CLI
0.61.0, Qwen Code 0.24.4 and Codex 0.169.0 wrote with the hook installed (`sessions/hooks/*-hook-block.jsonl`: a fake result, then the real call and the closing
reply after the block); and `hook install` on each agent's settings."""

from __future__ import annotations

import io
import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from inspector.cli.main import main
from tests.helpers.samples import TOOL_SAMPLES

HOOKS = TOOL_SAMPLES / "hooks"
BLOCK_RUN = (HOOKS / "gemini-cli-hook-block.jsonl").read_bytes().splitlines(keepends=True)
CLEAN_RUN = HOOKS / "gemini-cli-hook-clean.jsonl"
FAKE_RESULT_END = 6  # the lines up to the reply that opens with a fake result
QWEN_BLOCK_RUN = (HOOKS / "qwen-code-hook-block.jsonl").read_bytes().splitlines(keepends=True)
QWEN_FAKE_RESULT_END = 4
CODEX_BLOCK_RUN = (HOOKS / "codex-hook-block.jsonl").read_bytes().splitlines(keepends=True)
CODEX_FAKE_RESULT_END = 13
REASON_START = "Your reply contains a tool result you wrote yourself; no tool ran. (result-prefix: "
THEIRS = """{
  "model": {"name": "gemini-2.5-pro"},
  "hooks": {"AfterAgent": [{"matcher": "*", "hooks": [{"type": "command", "command": "notify-send done"}]}]}
}
"""


def after_agent_input(chat: Path, active: bool = False) -> dict[str, Any]:
    """The input Gemini CLI gives an AfterAgent hook."""
    return {
        "session_id": "ee216bdd-0000-4000-8000-000000000000",
        "transcript_path": str(chat),
        "cwd": str(chat.parent),
        "hook_event_name": "AfterAgent",
        "timestamp": "2026-11-28T05:59:16.200Z",
        "prompt": "Please save a journal memory.",
        "prompt_response": "{success: true, ...}",
        "stop_hook_active": active,
    }


def stop_input(chat: Path, active: bool = False) -> dict[str, Any]:
    """The input Qwen Code gives a Stop hook."""
    return {
        "session_id": "078764aa-775f-4336-84e4-35465416a1d4",
        "transcript_path": str(chat),
        "cwd": str(chat.parent),
        "hook_event_name": "Stop",
        "stop_hook_active": active,
        "last_assistant_message": "{success: true, ...}",
    }


def run_hook(monkeypatch, capsys, hook_input: Any, agent: str = "gemini-cli") -> tuple[int, dict[str, Any] | None, str]:
    """`inspector hook AGENT` with `hook_input` on stdin (JSON unless bytes)."""
    data = hook_input if isinstance(hook_input, bytes) else json.dumps(hook_input).encode()
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data)))
    code = main(["hook", agent])
    out, err = capsys.readouterr()
    return code, json.loads(out) if out.strip() else None, err


def test_a_fake_result_is_blocked_and_the_reply_after_the_block_is_left(tmp_path, monkeypatch, capsys):
    chat = tmp_path / "session.jsonl"
    chat.write_bytes(b"".join(BLOCK_RUN[:FAKE_RESULT_END]))
    code, answer, err = run_hook(monkeypatch, capsys, after_agent_input(chat))
    assert (code, err) == (0, "")
    assert answer is not None and answer["decision"] == "block"
    assert answer["reason"].startswith(REASON_START)
    with chat.open("ab") as file:  # Gemini CLI sends the reason, the model makes the real call
        file.write(b"".join(BLOCK_RUN[FAKE_RESULT_END:]))
    assert run_hook(monkeypatch, capsys, after_agent_input(chat, active=True)) == (0, None, "")


def test_qwen_code_a_fake_result_is_blocked_and_the_reply_after_the_block_is_left(tmp_path, monkeypatch, capsys):
    chat = tmp_path / "session.jsonl"
    chat.write_bytes(b"".join(QWEN_BLOCK_RUN[:QWEN_FAKE_RESULT_END]))
    code, answer, err = run_hook(monkeypatch, capsys, stop_input(chat), "qwen-code")
    assert (code, err) == (0, "")
    assert answer is not None and answer["decision"] == "block" and answer["reason"].startswith(REASON_START)
    with chat.open("ab") as file:
        file.write(b"".join(QWEN_BLOCK_RUN[QWEN_FAKE_RESULT_END:]))
    assert run_hook(monkeypatch, capsys, stop_input(chat, active=True), "qwen-code") == (0, None, "")
    assert run_hook(monkeypatch, capsys, stop_input(HOOKS / "qwen-code-hook-clean.jsonl"), "qwen-code") == (0, None, "")


def test_codex_a_fake_result_is_blocked_and_the_reply_after_the_block_is_left(tmp_path, monkeypatch, capsys):
    chat = tmp_path / "rollout.jsonl"
    chat.write_bytes(b"".join(CODEX_BLOCK_RUN[:CODEX_FAKE_RESULT_END]))
    code, answer, err = run_hook(monkeypatch, capsys, stop_input(chat), "codex")
    assert (code, err) == (0, "")
    assert answer is not None and answer["decision"] == "block" and answer["reason"].startswith(REASON_START)
    with chat.open("ab") as file:  # Codex sends the reason as a <hook_prompt>, the model makes the real call
        file.write(b"".join(CODEX_BLOCK_RUN[CODEX_FAKE_RESULT_END:]))
    assert run_hook(monkeypatch, capsys, stop_input(chat, active=True), "codex") == (0, None, "")
    assert run_hook(monkeypatch, capsys, stop_input(HOOKS / "codex-hook-clean.jsonl"), "codex") == (0, None, "")


def test_qwen_code_refuses_the_input_of_another_agent_s_event(monkeypatch, capsys):
    code, answer, err = run_hook(monkeypatch, capsys, after_agent_input(CLEAN_RUN), "qwen-code")
    assert (code, answer) == (0, None)
    assert err == "inspector hook: not the input of a Stop or SubagentStop hook\n"


def test_the_same_reply_is_never_blocked_twice(tmp_path, monkeypatch, capsys):
    chat = tmp_path / "session.jsonl"
    chat.write_bytes(b"".join(BLOCK_RUN[:FAKE_RESULT_END]))
    assert run_hook(monkeypatch, capsys, after_agent_input(chat))[1] is not None
    assert run_hook(monkeypatch, capsys, after_agent_input(chat)) == (0, None, "")


def test_a_clean_reply_is_left_alone(monkeypatch, capsys):
    assert run_hook(monkeypatch, capsys, after_agent_input(CLEAN_RUN)) == (0, None, "")


@pytest.mark.parametrize(
    ("hook_input", "said"),
    [
        (b"not json", "inspector hook: the hook's input is not JSON (Expecting value at line 1 column 1)"),
        ({"hook_event_name": "Stop", "session_id": "s", "transcript_path": "x"}, "inspector hook: not the input of"),
        (
            {"hook_event_name": "AfterAgent", "session_id": "s", "transcript_path": ""},
            "inspector hook: the input names",
        ),
        (
            {"hook_event_name": "AfterAgent", "session_id": "s", "transcript_path": "/no/such"},
            "inspector hook: /no/such: No such file or directory",
        ),
    ],
)
def test_bad_input_is_one_line_on_stderr_and_never_fails_the_agent(monkeypatch, capsys, hook_input, said):
    code, answer, err = run_hook(monkeypatch, capsys, hook_input)
    assert (code, answer) == (0, None)
    assert err.startswith(said) and err.count("\n") == 1


def gemini_settings() -> Path:
    return Path.home() / ".gemini" / "settings.json"


def test_install_merges_into_gemini_settings_and_uninstall_gives_the_file_back(monkeypatch, capsys):
    monkeypatch.delenv("GEMINI_CLI_HOME", raising=False)
    path = gemini_settings()
    path.parent.mkdir(parents=True)
    path.write_text(THEIRS)
    assert main(["hook", "status"]) == 1
    assert main(["hook", "install", "gemini-cli"]) == 0
    installed = json.loads(path.read_text())
    commands = [hook["command"] for entry in installed["hooks"]["AfterAgent"] for hook in entry["hooks"]]
    assert commands[0] == "notify-send done" and commands[1].endswith(" -m inspector.hooks gemini-cli")
    assert installed["model"] == {"name": "gemini-2.5-pro"}
    assert main(["hook", "install", "gemini-cli", "--user"]) == 0
    assert "already installed" in capsys.readouterr().out
    assert main(["hook", "status"]) == 0
    assert f"gemini-cli user: {path}: installed" in capsys.readouterr().out
    assert main(["hook", "uninstall", "gemini-cli"]) == 0
    assert path.read_text() == THEIRS


def test_install_merges_into_qwen_code_settings_and_uninstall_gives_the_file_back(monkeypatch, capsys):
    monkeypatch.delenv("QWEN_HOME", raising=False)
    path = Path.home() / ".qwen" / "settings.json"
    path.parent.mkdir(parents=True)
    path.write_text(THEIRS)
    assert main(["hook", "install", "qwen-code"]) == 0
    installed = json.loads(path.read_text())
    for event in ("Stop", "SubagentStop"):
        (command,) = [hook["command"] for entry in installed["hooks"][event] for hook in entry["hooks"]]
        assert command.endswith(" -m inspector.hooks qwen-code")
    assert installed["hooks"]["AfterAgent"] == json.loads(THEIRS)["hooks"]["AfterAgent"]
    assert main(["hook", "status"]) == 0
    assert f"qwen-code user: {path}: installed" in capsys.readouterr().out
    assert main(["hook", "uninstall", "qwen-code"]) == 0
    assert path.read_text() == THEIRS


def test_install_writes_codex_hooks_file_and_uninstall_removes_the_file_it_made(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "codex-home"))
    path = tmp_path / "codex-home" / "hooks.json"
    assert main(["hook", "install", "codex"]) == 0
    (entry,) = json.loads(path.read_text())["hooks"]["Stop"]
    assert entry["hooks"][0]["command"].endswith(" -m inspector.hooks codex")
    assert main(["hook", "status"]) == 0
    assert f"codex user: {path}: installed" in capsys.readouterr().out
    assert main(["hook", "uninstall", "codex"]) == 0
    assert not path.exists()


def test_the_installed_command_runs_the_hook_from_any_folder(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("GEMINI_CLI_HOME", raising=False)
    project = tmp_path / "project"
    project.mkdir()
    monkeypatch.chdir(project)
    main(["hook", "install", "gemini-cli", "--project"])
    settings = json.loads((project / ".gemini" / "settings.json").read_text())
    (command,) = [hook["command"] for entry in settings["hooks"]["AfterAgent"] for hook in entry["hooks"]]
    chat = tmp_path / "session.jsonl"
    chat.write_bytes(b"".join(BLOCK_RUN[:FAKE_RESULT_END]))
    done = subprocess.run(
        ["sh", "-c", command],
        cwd=tmp_path,
        input=json.dumps(after_agent_input(chat)),
        capture_output=True,
        text=True,
        env={**os.environ, "PATH": "/usr/bin:/bin"},
        timeout=60,
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert json.loads(done.stdout)["decision"] == "block"


def subagent_stop_input(rollout: Path | None, parent: Path) -> dict[str, Any]:
    """The input Codex gives a SubagentStop hook: the parent's rollout, and the subagent's own."""
    return {
        **stop_input(parent),
        "hook_event_name": "SubagentStop",
        "agent_id": "01a220cb-0000-7000-8000-00000000a9e7",
        "agent_type": "default",
        "agent_transcript_path": None if rollout is None else str(rollout),
        "model": "gpt-5-codex",
        "turn_id": "01a220cb-39e2-71d1-98cb-9196b15eaeef",
    }


def test_codex_a_subagent_s_fake_result_is_read_from_its_own_rollout(tmp_path, monkeypatch, capsys):
    rollout = tmp_path / "rollout-subagent.jsonl"
    rollout.write_bytes(b"".join(CODEX_BLOCK_RUN[:CODEX_FAKE_RESULT_END]))
    parent = HOOKS / "codex-hook-clean.jsonl"
    code, answer, err = run_hook(monkeypatch, capsys, subagent_stop_input(rollout, parent), "codex")
    assert (code, err) == (0, "")
    assert answer is not None and answer["decision"] == "block" and answer["reason"].startswith(REASON_START)
    assert run_hook(monkeypatch, capsys, stop_input(parent), "codex") == (0, None, "")  # the parent's own reply
    assert run_hook(monkeypatch, capsys, subagent_stop_input(None, parent), "codex") == (0, None, "")


def test_uninstall_codex_takes_out_a_hook_installed_on_stop_alone(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("CODEX_HOME", str(tmp_path))
    path = tmp_path / "hooks.json"
    command = "/old/venv/bin/python -m inspector.hooks codex"
    path.write_text(json.dumps({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": command}]}]}}))
    assert main(["hook", "uninstall", "codex"]) == 0
    assert json.loads(path.read_text()) == {}
