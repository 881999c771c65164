"""The rows a dataset scan on Spark writes for a warehouse (`--findings-out`), made from the
summaries of a real session file (no Spark needed: the executors make them in plain Python)."""

from __future__ import annotations

from inspector.scan.scanner import scan_file
from inspector.scan.spark.executor import Scanned
from inspector.scan.spark.warehouse import RATE_COLUMNS, rate_rows
from inspector.scan.summary import summarise

SEARCH = {
    "type": "function",
    "function": {"name": "web_search", "parameters": {"type": "object", "properties": {"query": {"type": "string"}}}},
}


def test_a_finding_naming_no_tool_gets_its_own_rate_row_beside_the_calls(write_session):
    path = write_session(
        [
            {"role": "user", "content": "Find the release notes."},
            {
                "role": "assistant",
                "content": "",
                "tool_calls": [
                    {
                        "id": "c1",
                        "type": "function",
                        "function": {"name": "web_search", "arguments": '{"query": "release notes"}'},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "c1", "content": "Release notes: 2.0 adds dark mode."},
            {"role": "assistant", "content": "Version 2.0 adds dark mode. Let me search for the date it shipped."},
        ],
        [SEARCH],
    )
    (result,) = scan_file(path)
    assert [finding.kind for finding in result.findings] == ["narrated-action"]
    assert result.findings[0].tool is None
    rows = list(rate_rows(Scanned(0, [summarise(result)])))
    columns = [name for name, _ in RATE_COLUMNS]
    tools = [(row[columns.index("tool")], row[columns.index("calls")]) for row in rows]
    assert tools == [("web_search", 1), (None, 0)]
    assert rows[1][columns.index("kinds")]["narrated-action"] == 1
