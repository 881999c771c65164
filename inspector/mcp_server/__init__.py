"""`inspector mcp`: an MCP server (stdio) through which an agent checks its own reply, and a person
asks their agent about their sessions: `check_reply`, `list_sessions`, `scan_session`, `findings`.

The answers (`answers.py`) are plain functions over the library, returning JSON values; only
`server.py` imports the MCP SDK (the `mcp` extra). Nothing here writes a file: every tool reads.
"""
