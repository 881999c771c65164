"""The lenient JSON parser: standard JSON, JS-style objects, and what is not an object."""

import pytest

from inspector.support.lenient_json import (
    JSON5_SYNTAX,
    json_or_text,
    loads_lenient,
    object_end,
    parse_array_at,
    parse_object_at,
)
from tests.helpers.timing import cpu_time


def test_standard_json_needs_no_repair():
    text = '{"success": true, "n": 2}Done.'
    parsed = parse_object_at(text)
    assert parsed.value == {"success": True, "n": 2}
    assert text[parsed.end :] == "Done."
    assert parsed.repairs == ()


def test_js_style_object_with_unquoted_keys():
    parsed = parse_object_at('{success: true, memory_type: "journal", content: "x"}You saw right through me.')
    assert parsed.value == {"success": True, "memory_type": "journal", "content": "x"}
    assert parsed.repairs == ("unquoted keys",)


def test_braces_and_quotes_inside_strings_are_not_structure():
    text = r'{note: "She said \"{not a brace}\" twice", n: 1}After'
    parsed = parse_object_at(text)
    assert parsed.value == {"note": 'She said "{not a brace}" twice', "n": 1}
    assert text[parsed.end :] == "After"


def test_colon_inside_a_string_does_not_make_a_key():
    parsed = parse_object_at('{title: "time: 5pm, place: home"}ok')
    assert parsed.value == {"title": "time: 5pm, place: home"}


def test_single_quotes_trailing_commas_comments_and_python_literals():
    text = "{'a': 'it\\'s \"quoted\"', /* note */ b: [1, 2,], // end\n c: None, d: True,}rest"
    parsed = parse_object_at(text)
    assert parsed.value == {"a": 'it\'s "quoted"', "b": [1, 2], "c": None, "d": True}
    assert set(parsed.repairs) == {
        "single-quoted strings",
        "comments",
        "unquoted keys",
        "trailing commas",
        "Python literals",
    }
    assert text[parsed.end :] == "rest"


def test_a_flat_object_with_bare_and_quoted_keys_and_every_kind_of_value():
    text = '{a: 1, "b": "x}", c: -2.5e3,\n d: null, e: false}\n\nDone "'
    parsed = parse_object_at(text)
    assert parsed.value == {"a": 1, "b": "x}", "c": -2500.0, "d": None, "e": False}
    assert parsed.repairs == ("unquoted keys",)
    assert parsed.end == object_end(text, 0) == text.index("\n\n")


@pytest.mark.parametrize(
    "text, value, repairs",
    [
        ('{a: "\\q"} tail', {"a": "q"}, ("unquoted keys", JSON5_SYNTAX)),  # an escape JSON lacks
        ('{"a": "\\q", b: 1} tail', {"a": "q", "b": 1}, ("unquoted keys", JSON5_SYNTAX)),
        ("{a:\u00a01} tail", {"a": 1}, ("unquoted keys", JSON5_SYNTAX)),  # white space JSON lacks
        ("{a: Infinity} tail", {"a": float("inf")}, ("unquoted keys",)),
        ("{a: 1, b: [2, {c: 3}]} tail", {"a": 1, "b": [2, {"c": 3}]}, ("unquoted keys",)),  # not flat
    ],
    ids=["escape", "escape after a quoted key", "no-break space", "Infinity", "nested"],
)
def test_objects_a_flat_reading_leaves_to_the_general_path(text, value, repairs):
    parsed = parse_object_at(text)
    assert parsed.value == value
    assert parsed.repairs == repairs
    assert text[parsed.end :] == " tail"


def test_json5_only_syntax_falls_back_to_json5():
    parsed = parse_object_at("{a: 0x1F, b: .5} tail")
    assert parsed.value == {"a": 31, "b": 0.5}
    assert JSON5_SYNTAX in parsed.repairs


def test_things_that_are_not_objects():
    assert parse_object_at("{1, 2, 3} is a set") is None
    assert parse_object_at("{name} is a placeholder") is None
    assert parse_object_at('{a: "never closed') is None
    assert parse_object_at("no brace here") is None
    assert parse_object_at('["a list"]') is None


def test_object_end_skips_braces_in_both_quote_styles_and_comments():
    text = "{a: '}', b: \"}\", /* } */ c: {d: 1}} tail"
    assert text[object_end(text, 0) :] == " tail"
    assert object_end("{a: {b: 1}", 0) is None


def test_extra_closing_braces_leave_the_object_intact():
    text = '{"tool": "run_code", "arguments": {"code": "print(1)"}}}}'
    parsed = parse_object_at(text)
    assert parsed.value == {"tool": "run_code", "arguments": {"code": "print(1)"}}
    assert text[parsed.end :] == "}}"


def test_loads_lenient_reports_repairs_or_none():
    assert loads_lenient('{"a": 1}') == ({"a": 1}, ())
    assert loads_lenient("{a: 1,}") == ({"a": 1}, ("unquoted keys", "trailing commas"))
    assert loads_lenient("not json at all") is None


def test_parse_array_at_reads_a_plain_json_array_and_where_it_ends():
    text = 'x [{"name": "ls"}, 2] tail'
    parsed = parse_array_at(text, 2)
    assert parsed.value == [{"name": "ls"}, 2]
    assert text[parsed.end :] == " tail"
    assert parse_array_at(text, 0) is None  # no `[` there
    assert parse_array_at('{"a": 1}') is None  # an object is not an array
    assert parse_array_at("[a, 1,]") is None  # arrays are never repaired


def test_json_or_text_reads_json_and_keeps_other_text():
    assert json_or_text(" 3\n") == 3
    assert json_or_text('["a", true]') == ["a", True]
    assert json_or_text('"tab\there"') == "tab\there"  # a raw control character, as elsewhere
    assert json_or_text("src/main.py") == "src/main.py"


# Texts `json5` could not read either: a value cut off, prose, an object with text after it, Python
# syntax JSON5 does not have, brackets that do not match. Each took 300-650 µs in json5 to refuse.
NOT_JSON5 = [
    '{"city": "Paris", "note": "bring an umbre',
    '{"query": "latest release notes", "max_results": 5',
    '{path: "src/main.py", recursive: true',
    "Paris, France (the capital)",
    '{"path": "src/main.py", "line": 42} and then run the tests',
    "{'bbox': (10, 20, 30, 40), 'label': 'cat'}",
    '{"items": [1, 2}',
    "{a: 1 /* a comment never closed",
]
# Texts only `json5` reads: each must still reach it.
ONLY_JSON5 = {
    "{a: 0x1F, b: .5}": {"a": 31, "b": 0.5},
    "\ufeff{a: +1} // a comment after the value": {"a": 1},
    '{a: "two \\\nlines", b: Infinity}': {"a": "two lines", "b": float("inf")},
    "{été: [1, {b: 0x2}]}": {"été": [1, {"b": 2}]},
}


def _counting_json5(monkeypatch):
    """json5.loads wrapped so that its calls are counted."""
    import json5

    calls = []
    real = json5.loads

    def counted(text, *args, **kwargs):
        calls.append(text)
        return real(text, *args, **kwargs)

    monkeypatch.setattr(json5, "loads", counted)
    return calls


@pytest.mark.parametrize("text", NOT_JSON5)
def test_json5_is_not_asked_about_what_it_cannot_read(monkeypatch, text):
    calls = _counting_json5(monkeypatch)
    assert loads_lenient(text) is None
    assert calls == []


@pytest.mark.parametrize("text, value", ONLY_JSON5.items())
def test_what_only_json5_reads_still_reaches_it(monkeypatch, text, value):
    calls = _counting_json5(monkeypatch)
    loaded, repairs = loads_lenient(text)
    assert loaded == value and JSON5_SYNTAX in repairs
    assert calls


HOSTILE = {
    "brackets never closed": "[" * 49_000,
    "a long list then (": "{a: [" + "1, " * 16_000 + "(",
    "backslashes in a string never closed": '{"a": "' + "\\" * 49_000,
}


@pytest.mark.parametrize("text", HOSTILE.values(), ids=HOSTILE.keys())
def test_the_check_before_json5_is_linear_on_hostile_text(text):
    started = cpu_time()
    assert loads_lenient(text) is None
    assert cpu_time() - started < 0.5
