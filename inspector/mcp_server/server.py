"""The MCP server: the tools of `answers`, each described for the model that calls it, served over
stdio by the MCP SDK's `MCPServer` (the `mcp` extra, imported here only). Every tool is read-only
(annotated so); an `InspectorError` comes back as the tool's error, in its one line."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations

from inspector import __version__
from inspector.errors import InspectorError
from inspector.mcp_server import answers

_READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)
_INSTRUCTIONS = (
    "Finds and repairs what goes wrong in LLM agents' tool calls. Call check_reply on a reply before "
    "telling the person something was done: it says whether the reply holds a tool result written "
    "as text (no tool ran), a tool call printed as text, malformed arguments, or a success claimed "
    "after a failed call, and what to do. list_sessions, scan_session and findings read the "
    "person's own agent sessions; nothing is ever written."
)


def build_server() -> MCPServer:
    """The server with its four read-only tools."""
    server = MCPServer("inspector", version=__version__, instructions=_INSTRUCTIONS, log_level="WARNING")

    @server.tool(annotations=_READ_ONLY, structured_output=True)
    def check_reply(
        text: str,
        tools: list[dict[str, Any]] | None = None,
        calls: list[dict[str, Any]] | None = None,
        results: list[dict[str, Any] | str] | None = None,
    ) -> dict[str, Any]:
        """Check a reply before it reaches the person. `text`: the reply; `calls`: the tool calls made
        in this exchange (OpenAI, Anthropic or Gemini shape); `results`: their results, in order;
        `tools`: the tool definitions offered. Returns ok, the findings, the repaired text, the calls
        recovered from the text (not run: make them for real) and the reason to act on."""
        with _said_as_tool_error():
            return answers.check_reply(text, tools, calls, results)

    @server.tool(annotations=_READ_ONLY, structured_output=True)
    def list_sessions(agent: str | None = None, since: str | None = None) -> dict[str, Any]:
        """The person's own agent sessions where each agent keeps them, newest first (at most 200):
        `agent` keeps one agent's (e.g. "Claude Code", "Codex"); `since` those modified since a
        date and time (ISO 8601)."""
        with _said_as_tool_error():
            return answers.list_sessions(agent, since)

    @server.tool(annotations=_READ_ONLY, structured_output=True)
    def scan_session(path: str) -> dict[str, Any]:
        """Scan a session file, a folder of them or a chat-history database (`latest`: the person's
        newest session): each session's findings with their proposed fixes, a summary by kind."""
        with _said_as_tool_error():
            return answers.scan_session(path)

    @server.tool(annotations=_READ_ONLY, structured_output=True)
    def findings(session: str, kind: str | None = None) -> dict[str, Any]:
        """The findings of one session (its path, or `latest`), each with its proposed fix; `kind`
        keeps one kind (e.g. "result-prefix", "tool-markup", "claimed-success")."""
        with _said_as_tool_error():
            return answers.findings(session, kind)

    return server


@contextmanager
def _said_as_tool_error() -> Iterator[None]:
    """Bad input (an `InspectorError`) sent back as the tool's error, in its one line."""
    try:
        yield
    except InspectorError as error:
        raise ToolError(str(error)) from None


def serve() -> None:
    """Serve the tools over stdio until the client closes the connection."""
    build_server().run("stdio")
