"""SQLite histories of several conversations, one for each way a schema groups its conversations
(RubyLLM's chats, a mapped table's session column, Open WebUI's chats, `llm` 0.31's conversation
ids), to scan from their Nth conversation or on several processes."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.helpers.rubyllm import MISNAMED_CHAT, SEED_000_CHATS, build_rubyllm
from tests.helpers.sqlite_histories import build_generic, build_llm_legacy, build_open_webui

TURNS = {  # the `--table/--map` options reading `table_history`'s table
    "table": "turns",
    "mapping": {"role": "speaker", "content": "body", "session": "convo", "order": "turn_no"},
}


def rubyllm_history(path: Path) -> Path:
    """Seed 000's chats and a misnamed call: five RubyLLM conversations."""
    return build_rubyllm(path, [*SEED_000_CHATS, MISNAMED_CHAT])


def _more(path: Path, sql: str) -> Path:
    """The history with more conversations, copied from its rows by `sql`."""
    with sqlite3.connect(path) as conn:
        conn.executescript(sql)
    conn.close()
    return path


def table_history(path: Path) -> Path:
    """The home-grown `turns` table (read with `TURNS`) with each conversation copied twice more."""
    return _more(
        build_generic(path),
        "INSERT INTO turns SELECT turn_no, convo || '2', speaker, body FROM turns;"
        "INSERT INTO turns SELECT turn_no, upper(convo), speaker, body FROM turns;",
    )


def open_webui_history(path: Path) -> Path:
    """Open WebUI's chat `c1` with copies of it before and after."""
    return _more(
        build_open_webui(path),
        "INSERT INTO chat SELECT 'c0', user_id, title, chat, 0, updated_at, NULL, "
        "archived FROM chat WHERE id = 'c1';"
        "INSERT INTO chat SELECT 'c2', user_id, title, chat, 2, updated_at, NULL, "
        "archived FROM chat WHERE id = 'c1';",
    )


def llm_legacy_history(path: Path) -> Path:
    """`llm` 0.31's conversation with copies of it before and after."""
    return _more(
        build_llm_legacy(path),
        "INSERT INTO responses (id, model, prompt, system, response, conversation_id, "
        "datetime_utc) SELECT id || c.n, model, prompt, system, response, c.n, "
        "datetime_utc FROM responses, (SELECT '00a' AS n UNION SELECT '02b') c;",
    )
