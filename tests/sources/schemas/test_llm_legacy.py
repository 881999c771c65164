"""`llm` before 0.32: its `responses`, `tool_calls` and `tool_results` tables, built as it
creates them, read into conversations with their calls and results."""

from __future__ import annotations

from inspector.sources import open_source
from tests.helpers.scanning import reported_findings
from tests.helpers.sqlite_histories import FAKE_SAVE, build_llm_legacy


def test_llm_before_0_32_reads_responses_calls_and_results(tmp_path, capsys):
    path = build_llm_legacy(tmp_path / "logs.db")
    session = open_source(path).session("01conv")
    assert session.format == "llm-legacy"
    assert [(t.role, t.text) for t in session.turns] == [
        ("system", "Be brief."),
        ("user", "Remember I like tea."),
        ("assistant", ""),
        ("tool", ""),
        ("assistant", "Saved."),
        ("user", "Journal that I walked."),
        ("assistant", FAKE_SAVE),
    ]
    assert session.turns[2].tool_calls[0].arguments == {"memory_type": "fact", "content": "Likes tea."}
    assert session.turns[3].tool_results[0].call_id == "tc1"
    assert [t.name for t in session.tools] == ["save_memory"]
    assert reported_findings(capsys, str(path)) == {"01conv": [(6, "result-prefix", "save_memory")]}
