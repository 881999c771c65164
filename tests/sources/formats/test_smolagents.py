"""smolagents memories: `agent.memory.get_full_steps()` of a `ToolCallingAgent` run by smolagents
1.26 with a scripted `Model` (`sessions/smolagents.steps.json`, see
`sessions/generate/README.md`), read into turns; the format is read-only."""

from __future__ import annotations

import json

import pytest

from inspector.model import ASSISTANT, NOT_EXECUTED, TOOL, USER, WARNING
from inspector.repair.apply import apply_fixes
from inspector.scan.scanner import scan_file
from inspector.sources import FORMATS, load_sessions
from inspector.sources.files.document import read_document
from inspector.support.tools_file import load_tools_file
from tests.helpers.frameworks import fix_all, format_read, other_samples, specific_claims
from tests.helpers.samples import TOOL_SAMPLES
from tests.helpers.scanning import finding_triples

STEPS = TOOL_SAMPLES / "smolagents.steps.json"
# (b): smolagents itself parsed the Hermes JSON out of the text and ran it (the step's call has a
# uuid id); the scanner still reports the markup, as it does for any reply that prints a call.
PLANTED = [
    (1, "result-prefix", None),
    (5, "tool-markup", "read_file"),
    (10, "malformed-arguments", "read_file"),
    (11, "tool-error", "read_file"),
]


def test_the_memory_is_smolagents_and_no_other_specific_format_claims_it():
    assert specific_claims(STEPS) == ["smolagents"]
    assert format_read(STEPS) == "smolagents"


@pytest.mark.parametrize("path", other_samples("smolagents"), ids=lambda p: p.name)
def test_smolagents_claims_no_other_sample(path):
    assert not FORMATS["smolagents"].claims(read_document(path))


def test_tasks_are_user_turns_and_each_action_step_a_call_and_its_answer():
    (session,) = load_sessions(STEPS)
    assert session.problems == ()
    assert [t.role for t in session.turns[:4]] == [USER, ASSISTANT, ASSISTANT, TOOL]
    broken = session.turns[10]
    assert broken.id == "step 1" and broken.text == "Reading notes.txt with the real tool."
    (call,) = broken.tool_calls  # from the model's message: the step's own list is empty
    assert (call.id, call.arguments_raw, call.arguments) == ("call_mock_broken_cut", '{"file_path": "notes.txt"', None)
    (answer,) = session.turns[11].tool_results
    assert answer.is_error and answer.content.startswith("Error executing tool 'read_file'")
    good = session.turns[13].tool_results[0]
    assert (good.call_id, good.is_error, good.content) == (
        "call_mock_good",
        False,
        "Meeting moved to Thursday.\nBring the draft.",
    )


def test_the_planted_problems_are_found_once_and_the_good_call_is_clean():
    assert finding_triples(STEPS) == PLANTED


def test_fix_says_in_one_line_that_the_format_cannot_be_written(tmp_path, capsys):
    code, error = fix_all(STEPS, tmp_path / "fixed.json", capsys)
    assert code == 2 and "smolagents format cannot be written" in error and len(error.splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


READ_FILE = [
    {
        "type": "function",
        "function": {
            "name": "read_file",
            "parameters": {
                "type": "object",
                "properties": {"file_path": {"type": "string"}},
                "required": ["file_path"],
            },
        },
    }
]


@pytest.mark.parametrize("declared", [False, True], ids=["session-tools", "tools-file"])
def test_a_hermes_call_smolagents_ran_is_stripped_not_recovered(tmp_path, declared):
    """(b): smolagents parsed the Hermes call out of the reply and ran it, so the same turn holds
    it as a structured call with the same arguments: the markup is only stripped, never called
    "not executed" nor recovered as a second call (with or without a tools file)."""
    tools = ()
    if declared:
        path = tmp_path / "tools.json"
        path.write_text(json.dumps(READ_FILE), encoding="utf-8")
        tools = load_tools_file(path)
    (result,) = scan_file(STEPS, extra_tools=tools)
    (markup,) = [f for f in result.findings if f.kind == "tool-markup"]
    turn = result.session.turns[markup.turn]
    assert [(c.name, c.arguments) for c in turn.tool_calls] == [("read_file", {"file_path": "notes.txt"})]
    assert (markup.turn, markup.severity, markup.fix.add_calls) == (5, WARNING, ())
    assert "already makes" in markup.message and "nothing ran" not in markup.message
    repaired, _ = apply_fixes(result.session, result.findings)
    fixed = repaired.turns[5]
    assert fixed.text == "Let me read it." and len(fixed.tool_calls) == 1
    assert not any(NOT_EXECUTED in str(r.content) for t in repaired.turns for r in t.tool_results)
