"""Kimi CLI context files: `sessions/kimi-cli.context.jsonl`, built from Kimi CLI's storage code
(see `sessions/generate/kimi_cli.py`), read into turns; the format is read-only."""

from __future__ import annotations

import json

import pytest

from inspector.model import ASSISTANT, TOOL, USER
from inspector.sources import FORMATS, load_sessions
from inspector.sources.files.document import read_document
from tests.helpers.frameworks import fix_all, format_read, other_samples, specific_claims
from tests.helpers.samples import TOOL_SAMPLES
from tests.helpers.scanning import finding_triples

CONTEXT = TOOL_SAMPLES / "kimi-cli.context.jsonl"
PLANTED = [(3, "result-prefix", None), (7, "tool-markup", "ReadFile"), (15, "tool-error", "Shell")]


def test_the_context_file_is_kimi_cli_and_no_other_specific_format_claims_it():
    assert specific_claims(CONTEXT) == ["kimi-cli"]
    assert format_read(CONTEXT) == "kimi-cli"


@pytest.mark.parametrize("path", other_samples("kimi-cli"), ids=lambda p: p.name)
def test_kimi_cli_claims_no_other_sample(path):
    assert not FORMATS["kimi-cli"].claims(read_document(path))


def test_messages_are_turns_and_kimi_records_are_kept_out_of_them():
    (session,) = load_sessions(CONTEXT)
    assert session.problems == ()
    assert [turn.role for turn in session.turns] == [USER, ASSISTANT] * 3 + [TOOL, ASSISTANT] * 2
    (good,) = session.turns[5].tool_calls
    assert (good.id, good.name, good.arguments) == ("ReadFile:0", "ReadFile", {"path": "notes.txt"})
    assert session.turns[5].text == "Reading notes.txt with the real tool."  # the think part is not text
    (answer,) = session.turns[6].tool_results
    assert (answer.call_id, answer.name, answer.is_error) == ("ReadFile:0", "ReadFile", False)
    (failed,) = session.turns[8].tool_results
    assert (failed.call_id, failed.name, failed.is_error) == ("Shell:1", "Shell", True)


def test_the_planted_problems_are_found_once_and_the_good_call_is_clean():
    assert finding_triples(CONTEXT) == PLANTED


def test_a_record_of_an_unknown_role_is_counted(tmp_path):
    lines = CONTEXT.read_text(encoding="utf-8").splitlines()
    lines.insert(2, json.dumps({"role": "_compaction", "summary": "earlier turns"}))
    path = tmp_path / "context.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    (session,) = load_sessions(path)
    assert session.problems == ("1 record of an unknown role not read as turns",)
    assert len(session.turns) == 10


def test_fix_says_in_one_line_that_the_format_cannot_be_written(tmp_path, capsys):
    code, error = fix_all(CONTEXT, tmp_path / "fixed.jsonl", capsys)
    assert code == 2 and "kimi-cli format cannot be written" in error and len(error.splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def test_a_role_that_is_no_string_is_counted_never_a_traceback(tmp_path):
    lines = CONTEXT.read_text(encoding="utf-8").splitlines()
    lines.insert(2, json.dumps({"role": ["user"], "content": "odd"}))
    path = tmp_path / "context.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    (session,) = load_sessions(path)
    assert session.problems == ("1 record of an unknown role not read as turns",)
