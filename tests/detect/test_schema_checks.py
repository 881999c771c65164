"""The schema detectors (unknown-tool, invalid-argument, unknown-parameter, wrong-type) on real
OpenAI session files: what they flag, the fixes they offer, and the ambiguous cases with none."""

import json

from inspector.cli.main import main
from inspector.model import ERROR, WARNING
from inspector.scan.scanner import scan_file
from tests.helpers.scanning import findings_of
from tests.helpers.tools import SAVE_MEMORY, WHITEBOARD

SCHEMA_KINDS = ("unknown-tool", "invalid-argument", "unknown-parameter", "wrong-type")
SET_UNITS = {
    "type": "function",
    "function": {
        "name": "set_units",
        "parameters": {
            "type": "object",
            "properties": {
                "units": {"type": "string", "enum": ["metric", "imperial", "Metric-X"]},
                "count": {"type": "integer"},
                "tags": {"type": "array", "items": {"type": "string"}},
                "options": {"type": "object"},
                "verbose": {"type": "boolean"},
            },
            "required": ["units"],
            "additionalProperties": False,
        },
    },
}
TOOLS = [SAVE_MEMORY, WHITEBOARD, SET_UNITS]


def _session(write_session, *calls):
    tool_calls = [
        {"id": f"call_{i}", "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}
        for i, (name, args) in enumerate(calls)
    ]
    messages = [{"role": "user", "content": "Go."}, {"role": "assistant", "content": None, "tool_calls": tool_calls}]
    messages += [{"role": "tool", "tool_call_id": f"call_{i}", "content": "ok"} for i in range(len(calls))]
    return write_session(messages, TOOLS)


def test_valid_calls_give_no_finding(write_session):
    path = _session(
        write_session,
        ("save_memory", {"memory_type": "fact", "content": "x"}),
        ("set_units", {"units": "metric", "count": 3, "tags": ["a"], "verbose": True}),
    )
    assert findings_of(path, *SCHEMA_KINDS) == []


def test_wrong_types_are_converted_without_loss_and_listed(write_session):
    args = {"units": "metric", "count": "42", "tags": "solo", "options": '{"a": 1}', "verbose": "true"}
    (finding,) = findings_of(_session(write_session, ("set_units", args)), *SCHEMA_KINDS)
    assert (finding.kind, finding.severity, finding.turn) == ("wrong-type", WARNING, 1)
    fixed = {"units": "metric", "count": 42, "tags": ["solo"], "options": {"a": 1}, "verbose": True}
    assert finding.fix.replace_arguments == ((0, fixed),)
    assert "'count' is \"42\", expected integer" in finding.message
    assert "'count': \"42\" -> 42" in finding.message and "'verbose': \"true\" -> true" in finding.message


def test_number_where_string_expected_becomes_a_string(write_session):
    (finding,) = findings_of(
        _session(write_session, ("save_memory", {"memory_type": "fact", "content": 4.5})), *SCHEMA_KINDS
    )
    assert finding.fix.replace_arguments == ((0, {"memory_type": "fact", "content": "4.5"}),)


def test_lossy_type_has_no_fix(write_session):
    (finding,) = findings_of(
        _session(write_session, ("set_units", {"units": "metric", "count": "about 4"})), *SCHEMA_KINDS
    )
    assert finding.kind == "wrong-type" and finding.fix is None
    assert "No automatic fix" in finding.message


def test_enum_value_is_normalised_when_one_allowed_value_matches(write_session):
    (finding,) = findings_of(
        _session(write_session, ("save_memory", {"memory_type": "Journal", "content": "x"})), *SCHEMA_KINDS
    )
    assert (finding.kind, finding.severity) == ("invalid-argument", ERROR)
    assert "'memory_type' is \"Journal\", not one of" in finding.message
    assert finding.fix.replace_arguments == ((0, {"memory_type": "journal", "content": "x"}),)


def test_unmatched_enum_value_has_no_fix_and_punctuation_is_ignored(write_session):
    # "remove" matches no allowed action; "metricx" matches only "Metric-X" once punctuation is stripped
    path = _session(write_session, ("whiteboard", {"action": "remove"}), ("set_units", {"units": "metricx"}))
    first, second = findings_of(path, *SCHEMA_KINDS)
    assert first.kind == "invalid-argument" and first.fix is None
    assert second.fix.replace_arguments == ((1, {"units": "Metric-X"}),)


def test_enum_matching_two_allowed_values_has_no_fix(write_session):
    tool = {
        "type": "function",
        "function": {
            "name": "pick",
            "parameters": {
                "type": "object",
                "properties": {"mode": {"enum": ["dark-mode", "Dark Mode"]}},
                "required": ["mode"],
            },
        },
    }
    path = write_session(
        [
            {"role": "user", "content": "x"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {"id": "c", "type": "function", "function": {"name": "pick", "arguments": '{"mode": "DARKMODE"}'}}
                ],
            },
            {"role": "tool", "tool_call_id": "c", "content": "ok"},
        ],
        [tool],
    )
    (finding,) = findings_of(path, *SCHEMA_KINDS)
    assert finding.kind == "invalid-argument" and finding.fix is None


def test_unknown_parameter_is_renamed_to_the_missing_required_one(write_session):
    path = _session(write_session, ("save_memory", {"memory_type": "fact", "value": "Likes tea"}))
    found = {f.kind: f for f in findings_of(path, *SCHEMA_KINDS)}
    assert set(found) == {"unknown-parameter", "invalid-argument"}  # the unknown name and the missing one
    expected = ((0, {"memory_type": "fact", "content": "Likes tea"}),)
    assert found["unknown-parameter"].fix.replace_arguments == expected
    assert found["invalid-argument"].fix.replace_arguments == expected
    assert "Fix: replace the call's arguments: rename 'value' to 'content'" in found["unknown-parameter"].message
    # the missing parameter is supplied by the rename: its message names that change and its kind
    assert "rename 'value' to 'content' (unknown-parameter)" in found["invalid-argument"].message


def test_unknown_parameter_without_a_single_fitting_target_has_no_fix(write_session):
    path = _session(write_session, ("save_memory", {"memory_type": "fact", "value": "a", "text": "b"}))
    found = findings_of(path, *SCHEMA_KINDS)
    assert {f.kind for f in found} == {"unknown-parameter", "invalid-argument"}
    assert all(f.fix is None for f in found)


def test_wrapper_layer_is_unwrapped_when_the_inner_object_validates(write_session):
    inner = {"memory_type": "core", "content": "x"}
    path = _session(write_session, ("save_memory", {"arguments": inner}), ("save_memory", {"input": {"content": 1}}))
    first = [f for f in findings_of(path, *SCHEMA_KINDS) if f.kind == "unknown-parameter"]
    assert first[0].fix.replace_arguments == ((0, inner),)
    assert "unwrap the 'arguments' wrapper" in first[0].message
    assert first[1].fix is None  # the inner object does not validate


def test_no_unknown_tool_without_definitions(write_session):
    path = write_session(
        [
            {"role": "user", "content": "x"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {"id": "c", "type": "function", "function": {"name": "anything", "arguments": '{"a": "1"}'}}
                ],
            },
            {"role": "tool", "tool_call_id": "c", "content": "ok"},
        ]
    )
    assert findings_of(path, *SCHEMA_KINDS) == []


def test_recovered_call_is_checked_the_same_way(write_session):
    path = write_session(
        [
            {"role": "user", "content": "Journal it."},
            {"role": "assistant", "content": '{success: true, memory_type: "Journal", content: "Lost the plan"}Saved!'},
        ],
        TOOLS,
    )
    (result,) = scan_file(path)
    prefix = [f for f in result.findings if f.kind == "result-prefix"]
    (finding,) = [f for f in result.findings if f.kind in SCHEMA_KINDS]
    assert prefix and prefix[0].fix.add_calls[0].arguments["memory_type"] == "Journal"
    assert (finding.kind, finding.turn, finding.fix) == ("invalid-argument", 1, None)
    assert finding.message.startswith("Recovered call save_memory: ")
    assert "No automatic fix for a call recovered from text" in finding.message
    assert 'this would make it valid: \'memory_type\': "Journal" -> "journal"' in finding.message


def test_fix_output_rescans_clean_of_the_schema_kinds(write_session, tmp_path, capsys):
    path = _session(
        write_session,
        ("save_memory", {"memory_type": "Fact", "value": "x"}),
        ("set_units", {"units": "metric", "count": "7"}),
        ("save_memory", {"params": {"memory_type": "core", "content": "y"}}),
    )
    kinds = sorted(f.kind for f in findings_of(path, *SCHEMA_KINDS))
    assert kinds == ["invalid-argument", "invalid-argument", "unknown-parameter", "unknown-parameter", "wrong-type"]
    out = tmp_path / "fixed.json"
    assert main(["fix", str(path), "--accept", "wrong-type,invalid-argument,unknown-parameter", "-o", str(out)]) == 0
    assert findings_of(out, *SCHEMA_KINDS) == []
    calls = json.loads(out.read_text())["messages"][1]["tool_calls"]
    assert [json.loads(c["function"]["arguments"]) for c in calls] == [
        {"memory_type": "fact", "content": "x"},
        {"units": "metric", "count": 7},
        {"memory_type": "core", "content": "y"},
    ]


def test_bounds_and_patterns_say_what_the_schema_wants_and_offer_no_fix(write_session):
    tool = {
        "type": "function",
        "function": {
            "name": "book",
            "parameters": {
                "type": "object",
                "properties": {
                    "nights": {"type": "integer", "minimum": 1},
                    "code": {"type": "string", "pattern": "^[A-Z]{3}$"},
                },
            },
        },
    }
    path = write_session(
        [
            {"role": "user", "content": "x"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "c",
                        "type": "function",
                        "function": {"name": "book", "arguments": '{"nights": 0, "code": "lis"}'},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "c", "content": "ok"},
        ],
        [tool],
    )
    (finding,) = findings_of(path, *SCHEMA_KINDS)
    assert finding.kind == "invalid-argument" and finding.fix is None
    assert "'nights' is 0, below the minimum 1" in finding.message
    assert '\'code\' is "lis", which does not match the pattern "^[A-Z]{3}$"' in finding.message
    assert "No automatic fix: no lossless repair makes the arguments valid" in finding.message


def test_legacy_function_call_gets_its_repaired_arguments_written(write_session, tmp_path):
    path = write_session(
        [
            {"role": "user", "content": "x"},
            {
                "role": "assistant",
                "content": None,
                "function_call": {"name": "set_units", "arguments": '{"units": "metric", "count": "3"}'},
            },
            {"role": "function", "name": "set_units", "content": "ok"},
        ],
        TOOLS,
    )
    (finding,) = findings_of(path, *SCHEMA_KINDS)
    assert finding.fix.replace_arguments == ((0, {"units": "metric", "count": 3}),)
    out = tmp_path / "fixed.json"
    assert main(["fix", str(path), "--accept", "wrong-type", "-o", str(out)]) == 0
    legacy = json.loads(out.read_text())["messages"][1]["function_call"]
    assert legacy["name"] == "set_units" and json.loads(legacy["arguments"]) == {"units": "metric", "count": 3}
    assert findings_of(out, *SCHEMA_KINDS) == []


def test_a_checker_is_shared_only_by_sessions_holding_the_same_tool_spec():
    """Sessions of one file hand over the same spec object: its checker is built once. A spec of
    the same name with other parameters (another file, another line) gets its own."""
    from inspector.detect.tool_schema import tool_schema
    from inspector.model import ToolSpec

    spec = ToolSpec("read_file", {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]})
    other = ToolSpec("read_file", {"type": "object", "properties": {"path": {"type": "integer"}}, "required": ["path"]})
    assert tool_schema(spec) is tool_schema(spec)
    assert tool_schema(spec).valid({"path": "a.txt"})
    assert not tool_schema(other).valid({"path": "a.txt"})
