"""A session's subagents, whose transcripts Claude Code, Gemini CLI and Kimi Code keep in files of
their own beside it (Claude Code 2.0 beside the sessions, naming theirs), are found beside it (on
a temporary home folder only): `inspector scan` with
no path and the search index read them after it, so a subagent's fake tool result is reported as
the main agent's would be. The files are the ones Claude Code 2.1.332, Gemini CLI 0.61.0 and Kimi
Code 2.1.0 wrote."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from inspector.cli.main import main
from inspector.search.targets import index_targets
from inspector.sources.discovery import discover, subagents_of
from tests.helpers.home_sessions import put
from tests.helpers.samples import TOOL_SAMPLES

CLAUDE = TOOL_SAMPLES / "claude-code-subagent"
CLAUDE_ID = "96771fa5-273c-4ee7-9ace-b7f1e823acb7"
CLAUDE_AGENT = "agent-a2e34ec84a76856d1"
KIMI_SESSION = "session_43cbd41d-7876-411c-91c5-519f61e529c7"
OLDER = TOOL_SAMPLES / "claude-code-side-chains"
OLDER_ID = "65474567-12cf-4b70-a498-fd1867ce67ee"
OLDER_FAKE = "agent-ab83e6b.jsonl"  # the Task subagent's, whose reply is a fake Read result
GEMINI = TOOL_SAMPLES / "gemini-cli-subagent"
GEMINI_CHAT = next(GEMINI.glob("session-*.jsonl"))
GEMINI_SUBAGENT = next(GEMINI.glob("*/*.jsonl"))
QWEN = TOOL_SAMPLES / "qwen-code-subagent"  # a project's folder: chats/ and subagents/ (Qwen Code 0.24.4)
QWEN_CHAT = next(QWEN.glob("chats/*.jsonl"))


def _claude_project(home: Path) -> Path:
    """The project folder of a Claude Code session that ran one subagent, as Claude Code leaves it
    (the subagent's transcript and its `.meta.json` in `<session>/subagents/`), with an older
    version's side chain beside the session (`agent-*.jsonl`, naming no session in its place)."""
    project = home / ".claude" / "projects" / "-tmp-cc-work"
    shutil.copytree(CLAUDE, project)
    put(TOOL_SAMPLES / "claude-code.jsonl", project / "agent-0ld51de.jsonl", 1_700_000_000)
    return project


def _kimi_session(home: Path) -> Path:
    """A Kimi Code session folder after a delegating turn: the main agent's and a subagent's wire files."""
    folder = home / ".kimi-code" / "sessions" / "wd_proj_72a12d5a82f4" / KIMI_SESSION
    put(TOOL_SAMPLES / "kimi-code.delegating.wire.jsonl", folder / "agents" / "main" / "wire.jsonl", 1_700_000_100)
    put(TOOL_SAMPLES / "kimi-code.subagent.wire.jsonl", folder / "agents" / "agent-0" / "wire.jsonl", 1_700_000_100)
    (folder / "state.json").write_text(json.dumps({"id": KIMI_SESSION, "cwd": "/home/me/proj"}))
    return folder


def test_an_older_claude_code_session_s_subagents_are_the_side_chains_beside_it_that_name_it(empty_home: Path):
    project = empty_home / ".claude" / "projects" / "-tmp-cc-work"
    shutil.copytree(OLDER, project)  # Claude Code 2.0.77: a Task subagent's and three warm-up agents'
    put(TOOL_SAMPLES / "claude-code.jsonl", project / "agent-0f0e0d.jsonl", 1_700_000_000)  # another session's
    (found,) = discover(empty_home, {})
    assert found.path == project / f"{OLDER_ID}.jsonl"
    assert subagents_of(found) == tuple(sorted(project / path.name for path in OLDER.glob("agent-*.jsonl")))
    (project / "agent-0ld.jsonl").write_bytes((OLDER / OLDER_FAKE).read_bytes())  # added since: listed again
    assert project / "agent-0ld.jsonl" in subagents_of(discover(empty_home, {})[0])


def _gemini_chats(home: Path) -> Path:
    """A project's chats folder after a delegating turn: the main chat, and the subagent's in the
    folder named by the main session's id."""
    chats = home / ".gemini" / "tmp" / "gm-work" / "chats"
    shutil.copytree(GEMINI, chats)
    return chats


def test_a_claude_code_session_s_subagents_are_the_transcripts_in_its_folder(empty_home: Path):
    project = _claude_project(empty_home)
    (found,) = discover(empty_home, {})
    assert found.path == project / f"{CLAUDE_ID}.jsonl"
    assert subagents_of(found) == (project / CLAUDE_ID / "subagents" / f"{CLAUDE_AGENT}.jsonl",)


def test_a_gemini_cli_chat_s_subagents_are_in_the_folder_its_session_id_names(empty_home: Path):
    chats = _gemini_chats(empty_home)
    (found,) = discover(empty_home, {})
    assert found.path == chats / GEMINI_CHAT.name
    assert subagents_of(found) == (chats / GEMINI_SUBAGENT.parent.name / GEMINI_SUBAGENT.name,)
    assert GEMINI_SUBAGENT.parent.name in GEMINI_CHAT.read_text().splitlines()[0]  # (the main session's id)


def test_a_session_id_naming_a_folder_elsewhere_names_no_subagent(empty_home: Path):
    chats = empty_home / ".gemini" / "tmp" / "p" / "chats"
    (chats / "another-session-id").mkdir(parents=True)  # (a chats folder where subagents ran)
    (chats.parent / "elsewhere").mkdir()
    shutil.copyfile(GEMINI_SUBAGENT, chats.parent / "elsewhere" / "planted.jsonl")
    first, *rest = GEMINI_CHAT.read_text().splitlines(keepends=True)
    record = json.loads(first)
    for hostile in ("../elsewhere", ".."):
        (chats / "session-x.jsonl").write_text(json.dumps({**record, "sessionId": hostile}) + "\n" + "".join(rest))
        (found,) = discover(empty_home, {})
        assert subagents_of(found) == ()


def test_scan_with_no_path_reports_what_a_subagent_faked(empty_home: Path, capsys):
    project = _claude_project(empty_home)
    older = shutil.copytree(OLDER, empty_home / ".claude" / "projects" / "-tmp-cc-older")
    kimi = _kimi_session(empty_home)
    chats = _gemini_chats(empty_home)
    assert main(["scan", "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    findings = {
        (Path(session["path"]).relative_to(empty_home).as_posix(), session["session_id"]): sorted(
            finding["kind"] for finding in session["findings"]
        )
        for session in report["sessions"]
    }
    claude = project.relative_to(empty_home).as_posix()
    wires = (kimi / "agents").relative_to(empty_home).as_posix()
    gemini = chats.relative_to(empty_home).as_posix()
    main_id, subagent_id = GEMINI_SUBAGENT.parent.name, GEMINI_SUBAGENT.stem
    warm_ups = {
        (f"{older.relative_to(empty_home).as_posix()}/{path.name}", f"{OLDER_ID}/{path.stem}"): []
        for path in OLDER.glob("agent-*.jsonl")
    }
    older_fake = (f"{older.relative_to(empty_home).as_posix()}/{OLDER_FAKE}", f"{OLDER_ID}/{Path(OLDER_FAKE).stem}")
    assert findings == {
        **warm_ups,
        older_fake: ["result-prefix"],
        (f"{older.relative_to(empty_home).as_posix()}/{OLDER_ID}.jsonl", OLDER_ID): ["relayed-fake-result"],
        (f"{gemini}/{GEMINI_CHAT.name}", main_id): [],
        (f"{gemini}/{main_id}/{GEMINI_SUBAGENT.name}", subagent_id): ["result-prefix"],
        (f"{claude}/{CLAUDE_ID}.jsonl", CLAUDE_ID): ["relayed-fake-result"],
        (f"{claude}/{CLAUDE_ID}/subagents/{CLAUDE_AGENT}.jsonl", f"{CLAUDE_ID}/{CLAUDE_AGENT}"): ["result-prefix"],
        (f"{wires}/main/wire.jsonl", KIMI_SESSION): ["relayed-fake-result"],
        (f"{wires}/agent-0/wire.jsonl", f"{KIMI_SESSION}/agent-0"): ["result-prefix"],
    }


def test_the_search_index_covers_the_subagents_transcripts(empty_home: Path):
    project = _claude_project(empty_home)
    targets = {target.path: (target.agent, target.project) for target in index_targets()}
    subagent = project / CLAUDE_ID / "subagents" / f"{CLAUDE_AGENT}.jsonl"
    assert targets[subagent] == targets[project / f"{CLAUDE_ID}.jsonl"]
    assert targets[subagent][0] == "Claude Code"


def test_a_qwen_code_chat_s_background_subagents_are_in_the_folder_its_id_names(empty_home: Path, capsys):
    project = empty_home / ".qwen" / "projects" / "-tmp-qs-work"
    shutil.copytree(QWEN, project)
    (found,) = discover(empty_home, {})
    assert found.path == project / "chats" / QWEN_CHAT.name
    assert subagents_of(found) == tuple(sorted((project / "subagents" / QWEN_CHAT.stem).glob("agent-*.jsonl")))
    assert main(["scan", "--json", "--no-cache"]) == 1
    sessions = json.loads(capsys.readouterr().out)["sessions"]
    assert [[finding["kind"] for finding in session["findings"]] for session in sessions] == [
        ["relayed-fake-result"],  # the main agent passed the made-up answer on
        ["result-prefix"],  # the subagent made it up
    ]
