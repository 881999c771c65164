"""The bundled sample sessions, end to end: what a scan finds, a faithful round trip, and a fix
whose output re-scans clean with every unexecuted call recovered."""

import json
import sqlite3

import pytest

from inspector.cli.main import main
from inspector.scan.scanner import scan_file
from inspector.sources import load_sessions, render_sessions
from tests.helpers.samples import SESSIONS

EXPECTED = {
    # (file, session id): [(turn, kind, tool, executed)]
    ("memory-agent.openai.json", None): [
        (6, "result-prefix", "save_memory", False),
        (8, "result-prefix", "save_memory", False),
        (14, "result-prefix", "save_memory", False),
        (14, "result-prefix", "save_memory", False),
        (20, "result-prefix", "whiteboard", True),
        (32, "result-prefix", "save_memory", False),
    ],
    ("support-agent.anthropic.json", None): [(9, "result-prefix", "issue_refund", False)],
    ("travel-agent.gemini.json", None): [(9, "result-prefix", "book_hotel", False)],
    ("quickstart.openai.jsonl", None): [(6, "result-prefix", "save_memory", False)],
    ("finetune.openai.jsonl", "line 1"): [],
    ("finetune.openai.jsonl", "line 2"): [(2, "result-prefix", "create_calendar_event", False)],
    ("finetune.openai.jsonl", "line 3"): [],
    ("coding-agent.dump.json", "ui_run_764686752e2f"): [
        (8, "tool-markup", "run_code", False),
        (10, "claimed-execution", "run_code", False),
        (12, "claimed-execution", None, False),
    ],
    ("clean.openai.json", None): [],
    ("rails-chat.rubyllm.db", "1"): [(5, "result-prefix", "save_memory", False)],
    ("rails-chat.rubyllm.db", "2"): [(1, "malformed-arguments", "save_memory", None)],
    ("rails-chat.rubyllm.db", "3"): [(1, "tool-markup", "whiteboard", False)],
    ("rails-chat.rubyllm.db", "4"): [],
    ("analyst-agent.openai.json", None): [
        (2, "malformed-arguments", "query_db", None),
        (6, "wrong-type", "query_db", None),
        (10, "invalid-argument", "create_chart", None),
        (14, "unknown-tool", "send_mail", None),
        (15, "tool-error", "send_mail", None),
        (16, "invalid-argument", "send_email", None),
        (16, "unknown-parameter", "send_email", None),
        (17, "tool-error", "send_email", None),
        (18, "claimed-success", "send_email", None),
        (20, "tool-markup", "create_chart", False),
        (22, "orphan-call", "query_db", None),
    ],
    ("notes-reader.gemini-cli.jsonl", "b680cadb-f2e8-4427-a8c6-6cfd1f65ee1c"): [
        (2, "result-prefix", None, None),
        (4, "tool-markup", "read_file", False),
        (7, "tool-error", "read_file", None),
    ],
    ("notes-agent.claude-code.jsonl", "75be298c-69f7-4eae-9118-77047fde8a3b"): [
        (5, "result-prefix", None, None),
        (9, "tool-markup", "Read", False),
        (13, "malformed-arguments", "Read", None),
        (15, "tool-error", "Read", None),
        (16, "malformed-arguments", "Bash", None),
        (17, "tool-error", "Bash", None),
    ],
    ("shell-agent.codex.jsonl", "01a20b89-3790-7752-a0ad-e1b340dd9094"): [
        (10, "result-prefix", None, None),
        (20, "tool-markup", "exec_command", False),
        (31, "malformed-arguments", "exec_command", None),
        (35, "malformed-arguments", "exec_command", None),
    ],
    ("notes-agent.openai-responses.json", None): [
        (1, "result-prefix", None, None),
        (3, "tool-markup", "read_file", False),
        (6, "malformed-arguments", "read_file", None),
        (8, "malformed-arguments", "read_file", None),
    ],
    ("notes-agent.ag2.json", None): [
        (1, "result-prefix", None, None),
        (3, "tool-markup", "read_file", False),
        (5, "malformed-arguments", "read_file", None),
    ],
    ("notes-agent.haystack.json", None): [
        (2, "result-prefix", None, None),
        (4, "tool-markup", "read_file", False),
        (7, "tool-error", "read_file", None),
    ],
    ("notes-agent.autogen.json", None): [
        (1, "result-prefix", None, None),
        (3, "tool-markup", "read_file", False),
        (5, "malformed-arguments", "read_file", None),
        (6, "tool-error", "read_file", None),
    ],
    ("notes-agent.agents-sdk.db", "demo"): [
        (1, "result-prefix", None, None),
        (3, "tool-markup", "read_file", False),
        (6, "malformed-arguments", "read_file", None),
        (8, "malformed-arguments", "read_file", None),
    ],
    ("notes-agent.langchain.json", None): [
        (2, "result-prefix", None, None),
        (4, "tool-markup", "read_file", False),
        (6, "malformed-arguments", "read_file", None),
        (6, "malformed-arguments", "read_file", None),
        (6, "orphan-call", "read_file", None),
        (6, "orphan-call", "read_file", None),
    ],
    ("notes-agent.langchain-dumpd.json", None): [
        (2, "result-prefix", None, None),
        (4, "tool-markup", "read_file", False),
        (6, "malformed-arguments", "read_file", None),
        (6, "malformed-arguments", "read_file", None),
        (6, "orphan-call", "read_file", None),
        (6, "orphan-call", "read_file", None),
    ],
    ("notes-agent.langchain-sql.db", "demo"): [
        (2, "result-prefix", None, None),
        (4, "tool-markup", "read_file", False),
        (6, "malformed-arguments", "read_file", None),
        (6, "malformed-arguments", "read_file", None),
        (6, "orphan-call", "read_file", None),
        (6, "orphan-call", "read_file", None),
    ],
    ("notes-agent.langchain-sql.db", "small-talk"): [],
    ("notes-agent.pydantic-ai.json", None): [
        (1, "result-prefix", None, None),
        (3, "tool-markup", "read_file", False),
        (5, "malformed-arguments", "read_file", None),
        (6, "tool-error", "read_file", None),
        (7, "malformed-arguments", "read_file", None),
        (8, "tool-error", "read_file", None),
    ],
    ("notes-agent.ai-sdk-model.json", None): [
        (1, "result-prefix", None, None),
        (3, "tool-markup", "read_file", False),
        (6, "tool-error", "read_file", None),
        (8, "tool-error", "read_file", None),
    ],
    ("notes-agent.ai-sdk-ui.json", None): [
        (1, "result-prefix", None, None),
        (3, "tool-markup", "read_file", False),
        (5, "malformed-arguments", "read_file", None),
        (6, "tool-error", "read_file", None),
        (7, "malformed-arguments", "read_file", None),
        (8, "tool-error", "read_file", None),
    ],
    ("notes-agent.litellm.jsonl", "notes-agent-litellm"): [
        (2, "result-prefix", None, None),
        (4, "tool-markup", "read_file", False),
        (6, "malformed-arguments", "read_file", None),
        (8, "malformed-arguments", "read_file", None),
    ],
    ("notes-agent.langfuse.json", "7f3c2a1e-5b6d-4e8f-9a0b-1c2d3e4f5a6b"): [
        (2, "result-prefix", None, None),
        (4, "tool-markup", "read_file", False),
        (6, "malformed-arguments", "read_file", None),
        (8, "malformed-arguments", "read_file", None),
    ],
    ("notes-agent.langsmith.json", "6cedb8a6-3d2b-4489-b74b-fa1a1f67dd95"): [
        (2, "result-prefix", None, None),
        (4, "tool-markup", "read_file", False),
        (6, "malformed-arguments", "read_file", None),
        (7, "tool-error", "read_file", None),
        (8, "malformed-arguments", "read_file", None),
        (9, "tool-error", "read_file", None),
    ],
    ("notes-agent.otel.json", "41d14dfb896928f134e6bde303c969ca"): [
        (2, "result-prefix", None, None),
        (4, "tool-markup", "read_file", False),
        (6, "malformed-arguments", "read_file", None),
        (8, "malformed-arguments", "read_file", None),
    ],
    ("notes-agent.inspect-ai.eval", "notes/epoch 1"): [
        (1, "result-prefix", None, None),
        (3, "tool-markup", "read_file", False),
        (5, "malformed-arguments", "read_file", None),
        (6, "tool-error", "read_file", None),
    ],
    ("notes-agent.sharegpt.jsonl", "notes-hermes"): [
        (2, "result-prefix", None, None),
        (4, "malformed-arguments", "read_file", None),
    ],
    ("notes-agent.sharegpt.jsonl", "notes-unknown-tool"): [(2, "unknown-tool", "read_notes", None)],
    ("notes-agent.sharegpt.jsonl", "notes-function-call"): [],
}
# Logs and traces of model calls: scanned, never written back (`fix` refuses; `--to openai` exports them).
READ_ONLY = {
    "notes-agent.litellm.jsonl",
    "notes-agent.langfuse.json",
    "notes-agent.langsmith.json",
    "notes-agent.otel.json",
    "notes-agent.inspect-ai.eval",
}
SAMPLES = sorted({name for name, _ in EXPECTED})
WRITABLE_SAMPLES = [name for name in SAMPLES if name not in READ_ONLY]
TEXT_SAMPLES = [name for name in WRITABLE_SAMPLES if not name.endswith(".db")]  # a database: tests/sources/schemas/


def test_every_sample_is_listed():
    # besides the sessions, a folder of tool definitions for `--tools`: never read as a session
    assert sorted(p.name for p in SESSIONS.iterdir()) == sorted([*SAMPLES, "tools"])


def test_scan_of_the_sample_directory_finds_exactly_the_planted_prefixes(capsys):
    assert main(["scan", "--json", str(SESSIONS)]) == 1
    report = json.loads(capsys.readouterr().out)
    found = {
        (s["path"].rsplit("/", 1)[-1], s["session_id"]): [
            (f["turn"], f["kind"], f["tool"], f["executed"]) for f in s["findings"]
        ]
        for s in report["sessions"]
    }
    assert found == EXPECTED
    assert report["summary"]["findings"] == sum(map(len, EXPECTED.values()))
    formats = {s["path"].rsplit("/", 1)[-1]: s["format"] for s in report["sessions"]}
    assert formats["support-agent.anthropic.json"] == "anthropic"
    assert formats["travel-agent.gemini.json"] == "gemini"
    assert formats["coding-agent.dump.json"] == "session-dump"


@pytest.mark.parametrize("name", TEXT_SAMPLES)
def test_round_trip_without_fixes_is_faithful(name):
    path = SESSIONS / name
    text = render_sessions(load_sessions(path))
    original = path.read_text(encoding="utf-8")
    if name.endswith(".jsonl"):
        assert text == original
    else:
        assert json.dumps(json.loads(text)) == json.dumps(json.loads(original))


@pytest.mark.parametrize("name", WRITABLE_SAMPLES)
def test_fix_output_rescans_clean_of_every_fixed_kind(name, tmp_path, capsys):
    source = SESSIONS / name
    out = tmp_path / name
    if name in READ_ONLY:
        assert main(["fix", str(source), "--accept", "all", "-o", str(out)]) == 2
        assert "cannot be written" in capsys.readouterr().err and not out.exists()
        return
    before = scan_file(source)
    expected_code = 1 if any(f.fix is None for r in before for f in r.findings) else 0  # 1: findings left
    assert main(["fix", str(source), "--accept", "all", "-o", str(out)]) == expected_code
    after = scan_file(out)
    left = [[f.kind for f in r.findings] for r in after]
    assert left == [[f.kind for f in r.findings if f.fix is None] for r in before]
    assert [r.session.format for r in after] == [r.session.format for r in before]
    for old, new in zip(before, after):
        recovered = sum(len(f.fix.add_calls) for f in old.findings if f.fix is not None)
        assert _call_count(new) == _call_count(old) + recovered
        assert (
            sum(
                r.call_id is not None and "not executed" in str(r.content)
                for t in new.session.turns
                for r in t.tool_results
            )
            == recovered
        )
    if name.endswith(".db"):
        conn = sqlite3.connect(out)
        audit = conn.execute("SELECT * FROM inspector_fixes").fetchall()
        conn.close()
    else:
        audit = (tmp_path / (name + ".audit.ndjson")).read_text().splitlines()
    assert len(audit) == sum(f.fix is not None for r in before for f in r.findings)


def _call_count(result) -> int:
    return sum(len(turn.tool_calls) for turn in result.session.turns)
