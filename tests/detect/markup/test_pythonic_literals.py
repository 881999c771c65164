"""Detector `tool-markup` on the literals of pythonic calls that vLLM's and SGLang's parsers accept
(their facts, replies written here): JSON's `null`, `true` and `false` (OLMo 3), bytes read as
their text with a note, and the values a JSON call cannot hold refused with a warning."""

from __future__ import annotations

import pytest

from tests.helpers.markup import _tool, assert_scans_fast, calls_of, fixed_calls_and_texts, one_finding, repeat

WRITE_FILE = _tool("write_file", path="string", data="string", tags="array")


def test_olmo3_calls_with_json_literals_read_as_none_true_false(write_session):
    block = (
        '<function_calls>\nsearch_files(pattern="*.log", recursive=true, paths=null)\n'
        'get_weather(city="Lima", days=2)\n</function_calls>'
    )
    reply = f"I'll look for the logs and check Lima.\n{block}"
    finding = one_finding(write_session, reply, family="olmo")
    assert calls_of(finding) == [
        ("search_files", {"pattern": "*.log", "recursive": True, "paths": None}),
        ("get_weather", {"city": "Lima", "days": 2}),
    ]
    assert finding.fix.apply_to_text(reply) == "I'll look for the logs and check Lima."


def test_json_literals_in_a_bare_list_and_words_inside_strings_and_structures(write_session):
    reply = '[search_files(pattern="true", recursive=false, paths=["null", "src"])]'
    finding = one_finding(write_session, reply, family="pythonic")
    assert calls_of(finding) == [("search_files", {"pattern": "true", "recursive": False, "paths": ["null", "src"]})]


def test_other_names_are_still_not_values(write_session):
    reply = "Searching.\n[search_files(pattern=os.getcwd(), recursive=undefined)]"
    finding = one_finding(write_session, reply, family="pythonic")
    assert finding.fix.add_calls == () and "arguments that do not parse" in finding.message


def test_bytes_literal_is_recovered_as_its_text_with_a_note(write_session, tmp_path):
    reply = 'Saving your notes.\n[write_file(path="notes.txt", data=b"milk\\neggs")]'
    finding = one_finding(write_session, reply, [WRITE_FILE], "pythonic")
    assert calls_of(finding) == [("write_file", {"path": "notes.txt", "data": "milk\neggs"})]
    assert 'It holds a bytes literal (b"...") in its arguments, recovered as the text it spells.' in finding.message
    path = write_session(
        [{"role": "user", "content": "Save it."}, {"role": "assistant", "content": reply}], [WRITE_FILE]
    )
    assert fixed_calls_and_texts(path, tmp_path) == (
        [("write_file", {"path": "notes.txt", "data": "milk\neggs"})],
        ["Saving your notes."],
    )


@pytest.mark.parametrize(
    "value, note",
    [
        ('data=b"\\xff\\xfe"', 'a bytes literal (b"...") that is not UTF-8 text, which a JSON call cannot hold'),
        ('tags={"a", "b"}', "a Python value that JSON cannot hold"),
        ("data=1j", "a Python value that JSON cannot hold"),
    ],
    ids=["bytes-not-utf8", "set", "complex"],
)
def test_values_json_cannot_hold_are_refused_with_a_warning(write_session, tmp_path, value, note):
    reply = f'Saving it.\n[write_file(path="blob.bin", {value})]'
    finding = one_finding(write_session, reply, [WRITE_FILE], "pythonic")
    assert (finding.severity, finding.fix.add_calls) == ("warning", ())
    assert note in finding.message
    path = write_session(
        [{"role": "user", "content": "Save it."}, {"role": "assistant", "content": reply}], [WRITE_FILE]
    )
    assert fixed_calls_and_texts(path, tmp_path) == ([], ["Saving it."])


def test_literals_hostile_size_scans_fast(tmp_path):
    assert_scans_fast(
        tmp_path, "<function_calls>\n" + repeat("f(q=null, r=[true, false, b'x'])\n", 300_000) + "</function_calls>"
    )
    assert_scans_fast(tmp_path, repeat("[f(q=null, r=true)] " * 30 + "\n", 300_000))
