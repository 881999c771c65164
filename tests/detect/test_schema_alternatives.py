"""Repairs inside `anyOf` / `oneOf` and nullable `type: [..., "null"]`: a value is converted or
normalised into the one form it fits without loss; when two forms fit differently, no fix."""

import json

import pytest

from inspector.cli.main import main
from inspector.scan.scanner import scan_file

SCHEMA_KINDS = ("unknown-tool", "invalid-argument", "unknown-parameter", "wrong-type")
UNITS = {"type": "string", "enum": ["metric", "imperial"]}


def _one_call(write_session, properties, arguments, defs=None):
    parameters = {"type": "object", "properties": properties, "additionalProperties": False}
    if defs:
        parameters["$defs"] = defs
    tool = {"type": "function", "function": {"name": "configure", "parameters": parameters}}
    return write_session(
        [
            {"role": "user", "content": "Set it up."},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "c1",
                        "type": "function",
                        "function": {"name": "configure", "arguments": json.dumps(arguments)},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "c1", "content": "ok"},
        ],
        [tool],
    )


def _finding(path):
    (result,) = scan_file(path)
    (finding,) = [f for f in result.findings if f.kind in SCHEMA_KINDS]
    return finding


@pytest.mark.parametrize(
    "schema, value, fixed",
    [
        ({"type": ["integer", "null"]}, "42", 42),
        ({"type": ["boolean", "null"]}, "false", False),
        ({"anyOf": [{"type": "integer"}, {"type": "null"}]}, "7", 7),
        ({"oneOf": [{"type": "number", "minimum": 0}, {"type": "boolean"}]}, "2.5", 2.5),
        ({"anyOf": [{"type": "array", "items": {"type": "integer"}}, {"type": "null"}]}, "[1, 2]", [1, 2]),
        ({"type": ["integer", "number"]}, "3", 3),  # two types, one result: not ambiguous
    ],
)
def test_a_wrong_type_converts_into_the_one_form_it_fits(write_session, schema, value, fixed):
    finding = _finding(_one_call(write_session, {"limit": schema}, {"limit": value}))
    assert finding.kind == "wrong-type"
    assert finding.fix.replace_arguments == ((0, {"limit": fixed}),)
    assert f"'limit': {json.dumps(value)} -> {json.dumps(fixed)}" in finding.message


def test_nullable_type_is_named_in_the_message(write_session):
    finding = _finding(
        _one_call(write_session, {"limit": {"anyOf": [{"type": "integer"}, {"type": "null"}]}}, {"limit": "ten"})
    )
    assert finding.kind == "wrong-type" and finding.fix is None
    assert "'limit' is \"ten\", expected integer or null" in finding.message
    assert "No automatic fix: no lossless repair makes the arguments valid" in finding.message


@pytest.mark.parametrize(
    "schema, value",
    [
        ({"type": ["string", "array"]}, 5),  # "5" or [5]
        ({"anyOf": [{"type": "string"}, {"type": "array"}]}, 5),
        ({"oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "number"}}, {"type": "boolean"}]}, 1.5),
    ],
)
def test_a_value_fitting_two_forms_differently_has_no_fix(write_session, schema, value):
    finding = _finding(_one_call(write_session, {"tag": schema}, {"tag": value}))
    assert finding.fix is None


def test_an_enum_inside_any_of_is_normalised_through_a_reference(write_session):
    path = _one_call(
        write_session,
        {"units": {"anyOf": [{"$ref": "#/$defs/units"}, {"type": "integer"}]}},
        {"units": "Metric"},
        defs={"units": UNITS},
    )
    finding = _finding(path)
    assert (finding.kind, finding.severity) == ("invalid-argument", "error")
    assert "'units' is \"Metric\", which fits none of the 2 allowed forms (anyOf)" in finding.message
    assert finding.fix.replace_arguments == ((0, {"units": "metric"}),)


def test_enum_branches_that_both_match_offer_no_fix(write_session):
    schema = {"oneOf": [{"enum": ["Metric"]}, {"enum": ["metric"]}]}
    finding = _finding(_one_call(write_session, {"units": schema}, {"units": "METRIC"}))
    assert finding.kind == "invalid-argument" and finding.fix is None


def test_a_nested_object_form_is_repaired_inside(write_session):
    window = {
        "type": "object",
        "properties": {"days": {"type": "integer"}, "units": UNITS},
        "required": ["days"],
        "additionalProperties": False,
    }
    schema = {"anyOf": [window, {"type": "null"}]}
    finding = _finding(_one_call(write_session, {"window": schema}, {"window": {"days": "3", "units": "Imperial"}}))
    assert finding.fix.replace_arguments == ((0, {"window": {"days": 3, "units": "imperial"}}),)
    assert "'window'['days']: \"3\" -> 3" in finding.message
    assert "'window'['units']: \"Imperial\" -> \"imperial\"" in finding.message


def test_one_of_matched_twice_is_reported_without_a_fix(write_session):
    schema = {"oneOf": [{"type": "integer"}, {"type": "number"}]}
    finding = _finding(_one_call(write_session, {"size": schema}, {"size": 3}))
    assert finding.kind == "invalid-argument" and finding.fix is None
    assert "fits more than one of the 2 allowed forms (oneOf wants exactly one)" in finding.message


def test_fixed_alternatives_rescan_clean(write_session, tmp_path):
    properties = {"limit": {"type": ["integer", "null"]}, "units": {"anyOf": [UNITS, {"type": "null"}]}}
    path = _one_call(write_session, properties, {"limit": "10", "units": "IMPERIAL"})
    out = tmp_path / "fixed.json"
    assert main(["fix", str(path), "--accept", "wrong-type,invalid-argument", "-o", str(out)]) == 0
    (result,) = scan_file(out)
    assert [f for f in result.findings if f.kind in SCHEMA_KINDS] == []
    call = json.loads(out.read_text())["messages"][1]["tool_calls"][0]
    assert json.loads(call["function"]["arguments"]) == {"limit": 10, "units": "imperial"}


def test_a_reference_that_does_not_resolve_checks_nothing_and_does_not_crash(write_session):
    path = _one_call(
        write_session,
        {"units": {"$ref": "#/$defs/missing"}, "limit": {"type": ["integer", "null"]}},
        {"units": "metric", "limit": None},
    )
    (result,) = scan_file(path)
    assert [f for f in result.findings if f.kind in SCHEMA_KINDS] == []
