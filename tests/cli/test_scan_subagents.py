"""`inspector scan FOLDER` on a folder where Claude Code keeps a project's sessions (the files Claude
Code 2.1.332 wrote, under a temporary home folder): each session is followed by the transcripts of
the subagents it ran, which Claude Code keeps in a folder beside it, so a subagent's fake result is
reported; the same files copied where no agent keeps its sessions are read as the folder holds
them, the session alone. The session file scanned alone is reported alone, and a line on stderr
names its subagent's transcript with the command that reads it."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from inspector.cli.main import main
from inspector.cli.subagent_hint import SUBAGENT_FORMATS
from inspector.sources.discovery import AGENT_MODULES, AGENTS, agent_of_module
from inspector.sources.discovery.contract import Agent
from tests.helpers.samples import TOOL_SAMPLES

SESSION = "96771fa5-273c-4ee7-9ace-b7f1e823acb7"
SUBAGENT = f"{SESSION}/agent-a2e34ec84a76856d1"


def _scanned(folder: Path, capsys) -> list[tuple[str, str, list[str]]]:
    """(file name, session id, kinds found) of each session `scan --json FOLDER` reports."""
    code = main(["scan", "--json", "--no-cache", str(folder)])
    report = json.loads(capsys.readouterr().out)
    kinds = [finding["kind"] for session in report["sessions"] for finding in session["findings"]]
    assert code == (1 if kinds else 0)
    return [
        (Path(session["path"]).name, session["session_id"], [finding["kind"] for finding in session["findings"]])
        for session in report["sessions"]
    ]


def test_a_project_folder_is_scanned_with_its_sessions_subagents(empty_home: Path, capsys):
    project = empty_home / ".claude" / "projects" / "-tmp-cc-work"
    shutil.copytree(TOOL_SAMPLES / "claude-code-subagent", project)
    assert _scanned(project, capsys) == [
        (f"{SESSION}.jsonl", SESSION, ["relayed-fake-result"]),
        ("agent-a2e34ec84a76856d1.jsonl", SUBAGENT, ["result-prefix"]),
    ]


def test_a_transcript_kept_beside_its_session_as_older_versions_did_is_read_once_after_it(empty_home: Path, capsys):
    project = empty_home / ".claude" / "projects" / "-tmp-cc-work"
    project.mkdir(parents=True)
    sample = TOOL_SAMPLES / "claude-code-subagent"
    shutil.copy(sample / SESSION / "subagents" / "agent-a2e34ec84a76856d1.jsonl", project)  # listed first by name
    shutil.copy(sample / f"{SESSION}.jsonl", project)
    assert _scanned(project, capsys) == [
        (f"{SESSION}.jsonl", SESSION, ["relayed-fake-result"]),
        ("agent-a2e34ec84a76856d1.jsonl", SUBAGENT, ["result-prefix"]),
    ]


def test_a_copy_kept_where_no_agent_keeps_its_sessions_is_read_as_it_is(empty_home: Path, tmp_path: Path, capsys):
    copy = tmp_path / "copy"
    shutil.copytree(TOOL_SAMPLES / "claude-code-subagent", copy)
    assert _scanned(copy, capsys) == [(f"{SESSION}.jsonl", SESSION, ["relayed-fake-result"])]


def test_the_session_file_scanned_alone_names_its_subagent_s_transcript_on_stderr(empty_home: Path, capsys):
    project = empty_home / ".claude" / "projects" / "-tmp-cc-work"
    shutil.copytree(TOOL_SAMPLES / "claude-code-subagent", project)
    session, subagent = project / f"{SESSION}.jsonl", project / SESSION / "subagents" / "agent-a2e34ec84a76856d1.jsonl"

    assert main(["scan", "--no-cache", str(session)]) == 1  # the fake the subagent handed back
    out, err = capsys.readouterr()
    assert "1 session, 6 turns, 1 finding" in out
    assert err == (
        f"inspector: {SESSION}.jsonl ran 1 subagent, whose transcript its agent keeps beside it, not read here:"
        f" inspector scan {subagent}\n"
    )
    assert main(["scan", "--no-cache", str(session), str(subagent)]) == 1  # named too: read, nothing to say
    assert capsys.readouterr().err == ""
    assert main(["scan", "--json", "--no-cache", str(session)]) == 1  # a report for programs: as it was
    assert capsys.readouterr().err == ""


def test_the_formats_hinted_at_are_those_of_the_agents_keeping_subagents_apart():
    """Each agent whose plugin looks for its sessions' subagents (its `subagents` not the contract's
    default) reads its files as the format named as it is (`Claude Code`: `claude-code`), and the
    hint for a file of that format asks that agent's module."""
    keeping = [agent.name for agent in AGENTS if agent.subagents is not Agent.subagents]
    assert {name.lower().replace(" ", "-") for name in keeping} == set(SUBAGENT_FORMATS)
    for file_format, module in SUBAGENT_FORMATS.items():
        assert agent_of_module(module).name.lower().replace(" ", "-") == file_format


def test_the_hint_for_a_claude_code_file_asks_claude_code_alone(empty_home: Path):
    """Scanning one Claude Code file imports no other agent's plugin: the hint names its subagent
    all the same (in a process of its own, as the command runs, under the temporary home)."""
    project = empty_home / ".claude" / "projects" / "-tmp-cc-work"
    shutil.copytree(TOOL_SAMPLES / "claude-code-subagent", project)
    code = (
        "import sys\n"
        "from inspector.cli.main import main\n"
        "main(['scan', '--no-cache', sys.argv[1]])\n"
        "print('\\n'.join(sys.modules))"
    )
    run = subprocess.run(
        [sys.executable, "-c", code, str(project / f"{SESSION}.jsonl")], capture_output=True, text=True, check=True
    )
    assert (
        f"ran 1 subagent, whose transcript its agent keeps beside it, not read here: inspector scan {project / SESSION / 'subagents' / 'agent-a2e34ec84a76856d1.jsonl'}"
        in run.stderr
    )
    loaded = set(run.stdout.splitlines())
    plugins = {f"inspector.sources.discovery.{module}" for module in AGENT_MODULES}
    assert sorted(loaded & plugins) == ["inspector.sources.discovery.claude_code"]


def test_several_subagents_are_named_by_their_own_folder_and_beside_the_session_one_by_one(empty_home: Path, capsys):
    project = empty_home / ".claude" / "projects" / "-tmp-cc-work"
    shutil.copytree(TOOL_SAMPLES / "claude-code-subagent", project)
    subagents = project / SESSION / "subagents"
    shutil.copy(subagents / "agent-a2e34ec84a76856d1.jsonl", subagents / "agent-b2e34ec84a76856d1.jsonl")
    assert main(["scan", "--no-cache", str(project / f"{SESSION}.jsonl")]) == 1
    assert capsys.readouterr().err.endswith(
        f"ran 2 subagents, whose transcripts its agent keeps beside it, not read here: inspector scan {subagents}\n"
    )

    older = empty_home / ".claude" / "projects" / "-tmp-older"
    older.mkdir()
    shutil.copy(project / f"{SESSION}.jsonl", older)
    for each in subagents.glob("agent-*.jsonl"):
        shutil.copy(each, older)  # beside the session, as Claude Code kept them before 2.1
    assert main(["scan", "--no-cache", str(older / f"{SESSION}.jsonl")]) == 1
    named = f"{older / 'agent-a2e34ec84a76856d1.jsonl'} {older / 'agent-b2e34ec84a76856d1.jsonl'}"
    assert capsys.readouterr().err.endswith(f"not read here: inspector scan {named}\n")


def test_a_qwen_code_project_folder_is_scanned_with_its_background_subagents(empty_home: Path, capsys):
    """Qwen Code 0.24.4 keeps a background subagent's records under the project's `subagents/`."""
    project = empty_home / ".qwen" / "projects" / "-tmp-qs-work"
    shutil.copytree(TOOL_SAMPLES / "qwen-code-subagent", project)
    (chat,) = project.glob("chats/*.jsonl")
    (subagent,) = project.glob(f"subagents/{chat.stem}/agent-*.jsonl")
    expected = [
        (chat.name, chat.stem, ["relayed-fake-result"]),
        (subagent.name, f"{chat.stem}/{subagent.stem}", ["result-prefix"]),
    ]
    assert _scanned(project, capsys) == expected
    assert _scanned(project / "chats", capsys) == expected
    assert main(["scan", "--no-cache", str(chat)]) == 1
    assert capsys.readouterr().err.endswith(f"not read here: inspector scan {subagent}\n")
