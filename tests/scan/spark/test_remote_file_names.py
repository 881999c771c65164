"""A session file Spark's executors read elsewhere is named by its URI (a string, not a `Path`):
it is read into the same sessions, under the same ids, as the same bytes in a file on disk."""

import json

from inspector.scan.spark.executor import ScanOptions, scan_file_bytes
from tests.helpers.samples import SESSIONS

SAMPLE = SESSIONS / "notes-agent.claude-code.jsonl"


def _without_session_ids() -> bytes:
    """The bundled Claude Code sample with every `sessionId` null: the session is then named after
    its file."""
    events = [json.loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines() if line.strip()]
    for event in events:
        if "sessionId" in event:
            event["sessionId"] = None
    return "".join(json.dumps(event) + "\n" for event in events).encode("utf-8")


def test_a_claude_code_file_named_by_a_uri_takes_its_file_name_as_on_disk(tmp_path):
    data = _without_session_ids()
    on_disk = scan_file_bytes(tmp_path / "notes-agent.jsonl", data, ScanOptions())
    remote = scan_file_bytes("hdfs://cluster/logs/notes-agent.jsonl", data, ScanOptions())

    assert on_disk.error is None and remote.error is None
    assert [summary.session_id for summary in on_disk.summaries] == ["notes-agent"]
    assert [summary.session_id for summary in remote.summaries] == ["notes-agent"]
    assert [len(summary.findings) for summary in remote.summaries] == [
        len(summary.findings) for summary in on_disk.summaries
    ]
