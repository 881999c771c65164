"""Haystack chat histories: the `ChatMessage.to_dict()` list a Haystack Agent wrote
(`sessions/haystack.messages.json`, see `sessions/generate/README.md`),
whose `tool_call` / `tool_call_result` parts OpenAI's reading ignored, read as calls and results
and written back unchanged."""

from __future__ import annotations

import json

import pytest

from inspector.model import TOOL
from inspector.sources import FORMATS, load_sessions
from inspector.sources.files.document import read_document
from tests.helpers.frameworks import fix_all, format_read, other_samples, rendered_unchanged, specific_claims
from tests.helpers.samples import TOOL_SAMPLES
from tests.helpers.scanning import finding_triples

HISTORY = TOOL_SAMPLES / "haystack.messages.json"
# (c) is a wrong parameter name: Haystack arguments are an object, so the "malformed" call is
# the one its ToolInvoker answered with an error.
PLANTED = [(2, "result-prefix", None), (4, "tool-markup", "read_file"), (7, "tool-error", "read_file")]


def test_the_history_is_haystack_and_no_other_specific_format_claims_it():
    assert specific_claims(HISTORY) == ["haystack"]
    assert format_read(HISTORY) == "haystack"


@pytest.mark.parametrize("path", other_samples("haystack"), ids=lambda p: p.name)
def test_haystack_claims_no_other_sample(path):
    assert not FORMATS["haystack"].claims(read_document(path))


def test_call_and_result_parts_are_read_and_linked_by_origin():
    (session,) = load_sessions(HISTORY)
    assert session.problems == ()
    calls = [call for turn in session.turns for call in turn.tool_calls]
    assert [(c.id, c.arguments) for c in calls] == [
        ("call_mock_bad_param", {"path": "notes.txt"}),
        ("call_mock_good", {"file_path": "notes.txt"}),
    ]
    results = [r for turn in session.turns if turn.role == TOOL for r in turn.tool_results]
    assert [(r.call_id, r.name, r.is_error) for r in results] == [
        ("call_mock_bad_param", "read_file", True),
        ("call_mock_good", "read_file", False),
    ]


def test_reading_as_openai_ignored_the_call_parts_this_format_reads():
    (as_openai,) = load_sessions(HISTORY, "openai")
    (session,) = load_sessions(HISTORY)
    assert sum(len(t.tool_calls) for t in as_openai.turns) == 0
    assert sum(len(t.tool_calls) for t in session.turns) == 2


def test_older_underscore_keys_and_string_content_are_read(tmp_path):
    path = tmp_path / "old.json"
    path.write_text(
        json.dumps(
            [
                {"_role": "user", "_content": [{"text": "hi"}], "_meta": {}, "_name": None},
                {
                    "_role": "assistant",
                    "_content": [{"tool_call": {"tool_name": "f", "arguments": {}, "id": "c1"}}],
                    "_meta": {},
                    "_name": None,
                },
                {
                    "_role": "tool",
                    "_content": [
                        {
                            "tool_call_result": {
                                "result": "ok",
                                "origin": {"tool_name": "f", "arguments": {}, "id": "c1"},
                                "error": False,
                            }
                        }
                    ],
                    "_meta": {},
                    "_name": None,
                },
                {"role": "assistant", "content": "done", "meta": {}, "name": None},
            ]
        )
    )
    (session,) = load_sessions(path)
    assert session.format == "haystack" and session.problems == ()
    assert session.turns[2].tool_results[0].call_id == "c1" and session.turns[3].text == "done"


def test_the_planted_problems_are_found_once_and_the_good_call_is_clean():
    assert finding_triples(HISTORY) == PLANTED


def test_round_trip_unchanged_is_byte_identical():
    assert rendered_unchanged(HISTORY) == HISTORY.read_text(encoding="utf-8")


def test_fix_output_rereads_as_haystack_and_rescans_clean(tmp_path, capsys):
    out = tmp_path / "fixed.json"
    assert fix_all(HISTORY, out, capsys)[0] == 1
    assert format_read(out) == "haystack"
    assert finding_triples(out) == [(9, "tool-error", "read_file")]  # an error result is reported, not fixed
    fixed = json.loads(out.read_text())
    (recovered,) = [
        m for m in fixed if any(p.get("tool_call", {}).get("id", "").startswith("call_inspector") for p in m["content"])
    ]
    answer = fixed[fixed.index(recovered) + 1]["content"][0]["tool_call_result"]
    assert answer["origin"] == recovered["content"][0]["tool_call"] and answer["error"] is False
    assert fixed[-5:] == json.loads(HISTORY.read_text())[-5:]  # the good call and what follows are untouched
