"""Detector `malformed-arguments` on real session files: what it flags, how it repairs, and that
`fix` output re-scans clean."""

import json

import pytest

from inspector.cli.main import main
from inspector.model import ERROR, WARNING
from inspector.scan.scanner import scan_file
from tests.helpers.samples import TOOL_SAMPLES
from tests.helpers.scanning import findings_of

RUN_CODE = {
    "type": "function",
    "function": {
        "name": "run_code",
        "parameters": {"type": "object", "properties": {"code": {"type": "string"}}, "required": ["code"]},
    },
}
WRITE_FILE = {
    "type": "function",
    "function": {
        "name": "write_file",
        "parameters": {"type": "object", "properties": {"path": {"type": "string"}, "content": {"type": "string"}}},
    },
}


def _call(call_id, name, arguments):
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


def _session(arguments, name="run_code"):
    """A coding session whose one call stores `arguments` as its argument string, answered."""
    return [
        {"role": "system", "content": "You are a coding agent. Use run_code to run Python."},
        {"role": "user", "content": "Print hello, please."},
        {"role": "assistant", "content": "I'll run it.", "tool_calls": [_call("call_1", name, arguments)]},
        {"role": "tool", "tool_call_id": "call_1", "content": "Error: could not parse the arguments"},
        {"role": "assistant", "content": "The call failed; let me look."},
    ]


def test_seed_004_extra_closing_braces(write_session):
    raw = '{"code": "print(\'hello\')"}}}'
    (finding,) = findings_of(write_session(_session(raw), [RUN_CODE]), "malformed-arguments")
    assert (finding.turn, finding.severity, finding.tool) == (2, ERROR, "run_code")
    assert finding.arguments == {"code": "print('hello')"}
    assert finding.payload == {"raw": raw, "repairs": ["removed 2 extra closing braces"]}
    assert "removed 2 extra closing braces" in finding.message
    assert finding.fix.replace_arguments == ((0, {"code": "print('hello')"}),)
    assert finding.fix.add_calls == () and finding.fix.remove == ()


@pytest.mark.parametrize(
    "raw, expected, change",
    [
        ('```json\n{"code": "print(1)"}\n```', {"code": "print(1)"}, "fence"),
        (json.dumps(json.dumps({"code": "print(1)"})), {"code": "print(1)"}, "double encoding"),
        ('{"code": "print(1)", "timeout": 5,}', {"code": "print(1)", "timeout": 5}, "trailing commas"),
        ("{'code': 'print(1)'}", {"code": "print(1)"}, "single-quoted"),
        ('{code: "print(1)"}', {"code": "print(1)"}, "unquoted keys"),
        (
            '{"code": "print(1)", "verbose": True, "env": None}',
            {"code": "print(1)", "verbose": True, "env": None},
            "Python literals",
        ),
        ('{\n  // run it\n  "code": "print(1)"\n}', {"code": "print(1)"}, "comments"),
        ('{"code": "for i in range(3):\n\tprint(i)"}', {"code": "for i in range(3):\n\tprint(i)"}, "raw line breaks"),
        ('{"code": "print(1)"}{"code": "print(1)"}', {"code": "print(1)"}, "more than once"),
        ('{"code": "print(\'{}}\')"}}', {"code": "print('{}}')"}, "1 extra closing brace"),
        ('{"code": "print(1)"} (end of call)', {"code": "print(1)"}, "removed text after the object"),
    ],
)
def test_each_kind_of_damage_is_repaired_as_an_error_naming_the_change(write_session, raw, expected, change):
    (finding,) = findings_of(write_session(_session(raw), [RUN_CODE]), "malformed-arguments")
    assert finding.severity == ERROR
    assert finding.arguments == expected
    assert finding.fix.replace_arguments == ((0, expected),)
    assert change in finding.message
    assert any(change in repair for repair in finding.payload["repairs"])
    assert "GUESSED" not in finding.message


def test_fenced_seed_call_with_extra_braces_lists_both_changes(write_session):
    raw = '```json\n{"code": "print(\'hello\')"}}}}\n```'
    (finding,) = findings_of(write_session(_session(raw), [RUN_CODE]), "malformed-arguments")
    assert finding.payload["repairs"] == ["removed a ``` fence around the arguments", "removed 3 extra closing braces"]


def test_arguments_cut_off_are_completed_as_a_guess(write_session):
    raw = '{"path": "notes.md", "content": "line one\\nline tw'
    (finding,) = findings_of(write_session(_session(raw, "write_file"), [WRITE_FILE]), "malformed-arguments")
    assert finding.severity == WARNING
    assert "GUESSED" in finding.message and "cut off" in finding.message
    assert "an unfinished string and 1 object" in finding.message
    assert finding.arguments == {"path": "notes.md", "content": "line one\nline tw"}
    assert finding.fix is not None


def test_a_truncated_list_is_a_guess_too(write_session):
    raw = '{"code": "total = sum(xs)", "inputs": [1, 2, 3'
    (finding,) = findings_of(write_session(_session(raw), [RUN_CODE]), "malformed-arguments")
    assert finding.severity == WARNING
    assert "1 list and 1 object" in finding.message
    assert finding.arguments == {"code": "total = sum(xs)", "inputs": [1, 2, 3]}


def test_two_different_objects_keep_the_first_and_say_what_was_dropped(write_session):
    raw = '{"code": "print(1)"}{"code": "print(2)"}'
    (finding,) = findings_of(write_session(_session(raw), [RUN_CODE]), "malformed-arguments")
    assert finding.severity == WARNING
    assert finding.arguments == {"code": "print(1)"}
    assert finding.payload["dropped"] == '{"code": "print(2)"}'
    assert "kept the first" in finding.message and "print(2)" in finding.message


def test_syntax_only_json_repair_fixes_is_repaired_by_it(write_session):
    (finding,) = findings_of(
        write_session(_session('{"code": "print(1)" "timeout": 5}'), [RUN_CODE]), "malformed-arguments"
    )
    assert finding.severity == ERROR
    assert finding.arguments == {"code": "print(1)", "timeout": 5}
    assert all(repair.startswith("json-repair") for repair in finding.payload["repairs"])


@pytest.mark.parametrize("raw", ['"print hello"', "print('hello')", "[1, 2, 3]", "null"])
def test_arguments_that_hold_no_object_get_a_finding_without_a_fix(write_session, raw):
    (finding,) = findings_of(write_session(_session(raw), [RUN_CODE]), "malformed-arguments")
    assert finding.severity == ERROR and finding.fix is None and finding.arguments is None
    assert "could not be repaired" in finding.message
    assert finding.payload["raw"] == raw


def test_the_second_call_of_a_turn_is_replaced_by_its_own_index(write_session):
    messages = [
        {"role": "user", "content": "Run both."},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                _call("c1", "run_code", '{"code": "print(1)"}'),
                _call("c2", "run_code", "{'code': 'print(2)'}"),
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "1"},
        {"role": "tool", "tool_call_id": "c2", "content": "2"},
    ]
    (finding,) = findings_of(write_session(messages, [RUN_CODE]), "malformed-arguments")
    assert finding.fix.replace_arguments == ((1, {"code": "print(2)"}),)


def test_arguments_that_parse_stay_clean(write_session):
    messages = [
        {"role": "user", "content": "Go."},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                _call("c1", "run_code", '{"code": "print(1)"}'),
                _call("c2", "run_code", ""),
                _call("c3", "run_code", "{}"),
                _call("c4", "run_code", '  {"code": "x = {\\"a\\": 1}"}  '),
            ],
        },
        *({"role": "tool", "tool_call_id": f"c{i}", "content": "ok"} for i in range(1, 5)),
        {"role": "assistant", "content": "Done."},
    ]
    assert findings_of(write_session(messages, [RUN_CODE]), "malformed-arguments") == []


def test_fix_output_rescans_clean_and_stores_the_repaired_json(write_session, tmp_path, capsys):
    messages = _session('{"code": "print(\'hello\')"}}}}') + [
        {"role": "user", "content": "Now save it."},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [_call("call_2", "write_file", '{path: "hello.py", content: "print(\'hello\')",}')],
        },
    ]
    path = write_session(messages, [RUN_CODE, WRITE_FILE])
    out = tmp_path / "fixed.json"
    assert main(["fix", str(path), "--accept", "malformed-arguments,orphan-call", "-o", str(out)]) == 0
    assert "3 fixes applied" in capsys.readouterr().out
    (result,) = scan_file(out)
    assert [f.kind for f in result.findings if f.kind in ("malformed-arguments", "orphan-call")] == []
    fixed = json.loads(out.read_text())["messages"]
    assert json.loads(fixed[2]["tool_calls"][0]["function"]["arguments"]) == {"code": "print('hello')"}
    assert json.loads(fixed[6]["tool_calls"][0]["function"]["arguments"]) == {
        "path": "hello.py",
        "content": "print('hello')",
    }
    assert fixed[7]["tool_call_id"] == "call_2" and "No result was recorded" in fixed[7]["content"]
    assert fixed[:2] == messages[:2] and fixed[3:6] == messages[3:6]


@pytest.mark.parametrize(
    ("sample", "turn", "tool", "error"),
    [
        # Copilot CLI 1.0.102 stores `{}` for the arguments and answers the call with its parser's error
        (
            "copilot-cli.events.jsonl",
            19,
            "view",
            "Expected property name or '}' in JSON at position 42 (line 1 column 43)",
        ),
        # Goose keeps neither the name nor the text: only its error, in place of the call
        ("goose.db", 5, None, "EOF while parsing an object at line 1 column 48"),
    ],
)
def test_a_call_whose_agent_kept_only_its_parse_error_says_so_and_quotes_it_whole(sample, turn, tool, error):
    """The error is not quoted as if it were the arguments the model wrote, nor cut short; there is no
    fix, and a call with no name is not named by an empty one."""
    (finding,) = [f for f in findings_of(TOOL_SAMPLES / sample, "malformed-arguments") if f.turn == turn]
    assert finding.fix is None and finding.arguments is None and finding.payload["arguments_lost"] is True
    assert finding.tool == tool
    assert error in finding.message
    opening = f"The {tool} call's" if tool else "A call's"
    assert finding.message.startswith(f"{opening} arguments did not parse, and the agent kept its parser's error")
    assert "could not be repaired" not in finding.message and "The  call" not in finding.message
