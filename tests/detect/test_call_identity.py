"""`canonical`: a value as JSON with sorted keys and no spaces, as `json.dumps` writes it with those
options, so calls with the same arguments in another key order compare equal; a value JSON cannot
write falls back to its `repr`."""

import json
import math

from inspector.detect.call_identity import call_identity, canonical
from inspector.model import ToolCall


def test_canonical_is_the_sorted_compact_json_of_each_value():
    for value in (
        {"b": 1, "a": [1.0, True, None, {"z": "é", "y": "\u2028"}]},
        [math.nan, -0.0, math.inf],
        {"path": "notes.md"},
        3,
        None,
        {},
    ):
        assert canonical(value) == json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert canonical({"b": 1, "a": 2}) == canonical({"a": 2, "b": 1}) == '{"a":2,"b":1}'


def test_canonical_writes_a_string_as_itself_and_what_json_cannot_write_as_its_repr():
    assert canonical('{"a": 1}') == '{"a": 1}'
    assert canonical({1: "a", "b": 2}) == repr({1: "a", "b": 2})  # keys of several types do not sort
    assert canonical({"when": {1, 2}}) == repr({"when": {1, 2}})


def test_call_identity_uses_the_raw_text_when_the_arguments_do_not_parse():
    assert call_identity(ToolCall("c1", "read_file", '{"path": ', None)) == ("read_file", 'raw:{"path": ')
    assert call_identity(ToolCall("c1", "read_file", "{}", {"path": "a"})) == ("read_file", '{"path":"a"}')
