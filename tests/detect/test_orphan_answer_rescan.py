"""The answer inspector records for a call that was never answered is its own, not a tool's
error: a format that keeps the error flag (Anthropic's `is_error`) re-scans clean after the fix."""

import json

from inspector.cli.main import main
from inspector.scan.scanner import scan_file


def test_an_orphan_calls_recorded_answer_is_not_reported_as_a_tool_error(tmp_path):
    session = {
        "messages": [
            {"role": "user", "content": "Save that I ran 10k."},
            {
                "role": "assistant",
                "content": [
                    {"type": "tool_use", "id": "toolu_1", "name": "save_memory", "input": {"content": "ran 10k"}}
                ],
            },
            {"role": "user", "content": "Thanks!"},
            {"role": "assistant", "content": "Saved."},
        ]
    }
    path = tmp_path / "s.json"
    path.write_text(json.dumps(session))
    assert [f.kind for r in scan_file(path) for f in r.findings] == ["orphan-call"]
    out = tmp_path / "fixed.json"
    assert main(["fix", str(path), "--accept", "orphan-call", "-o", str(out)]) == 0
    written = json.loads(out.read_text())
    assert any(
        block.get("is_error")
        for message in written["messages"]
        if isinstance(message["content"], list)
        for block in message["content"]
        if block.get("type") == "tool_result"
    )
    assert [f.kind for r in scan_file(out) for f in r.findings] == []
