"""Checking a person's edit as they type, turning it into a fix, and previewing what a fix does."""

from __future__ import annotations

from dataclasses import replace

from inspector.model import ToolSpec
from inspector.repair.apply import apply_fixes
from inspector.review.edits import Edit, EditedCall, check_arguments, edited_fix, proposal
from inspector.scan.scanner import scan_file
from inspector.view.calls import CORRECTED_CALL, RECOVERED_CALL
from inspector.view.repaired_turn import fix_preview as preview
from tests.helpers.samples import SESSIONS
from tests.helpers.tools import SAVE_MEMORY

SPEC = ToolSpec("save_memory", SAVE_MEMORY["function"]["parameters"])


def test_valid_json_passes_the_schema():
    check = check_arguments('{"memory_type": "journal", "content": "ran 10k"}', SPEC)
    assert check.arguments == {"memory_type": "journal", "content": "ran 10k"} and check.error is None


def test_js_style_is_accepted_with_a_note():
    check = check_arguments("{memory_type: 'fact', content: 'Maya moves in March',}", SPEC)
    assert check.arguments == {"memory_type": "fact", "content": "Maya moves in March"}
    assert check.notes and "read as JS-style" in check.notes[0]


def test_broken_json_says_where():
    check = check_arguments('{"memory_type": "fact",,\n "content": "x"}', SPEC)
    assert check.arguments is None
    assert check.error.startswith("not JSON:") and "line 1, column 24" in check.error


def test_schema_violations_block_and_name_the_problem():
    enum = check_arguments('{"memory_type": "diary", "content": "x"}', SPEC)
    assert enum.arguments is None and "memory_type" in enum.error and "'diary' is not one of" in enum.error
    missing = check_arguments('{"memory_type": "fact"}', SPEC)
    assert missing.arguments is None and "'content' is a required property" in missing.error


def test_not_an_object_and_empty_are_refused():
    assert check_arguments('["a"]', SPEC).error == "the arguments must be an object, not an array"
    assert "empty" in check_arguments("  ", SPEC).error


def test_unknown_tool_checks_the_json_only():
    check = check_arguments('{"anything": 1}', None)
    assert check.arguments == {"anything": 1}
    assert "no schema is known" in check.notes[-1]


def test_preview_of_a_recovered_call():
    result = scan_file(SESSIONS / "memory-agent.openai.json")[0]
    finding = next(f for f in result.findings if f.turn == 6)
    turn = result.session.turn_at(6)
    shown = preview(finding, turn)
    assert shown.original == turn.text
    start, end = shown.suspect_spans[0]
    assert turn.text[start:end].startswith("{success: true")
    assert shown.after == turn.text[end:].lstrip()
    (call,) = shown.calls
    assert (call.name, call.origin) == ("save_memory", RECOVERED_CALL)
    assert call.changed == {"memory_type", "content"}


def test_preview_of_corrected_arguments_lists_the_repairs(write_session):
    path = write_session(
        [
            {"role": "user", "content": "Remember I ran 10k today."},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "c1",
                        "type": "function",
                        "function": {
                            "name": "save_memory",
                            "arguments": '{"memory_type": "journal", "content": "Ran 10k"}}}',
                        },
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "c1", "content": '{"success": true}'},
            {"role": "assistant", "content": "Saved."},
        ],
        [SAVE_MEMORY],
    )
    result = scan_file(path)[0]
    finding = next(f for f in result.findings if f.kind == "malformed-arguments")
    shown = preview(finding, result.session.turn_at(finding.turn))
    (call,) = shown.calls
    assert (call.origin, call.arguments) == (CORRECTED_CALL, {"memory_type": "journal", "content": "Ran 10k"})
    # the values are those the broken string held: no argument changed, only the two extra braces go
    assert call.changed == frozenset() and not call.diff
    (recorded,) = shown.recorded
    assert [recorded.arguments[start:end] for start, end, _ in recorded.faults] == ["}}"]
    assert any("closing brace" in repair for repair in shown.repairs)


def test_an_edit_of_corrected_arguments_replaces_them_and_is_applied(write_session):
    path = write_session(
        [
            {"role": "user", "content": "Journal: proud of Maya."},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "c1",
                        "type": "function",
                        "function": {
                            "name": "save_memory",
                            "arguments": "{'memory_type': 'journal', 'content': 'proud of Maya',}",
                        },
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "c1", "content": '{"success": true}'},
        ],
        [SAVE_MEMORY],
    )
    result = scan_file(path)[0]
    finding = next(f for f in result.findings if f.kind == "malformed-arguments")
    turn = result.session.turn_at(finding.turn)
    proposed = proposal(finding, turn)
    assert proposed.calls == (EditedCall("save_memory", {"memory_type": "journal", "content": "proud of Maya"}),)
    edit = Edit(proposed.text, (EditedCall("save_memory", {"memory_type": "fact", "content": "Maya is moving"}),))
    fix = edited_fix(finding, turn, edit)
    assert fix.summary.startswith("edited by hand (proposed: ")
    repaired, _ = apply_fixes(result.session, [replace(finding, fix=fix)])
    call = repaired.turn_at(finding.turn).tool_calls[0]
    assert call.arguments == {"memory_type": "fact", "content": "Maya is moving"}
