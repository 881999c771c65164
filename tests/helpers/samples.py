"""Where the committed sample files are: the sessions bundled with the package, the files the real
tools wrote (`sessions/`), and the documentation's pages."""

from __future__ import annotations

import shutil
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SESSIONS = ROOT / "inspector" / "samples"  # the bundled sample sessions
TOOL_SAMPLES = ROOT / "sessions"  # the files the real tools wrote (sessions/generate/README.md)
DOCS = ROOT / "docs"
LANGCHAIN_SQL = TOOL_SAMPLES / "langchain.sql.db"  # LangChain's SQLChatMessageHistory, session "demo"
# the names a committed session file ends with: JSON, JSON Lines, and the text logs some tools write
FILE_SUFFIXES = (".json", ".jsonl", ".md", ".txt", ".traj")

# the committed sample databases, each with the table and the column holding its messages' text
SAMPLE_DATABASES = [
    (SESSIONS / "notes-agent.agents-sdk.db", "agent_messages", "message_data"),
    (TOOL_SAMPLES / "agents-sdk.session.db", "agent_messages", "message_data"),
    (SESSIONS / "notes-agent.langchain-sql.db", "message_store", "message"),
    (TOOL_SAMPLES / "langchain.sql.db", "message_store", "message"),
    (SESSIONS / "rails-chat.rubyllm.db", "messages", "content"),
    (TOOL_SAMPLES / "opencode.db", "part", "data"),
    (TOOL_SAMPLES / "kilo.db", "part", "data"),
]


def copied(names: Iterable[str], source: Path, folder: Path) -> Path:
    """`folder` (made if missing) holding a copy of each file `names` names in `source`."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        shutil.copyfile(source / name, folder / name)
    return folder
