"""`fix --accept secret` on files the real tools wrote (Claude Code, Codex) with a token planted
in a tool result and in a call's arguments: the copy is read back in the same format, holds no
secret anywhere (a copy the tool keeps beside the result too), is the input with each secret
replaced by its mask (byte for byte on every line holding none), and scans with no `secret`
finding; the audit names each mask and a digest, never the secret. In an SQLite history the
rows holding a secret are rewritten masked."""

from __future__ import annotations

import json
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from inspector.cli.main import main
from inspector.scan.scanner import scan_file
from tests.helpers.samples import TOOL_SAMPLES

GITHUB = "ghp_1234567890abcdefghijABCDEFGHIJ123456"
OPENAI = "sk-proj-Abc123def456GHI789jkl012MNO345pqr678"
GOOGLE = "AIzaSyD-1234567890abcdefghijklmnopqrstu"

CLAUDE_CODE = (
    "claude-code.jsonl",
    {
        '"input":{"command":"echo hi","description":"Print hi"}': (
            f'"input":{{"command":"GH_TOKEN={GITHUB} echo hi","description":"Print hi"}}'
        ),
        '"content":"hi","is_error":false': f'"content":"hi\\nOPENAI_API_KEY={OPENAI}","is_error":false',
        '"toolUseResult":{"stdout":"hi"': f'"toolUseResult":{{"stdout":"hi\\nOPENAI_API_KEY={OPENAI}"',
    },
    {GITHUB: "[REDACTED:github-token]", OPENAI: "[REDACTED:openai-key]"},
)
CODEX = (
    "codex.rollout.jsonl",
    {
        '"id":"fc_mock_good_1","name":"exec_command","arguments":"{\\"cmd\\": \\"cat notes.txt\\"}"': (
            '"id":"fc_mock_good_1","name":"exec_command","arguments":'
            f'"{{\\"cmd\\": \\"cat notes.txt\\", \\"env\\": {{\\"GOOGLE_API_KEY\\": \\"{GOOGLE}\\"}}}}"'
        ),
        "Bring the draft.": f"Bring the draft. GH_TOKEN={GITHUB}",  # the result, and the event line copying it
    },
    {GOOGLE: "[REDACTED:google-api-key]", GITHUB: "[REDACTED:github-token]"},
)


def _planted(tmp_path: Path, name: str, plants: dict[str, str]) -> Path:
    text = (TOOL_SAMPLES / name).read_text(encoding="utf-8")
    for old, new in plants.items():
        assert old in text
        text = text.replace(old, new)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _secret_findings(path: Path) -> list:
    return [finding for result in scan_file(path) for finding in result.findings if finding.kind == "secret"]


@pytest.mark.parametrize("name, plants, masks", [CLAUDE_CODE, CODEX], ids=["claude-code", "codex"])
def test_fix_accept_secret_masks_the_file_and_keeps_every_other_byte(tmp_path, capsys, name, plants, masks):
    path = _planted(tmp_path, name, plants)
    (before,) = scan_file(path)
    assert len(_secret_findings(path)) == len(masks)
    out = tmp_path / f"out-{name}"
    assert main(["fix", str(path), "--accept", "secret", "-o", str(out)]) in (0, 1)
    written = out.read_text(encoding="utf-8")
    expected = path.read_text(encoding="utf-8")
    for secret, shown in masks.items():
        expected = expected.replace(secret, shown)
    # every line is the input's with each secret masked: byte for byte where the line holds no
    # secret, and as the same JSON where it holds one (its turn's writer may lay it out anew)
    planted = path.read_text(encoding="utf-8").splitlines()
    assert len(written.splitlines()) == len(planted)
    for old, new, want in zip(planted, written.splitlines(), expected.splitlines()):
        if old == want:
            assert new == old
        else:
            assert json.loads(new) == json.loads(want)
    (after,) = scan_file(out)
    assert after.session.format == before.session.format
    assert len(after.session.turns) == len(before.session.turns)
    assert _secret_findings(out) == []
    audit = out.with_name(out.name + ".audit.ndjson").read_text(encoding="utf-8")
    entries = [json.loads(line) for line in audit.splitlines()]
    assert [entry["kind"] for entry in entries] == ["secret"] * len(masks)
    assert sorted(m["mask"] for entry in entries for m in entry["masked"]) == sorted(masks.values())
    assert all(len(m["sha256"]) == 16 for entry in entries for m in entry["masked"])
    for secret in masks:
        assert secret not in audit and secret not in written


def test_the_audit_of_any_fix_on_a_masked_turn_holds_no_secret(tmp_path):
    path = tmp_path / "session.json"
    reply = '{success: true, memory_type: "fact", content: "key ' + OPENAI + '"} Saved your key ' + OPENAI + "."
    tools = [
        {
            "type": "function",
            "function": {
                "name": "save_memory",
                "parameters": {
                    "type": "object",
                    "properties": {"memory_type": {"type": "string"}, "content": {"type": "string"}},
                },
            },
        }
    ]
    path.write_text(
        json.dumps(
            {
                "messages": [{"role": "user", "content": "remember"}, {"role": "assistant", "content": reply}],
                "tools": tools,
            }
        )
    )
    out = tmp_path / "out.json"
    assert main(["fix", str(path), "--accept", "secret,result-prefix", "-o", str(out)]) in (0, 1)
    audit = out.with_name("out.json.audit.ndjson").read_text(encoding="utf-8")
    assert sorted(json.loads(line)["kind"] for line in audit.splitlines()) == ["result-prefix", "secret"]
    assert OPENAI not in audit and "[REDACTED:openai-key]" in audit
    assert OPENAI not in out.read_text(encoding="utf-8")


def test_fix_accept_secret_masks_the_rows_of_an_sqlite_history(tmp_path):
    path = tmp_path / "history.db"
    shutil.copy(TOOL_SAMPLES / "langchain.sql.db", path)
    with closing(sqlite3.connect(path)) as connection, connection:
        connection.execute(
            "UPDATE message_store SET message = replace(message, 'Bring the draft.', ?)",
            (f"Bring the draft. GH_TOKEN={GITHUB}",),
        )
    assert len(_secret_findings(path)) == 1
    out = tmp_path / "out.db"
    assert main(["fix", str(path), "--accept", "secret", "-o", str(out)]) in (0, 1)
    with closing(sqlite3.connect(out)) as connection:
        messages = [row[0] for row in connection.execute("SELECT message FROM message_store")]
        audit = json.dumps(list(connection.execute("SELECT * FROM inspector_fixes")))
    assert not any(GITHUB in message for message in messages)
    assert any("[REDACTED:github-token]" in message for message in messages)
    assert GITHUB not in audit
    assert _secret_findings(out) == []
