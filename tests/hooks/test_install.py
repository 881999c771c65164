"""`inspector hook install`, `uninstall` and `status` on Claude Code's settings: every other
setting kept, idempotent, the file given back byte for byte, and a command that runs from any
folder."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from inspector.cli.main import main
from tests.hooks.helpers import FAKE_RESULT_END, stop_input, write_lines

# A person's settings, laid out as they wrote them, with a Stop hook of their own.
THEIRS = """{
    "model": "opus",
    "permissions": {"allow": ["Bash(npm test:*)"]},
    "hooks": {
        "Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}],
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "guard"}]}]
    }
}
"""


def user_settings() -> Path:
    return Path(os.environ["CLAUDE_CONFIG_DIR"]) / "settings.json"


def commands(settings: dict, event: str) -> list[str]:
    return [hook["command"] for entry in settings["hooks"][event] for hook in entry["hooks"]]


def test_install_keeps_every_other_setting_and_uninstall_gives_the_file_back_byte_for_byte(capsys):
    path = user_settings()
    path.parent.mkdir(parents=True)
    path.write_text(THEIRS)
    assert main(["hook", "install"]) == 0
    installed = json.loads(path.read_text())
    ours = f"{sys.executable} -m inspector.hooks claude-code"
    assert commands(installed, "Stop") == ["notify-send done", ours]
    assert commands(installed, "SubagentStop") == [ours]
    assert (
        installed["model"] == "opus" and installed["hooks"]["PreToolUse"] == json.loads(THEIRS)["hooks"]["PreToolUse"]
    )
    assert path.with_name("settings.json.bak").read_text() == THEIRS
    once = path.read_bytes()
    assert main(["hook", "install", "claude-code", "--user"]) == 0
    assert path.read_bytes() == once  # idempotent
    assert "already installed" in capsys.readouterr().out
    assert main(["hook", "uninstall"]) == 0
    assert path.read_text() == THEIRS


def test_a_hook_installed_by_another_interpreter_is_pointed_at_this_one(capsys):
    path = user_settings()
    path.parent.mkdir(parents=True)
    stale = {"hooks": {event: [{"hooks": [{"type": "command", "command": "/gone/venv/bin/python -m inspector.hooks claude-code"}]}] for event in ("Stop", "SubagentStop")}}  # fmt: skip
    path.write_text(json.dumps(stale))
    assert main(["hook", "install"]) == 0
    settings = json.loads(path.read_text())
    assert (
        commands(settings, "Stop")
        == commands(settings, "SubagentStop")
        == [f"{sys.executable} -m inspector.hooks claude-code"]
    )


def test_uninstall_after_other_changes_removes_exactly_the_hook(capsys):
    path = user_settings()
    path.parent.mkdir(parents=True)
    path.write_text(THEIRS)
    main(["hook", "install"])
    changed = json.loads(path.read_text())
    changed["theme"] = "dark"
    path.write_text(json.dumps(changed))
    assert main(["hook", "uninstall"]) == 0
    assert json.loads(path.read_text()) == {**json.loads(THEIRS), "theme": "dark"}


def test_a_file_install_made_is_removed_by_uninstall_when_nothing_else_is_in_it(capsys):
    path = user_settings()
    assert main(["hook", "install"]) == 0
    assert path.exists()
    assert main(["hook", "uninstall"]) == 0
    assert not path.exists()
    assert "removed the file install had made" in capsys.readouterr().out


def test_a_file_install_made_and_the_person_filled_is_left(capsys):
    path = user_settings()
    main(["hook", "install"])
    path.write_text(json.dumps({**json.loads(path.read_text()), "model": "opus"}))
    assert main(["hook", "uninstall"]) == 0
    assert json.loads(path.read_text()) == {"model": "opus"}


def test_project_settings_are_the_current_folder_s(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["hook", "status"]) == 1
    assert main(["hook", "install", "--project"]) == 0
    assert (tmp_path / ".claude" / "settings.json").exists() and not user_settings().exists()
    assert main(["hook", "status"]) == 0
    out = capsys.readouterr().out
    assert f"project: {tmp_path / '.claude' / 'settings.json'}: installed" in out
    assert f"user: {user_settings()}: not installed" in out


def test_settings_that_are_not_json_are_one_line_exit_2_and_left_alone(capsys):
    path = user_settings()
    path.parent.mkdir(parents=True)
    path.write_text("{ not json")
    for action in ("install", "uninstall", "status"):
        assert main(["hook", action]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"inspector: error: {path}: not JSON (") and err.count("\n") == 1
    assert path.read_text() == "{ not json"


def test_the_installed_command_runs_the_hook_from_any_folder(tmp_path, capsys):
    main(["hook", "install"])
    (command,) = commands(json.loads(user_settings().read_text()), "Stop")
    transcript = write_lines(tmp_path / "session.jsonl", FAKE_RESULT_END)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    done = subprocess.run(
        ["sh", "-c", command],
        cwd=elsewhere,
        input=json.dumps(stop_input(transcript)),
        capture_output=True,
        text=True,
        env={**os.environ, "PATH": "/usr/bin:/bin"},
        timeout=60,
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert json.loads(done.stdout)["decision"] == "block"
