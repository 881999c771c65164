"""`inspector mcp` answered by the MCP SDK's own client over stdio, as an agent runs it: its tools
(all read-only), a reply checked, the person's sessions listed and scanned under a temporary home
holding every agent's sample, and bad input coming back as the tool's error in one line."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from inspector.cli.main import main
from tests.helpers.home_sessions import EVERY_AGENT, every_agent_s_session
from tests.helpers.samples import SESSIONS, TOOL_SAMPLES

ANSWERED_WITHIN = 120  # seconds for a connection's calls: a server that hangs fails the test
SAVE_MEMORY = {"name": "save_memory", "input_schema": {"type": "object", "properties": {"content": {"type": "string"}}}}


@asynccontextmanager
async def connected() -> AsyncIterator[ClientSession]:
    """A client session with `python -m inspector mcp`, run with this test's environment (its home)."""
    server = StdioServerParameters(command=sys.executable, args=["-m", "inspector", "mcp"], env=dict(os.environ))
    async with stdio_client(server) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session


def ask(calls: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    """The results of the tool `calls`, made in order over one connection."""

    async def run() -> list[Any]:
        with anyio.fail_after(ANSWERED_WITHIN):
            async with connected() as session:
                return [await session.call_tool(name, arguments) for name, arguments in calls]

    return anyio.run(run)


def test_the_four_tools_are_listed_each_read_only():
    async def listed() -> Any:
        async with connected() as session:
            return await session.list_tools()

    tools = anyio.run(listed).tools
    assert sorted(tool.name for tool in tools) == ["check_reply", "findings", "list_sessions", "scan_session"]
    for tool in tools:
        assert tool.annotations.read_only_hint is True and tool.annotations.destructive_hint is False
        assert tool.description and tool.input_schema["type"] == "object"


def test_check_reply_finds_the_result_the_model_wrote_and_recovers_its_call():
    reply = '{success: true, content: "Met Ana at the cafe"}Noted, it is in your journal.'
    [result] = ask([("check_reply", {"text": reply, "tools": [SAVE_MEMORY]})])
    assert not result.is_error
    answer = result.structured_content
    assert answer["ok"] is False
    assert [finding["kind"] for finding in answer["findings"]] == ["result-prefix"]
    assert answer["repaired_text"] == "Noted, it is in your journal."
    assert answer["recovered_calls"] == [{"name": "save_memory", "arguments": {"content": "Met Ana at the cafe"}}]
    assert answer["reason"].startswith("Your reply contains a tool result you wrote yourself; no tool ran.")


def test_the_person_s_sessions_are_listed_by_agent_and_date(empty_home: Path):
    placed = every_agent_s_session(empty_home)
    everything, codex, none, bad = ask(
        [
            ("list_sessions", {}),
            ("list_sessions", {"agent": "codex"}),
            ("list_sessions", {"since": "2030-01-01T00:00:00"}),
            ("list_sessions", {"since": "yesterday"}),
        ]
    )
    listed = everything.structured_content
    assert sorted(entry["agent"] for entry in listed["sessions"]) == sorted(EVERY_AGENT)
    assert listed["more"] == 0
    assert [entry["path"] for entry in codex.structured_content["sessions"]] == [str(placed["Codex"])]
    assert none.structured_content["sessions"] == []
    assert bad.is_error
    assert bad.content[0].text.endswith("since: not a date and time in ISO 8601 ('yesterday')")


def test_a_scan_answers_what_scan_json_prints(empty_home: Path, capsys: pytest.CaptureFixture[str]):
    path = str(SESSIONS / "memory-agent.openai.json")
    scanned, latest, only = ask(
        [
            ("scan_session", {"path": path}),
            ("scan_session", {"path": "latest"}),
            ("findings", {"session": path, "kind": "result-prefix"}),
        ]
    )
    assert main(["scan", "--json", path]) == 1
    assert scanned.structured_content == json.loads(capsys.readouterr().out)
    assert latest.is_error and latest.content[0].text.endswith("no sessions of your own found: give a session's path")
    [session] = only.structured_content["sessions"]
    assert {finding["kind"] for finding in session["findings"]} == {"result-prefix"}
    assert len(session["findings"]) == 6


def test_latest_is_the_newest_of_the_person_s_sessions(empty_home: Path):
    placed = every_agent_s_session(empty_home)
    os.utime(placed["Qwen Code"], (1_800_000_000, 1_800_000_000))
    [result] = ask([("scan_session", {"path": "latest"})])
    [session] = result.structured_content["sessions"]
    assert (session["path"], session["format"]) == (str(placed["Qwen Code"]), "qwen-code")


def test_a_file_not_there_is_the_tool_s_error_in_one_line():
    [result] = ask([("scan_session", {"path": "/nowhere/session.jsonl"})])
    assert result.is_error
    assert result.content[0].text.endswith("/nowhere/session.jsonl: no such file or directory")


def test_an_agents_folder_is_scanned_as_its_sessions_and_an_empty_one_refused(empty_home: Path, tmp_path: Path):
    project = empty_home / ".claude" / "projects" / "-home-me-work"
    project.mkdir(parents=True)
    (project / "a.jsonl").write_bytes((TOOL_SAMPLES / "claude-code.jsonl").read_bytes())
    (empty_home / ".claude" / "settings.json").write_text('{"theme": "dark"}', encoding="utf-8")  # no session
    (tmp_path / "empty").mkdir()
    scanned, refused = ask(
        [("scan_session", {"path": str(empty_home / ".claude")}), ("scan_session", {"path": str(tmp_path / "empty")})]
    )
    assert not scanned.is_error and scanned.structured_content["errors"] == []
    assert [Path(session["path"]).name for session in scanned.structured_content["sessions"]] == ["a.jsonl"]
    assert refused.is_error and "empty: no session files" in refused.content[0].text
    assert "\n" not in refused.content[0].text


def test_a_pipe_is_refused_in_one_line_and_the_server_answers_on(tmp_path: Path):
    fifo = tmp_path / "session.jsonl"
    os.mkfifo(fifo)  # no writer: a read would wait for ever
    refused, checked = ask([("scan_session", {"path": str(fifo)}), ("check_reply", {"text": "Done."})])
    assert refused.is_error
    assert refused.content[0].text.endswith(f"{fifo}: not a regular file or folder, which are all the server reads")
    assert not checked.is_error and checked.structured_content["ok"] is True


def test_without_the_sdk_the_command_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch, capsys):
    monkeypatch.setitem(sys.modules, "mcp.server.mcpserver", None)  # as if the SDK were not installed
    monkeypatch.delitem(sys.modules, "inspector.mcp_server.server", raising=False)
    assert main(["mcp"]) == 2
    assert (
        capsys.readouterr().err == "inspector: error: the MCP server needs the MCP SDK: pip install 'inspector[mcp]'\n"
    )
