"""Open WebUI's `chat` table, built as it creates it: the branch shown read with its details
tags, and hostile content read in linear time."""

from __future__ import annotations

import json

import sqlite_utils

from inspector.sources import open_source
from tests.helpers.scanning import reported_findings
from tests.helpers.sqlite_histories import FAKE_SAVE, build_open_webui
from tests.helpers.timing import cpu_time


def test_open_webui_reads_the_shown_branch_and_its_details_tags(tmp_path, capsys):
    path = build_open_webui(tmp_path / "webui.db")
    session = open_source(path).session("c1")
    assert [(t.role, t.text) for t in session.turns] == [
        ("user", "Note that I like tea."),
        ("assistant", "Saving it.\nDone."),
        ("tool", ""),
        ("user", "Journal my walk."),
        ("assistant", FAKE_SAVE),
    ]
    (call,) = session.turns[1].tool_calls
    assert (call.id, call.name, call.arguments) == (
        "call_1",
        "save_memory",
        {"memory_type": "fact", "content": "Likes tea."},
    )
    assert session.turns[2].tool_results[0].content == "saved"
    assert reported_findings(capsys, str(path)) == {"c1": [(3, "result-prefix", "save_memory")]}


def test_open_webui_reads_hostile_content_in_linear_time(tmp_path):
    """Unclosed details tags and a long attribute word, as a model could write them: quadratic
    scanning took minutes on these; read (and their text kept) in well under a second."""
    unclosed = '<details type="tool_calls">' * 60_000
    long_word = '<details type="tool_calls" ' + "a" * 200_000 + ">x</details>"
    path = build_open_webui(tmp_path / "webui.db")
    chat = json.loads(sqlite_utils.Database(path).execute("SELECT chat FROM chat").fetchone()[0])
    chat["history"]["messages"]["a2"]["content"] = long_word + unclosed
    sqlite_utils.Database(path)["chat"].update("c1", {"chat": json.dumps(chat)})
    started = cpu_time()
    session = open_source(path).session("c1")
    assert cpu_time() - started < 2.0
    assert session.turns[4].text == unclosed and session.turns[4].tool_calls[0].name == ""
