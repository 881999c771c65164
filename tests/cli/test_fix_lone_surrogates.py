"""A lone surrogate (a `\\ud800` escape in the file: UTF-8 cannot hold the character) is written
back by `fix` as the escape it was read from, in the repaired record and in those kept as they
were, and in the audit that quotes it."""

from __future__ import annotations

import json

from inspector.cli.main import main
from tests.helpers.samples import TOOL_SAMPLES
from tests.helpers.tools import SAVE_MEMORY

REPLY = '{success: true, memory_type: "journal", content: "odd \ud800 byte"}Saved \udfff for you.'


def test_a_json_session_keeps_its_lone_surrogates_as_escapes(write_session, tmp_path, capsys):
    messages = [
        {"role": "user", "content": "Journal this, lone half \udc00 included."},
        {"role": "assistant", "content": REPLY},
    ]
    out = tmp_path / "fixed.json"
    assert main(["fix", str(write_session(messages, [SAVE_MEMORY])), "--accept", "all", "-o", str(out)]) == 0
    assert "1 fix applied" in capsys.readouterr().out
    written = json.loads(out.read_bytes().decode("utf-8"))["messages"]
    assert written[0]["content"] == "Journal this, lone half \udc00 included."
    assert [message["role"] for message in written] == ["user", "assistant", "tool", "assistant"]
    assert json.loads(written[1]["tool_calls"][0]["function"]["arguments"])["content"] == "odd \ud800 byte"
    assert written[3]["content"] == "Saved \udfff for you."
    audit = [
        json.loads(line) for line in (tmp_path / "fixed.json.audit.ndjson").read_bytes().decode("utf-8").splitlines()
    ]
    assert audit[0]["before"] == REPLY


def test_a_json_lines_session_keeps_them_in_kept_and_repaired_lines(tmp_path, capsys):
    records = [
        json.loads(line) for line in (TOOL_SAMPLES / "claude-code.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    block = next(
        record["message"]["content"][0]
        for record in records
        if record.get("type") == "assistant" and str(record["message"]["content"][0].get("text", "")).startswith("{")
    )
    block["text"] = block["text"].replace("again.", "again \ud800.", 1).replace("You saw", "You \udfff saw", 1)
    kept = json.dumps({**records[0], "note": "\udfff"}, separators=(",", ":"))  # json writes the escape
    others = [json.dumps(record, separators=(",", ":")) for record in records[1:]]
    source = tmp_path / "s.jsonl"
    source.write_text("\n".join([kept, *others]) + "\n")
    out = tmp_path / "fixed.jsonl"
    assert main(["fix", str(source), "--accept", "result-prefix", "-o", str(out)]) == 1  # other kinds are left
    assert "1 fix applied" in capsys.readouterr().out
    written = out.read_bytes().decode("utf-8").splitlines()
    assert written[0] == kept  # byte for byte
    texts = [
        block.get("text", "")
        for record in map(json.loads, written)
        if record.get("type") == "assistant"
        for block in record["message"]["content"]
    ]
    assert "You \udfff saw right through me." in " ".join(texts)
    assert not any(text.startswith("{success") for text in texts)
