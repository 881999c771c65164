"""Reading a JSON Lines file: each line decoded to exactly what `json` reads from it, the file held
once (as its bytes, never also as text), untouched lines written back byte for byte, and a hostile
line read in linear time."""

from __future__ import annotations

import json
import math
import time
import tracemalloc

import pytest

from inspector.errors import InspectorError
from inspector.sources.files.document import BadLine, document_of_bytes, read_document
from tests.helpers.files import written

TRICKY_LINES = [
    '{"big": 123456789012345678901234567890, "negative": -9223372036854775809}',
    '{"max_u64": 18446744073709551615, "digits": ' + "9" * 4000 + "}",
    '{"huge": 1e400, "minus_huge": -1e400, "minus_zero": -0.0, "zero": -0}',
    '{"tiny": 5e-324, "under": 1e-400, "max": 1.7976931348623157e308, "tenth": 0.1, "whole": 1.0}',
    '{"nan": NaN, "inf": Infinity, "minus_inf": -Infinity}',
    '{"lone": "\\ud800", "low": "x\\udc00y", "pair": "\\ud83d\\ude00", "reversed": "\\udc00\\ud800"}',
    '{"raw": "Naïve café — “quoted” 😀 \u2028 \u2029 \u0085 end", "escapes": "\\"\\\\\\/\\b\\f\\n\\r\\t\\u0001"}',
    '{"same": 1, "other": 2, "same": 3}',
    '[1, [2, [3, {"deep": [true, false, null]}]]]',
    '"a string"',
    "42",
    "null",
]


def _json_values(lines: list[str]) -> list:
    """What `json` reads from each line: the oracle."""
    return [json.loads(line) for line in lines]


def _exactly(value) -> str:
    """`value` spelt out so that 1 and 1.0, 0.0 and -0.0, and NaN compare as they should."""
    return json.dumps(value, ensure_ascii=True) + repr(_floats(value))


def _floats(value) -> list:
    if isinstance(value, float):
        return [math.copysign(1.0, value), value if not math.isnan(value) else "nan"]
    if isinstance(value, list):
        return [item for element in value for item in _floats(element)]
    if isinstance(value, dict):
        return [item for element in value.values() for item in _floats(element)]
    return []


def test_every_line_is_the_value_json_reads_from_it(tmp_path):
    document = read_document(written(tmp_path / "s.jsonl", "\n".join(TRICKY_LINES).encode("utf-8") + b"\n"))
    assert document.is_jsonl
    assert [_exactly(record) for record in document.value] == [_exactly(v) for v in _json_values(TRICKY_LINES)]
    assert [type(record) for record in document.value] == [type(v) for v in _json_values(TRICKY_LINES)]
    assert list(document.value[7]) == ["same", "other"] and document.value[7]["same"] == 3
    assert document.value[-1] is None  # the line `null`, not a blank line


@pytest.mark.parametrize(
    "line",
    [
        '{"a": 1,}',  # a trailing comma
        '{"a": 1} {"b": 2}',  # two values on a line
        '{"a": 1}\r{"b": 2}',  # split by a lone carriage return only
        '{"text": "a\x01b"}',  # a raw control character
        '{"a": tru}',
        '{"cut": "off',
        "\ufeff" + '{"a": 1}',  # a byte-order mark past the first line
        "\x0c{}",  # a form feed is not JSON whitespace
        "[" * 1200,
    ],
)
def test_a_bad_line_is_skipped_with_the_words_json_has_for_it(tmp_path, line):
    try:
        json.loads(line + "\n")  # the line as the file holds it
    except json.JSONDecodeError as error:  # its words, with no dangling "starting at", and where
        expected = f"{error.msg.removesuffix(' at').removesuffix(' starting')} at column {error.colno}"
    except RecursionError:
        expected = "nested too deeply to read"
    lines = ['{"role": "user", "content": "hi"}', line, '{"role": "assistant", "content": "hello"}']
    document = read_document(written(tmp_path / "s.jsonl", "\n".join(lines).encode("utf-8") + b"\n"))
    assert document.value[1] == BadLine(2, expected)
    assert document.value[2] == {"role": "assistant", "content": "hello"}


def test_a_line_nested_too_deeply_is_a_bad_line_with_its_own_words(tmp_path):
    data = b'{"a": 1}\n' + b"[" * 100_000 + b"]" * 100_000 + b'\n{"b": 2}\n'
    document = read_document(written(tmp_path / "s.jsonl", data))
    assert document.value == [{"a": 1}, BadLine(2, "nested too deeply to read"), {"b": 2}]


ROUND_TRIPS = {
    "line feeds": b'{"a": 1}\n{"b": 2}\n',
    "carriage returns and line feeds": b'{"a": 1}\r\n{"b": 2}\r\n',
    "mixed endings": b'{"a": 1}\r\n{"b": 2}\n{"c": 3}\r\n',
    "no final line break": b'{"a": 1}\n{"b": 2}',
    "no final line break after CRLF": b'{"a": 1}\r\n{"b": 2}',
    "cut off between CR and LF": b'{"a": 1}\r\n{"b": 2}\r',
    "blank lines of every kind": b'\n{"a": 1}\n\n  \n\t\r\n{"b": 2}\r\n\n\x0c\n\xe3\x80\x80\n{"c": 3}\n\n',
    "a bad line kept as it was": b'{"a": 1}\n{"broken": \n{"b": 2}\n',
    "a cut-off last line": b'{"a": 1}\n{"b": 2}\n{"cut": "of',
    "lines of one value each": b'"s"\r\n"s"\n1\n1\r\nnull\n\ntrue\ntrue\r\n',
    "spacing and raw separators": b'  {"a" : [1, 2]}  \n{"t": "\xe2\x80\xa8 and \xc2\x85"}\t\n',
    "a first line of null": b'null\n{"a": 1}\n',
}


@pytest.mark.parametrize("data", ROUND_TRIPS.values(), ids=ROUND_TRIPS.keys())
def test_untouched_lines_are_written_back_byte_for_byte(tmp_path, data):
    document = read_document(written(tmp_path / "s.jsonl", data))
    text = data.decode("utf-8")
    parts = text.split("\n")  # at line feeds only: not at U+2028, U+0085 or a lone carriage return
    assert document.is_jsonl
    assert list(document.lines) == [part + "\n" for part in parts[:-1]] + ([parts[-1]] if parts[-1] else [])
    assert document.render(document.value) == text
    assert document.render(list(document.value)) == text  # a new list of the same records


def test_a_byte_order_mark_is_not_part_of_the_first_line_and_is_not_written_back(tmp_path):
    data = b'\xef\xbb\xbf{"a": 1}\r\n{"b": 2}\r\n'
    document = read_document(written(tmp_path / "s.jsonl", data))
    assert document.value == [{"a": 1}, {"b": 2}]
    assert document.lines[0] == '{"a": 1}\r\n'
    assert document.render(document.value) == '{"a": 1}\r\n{"b": 2}\r\n'


def test_changed_records_are_compact_json_and_the_others_keep_their_lines(tmp_path):
    data = b'{"a":  1}\r\n\r\n{"b" : 2}\r\n{"c":3}'
    document = read_document(written(tmp_path / "s.jsonl", data))
    first, blank, second, third = document.value
    rendered = document.render([{"new": "é"}, blank, third, second])
    assert rendered == '{"new": "é"}\r\n\r\n{"c":3}\r\n{"b" : 2}'  # no final line break, as the file had none
    assert document.render([first, {"x": 1}]) == '{"a":  1}\r\n{"x": 1}\r\n'


def test_lines_are_a_sequence_of_the_texts(tmp_path):
    data = '{"a": 1}\n{"é": "😀"}\r\n{"c": 3}'.encode()
    document = read_document(written(tmp_path / "s.jsonl", data))
    lines = document.lines
    assert len(lines) == 3 and lines[1] == '{"é": "😀"}\r\n' and lines[-1] == '{"c": 3}'
    assert lines[1:] == ['{"é": "😀"}\r\n', '{"c": 3}'] and list(reversed(lines)) == lines[::-1]
    with pytest.raises(IndexError):
        lines[3]


def test_bytes_read_elsewhere_give_the_same_document(tmp_path):
    data = "\n".join(TRICKY_LINES).encode("utf-8") + b"\r\n\n{bad\n"
    read = read_document(written(tmp_path / "s.jsonl", data))
    given = document_of_bytes("s.jsonl", data)
    assert [_exactly(r) if not isinstance(r, BadLine) else r for r in given.value] == [
        _exactly(r) if not isinstance(r, BadLine) else r for r in read.value
    ]
    assert list(given.lines) == list(read.lines)
    assert given.render(given.value) == data.decode("utf-8")


@pytest.mark.parametrize(
    ("data", "value"),
    [
        (b"NaN\n\n  \n", "nan"),  # a first line that parses, with only whitespace after it
        (b'\xef\xbb\xbf{"a": 1}\n\n', {"a": 1}),
        (b'[1,\n "\\ud800"]\n', [1, "\ud800"]),  # a first line that does not parse alone
    ],
)
def test_one_value_the_fast_decoder_refuses_is_json_not_json_lines(tmp_path, data, value):
    document = read_document(written(tmp_path / "s.json", data))
    assert not document.is_jsonl
    assert repr(document.value) == repr(float("nan") if value == "nan" else value)


@pytest.mark.parametrize(
    ("data", "records"),
    [
        (b'\x0c\n{"a": 1}\n', [None, {"a": 1}]),  # a blank line of what JSON does not count as whitespace
        (b'\xe3\x80\x80\r\n{"a": 1}\r\n', [None, {"a": 1}]),
        (b"NaN\n1\n", ["nan", 1]),
        (b'null\n\n{"a": 1}', [None, None, {"a": 1}]),
    ],
)
def test_a_first_record_that_parses_with_more_after_it_is_json_lines(tmp_path, data, records):
    document = read_document(written(tmp_path / "s.jsonl", data))
    assert document.is_jsonl
    assert repr(document.value) == repr([float("nan") if r == "nan" else r for r in records])


@pytest.mark.parametrize(
    "data",
    [
        b'{broken\n{"a": 1}\n',  # the first record does not parse
        b'\n\n{"a": 1, }\n{"b": 2}\n',
        b'{\n  "a": 1,\n  "b": [1, 2\n}\n',  # a pretty-printed value with a mistake on its third line
        b'[\n1]\n{"a": 1}\n',  # one value over two lines, then another
    ],
)
def test_a_file_whose_first_record_does_not_parse_is_one_error_where_json_stops(tmp_path, data):
    path = written(tmp_path / "s.json", data)
    try:
        json.loads(data.decode("utf-8"))
    except json.JSONDecodeError as error:
        expected = f"{path}: line {error.lineno} column {error.colno}: invalid JSON ({error.msg})"
    with pytest.raises(InspectorError) as raised:
        read_document(path)
    assert str(raised.value) == expected


@pytest.mark.parametrize(
    "data",
    [
        b'{"a": 1}\n{"b": 2}\n{"c": "\xff"}\n',
        b'{"a": 1}\n{"b": 2}\n{"c": "\xe2\x82"}',  # a character cut off at the end
        b'\xef\xbb\xbf{"a": 1}\n{"b": "\xed\xa0\x80"}\n',  # an encoded surrogate, after a byte-order mark
        b'{"a": 1}\n\n\xc0\n{"b": 2}\n',
    ],
)
def test_a_byte_that_is_not_utf8_anywhere_is_one_error_with_its_offset(tmp_path, data):
    path = written(tmp_path / "s.jsonl", data)
    try:
        data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        expected = f"{path}: not UTF-8 text (bad byte at offset {error.start})"
    with pytest.raises(InspectorError) as raised:
        read_document(path)
    assert str(raised.value) == expected


def test_the_file_is_held_once_as_bytes_not_also_as_text(tmp_path):
    """Records that take a sixth of their lines (each `é` written as a six-byte escape): reading
    peaks at the bytes and the records, well under twice the file; the text held as well, whole or
    line by line, would take three times."""
    data = (json.dumps({"t": "é" * 500}) + "\n").encode("ascii") * 2500
    path = written(tmp_path / "s.jsonl", data)
    tracemalloc.start()
    try:
        document = read_document(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert document.value[-1] == {"t": "é" * 500} and len(document.value) == 2500
    assert peak < 2 * len(data)


def _cpu_seconds_to_read(path) -> float:
    best = math.inf
    for _ in range(3):
        started = time.process_time()
        try:
            read_document(path)
        except InspectorError:
            pass
        best = min(best, time.process_time() - started)
    return best


@pytest.mark.parametrize(
    "hostile",
    [
        lambda size: b"[" * size,  # nested past any depth
        lambda size: b'{"text": "' + b"a" * size,  # a string that never ends
        lambda size: b'{"text": "' + b"\\u00e9" * (size // 6) + b'"}',  # a long string of escapes
        lambda size: b'{"n": NaN, "text": "' + b"a" * size + b'"}',  # long, and only json reads it
        lambda size: b" " * size + b"\x0c",  # a long blank line
    ],
    ids=["brackets", "unterminated string", "escapes", "json only", "blank"],
)
def test_a_hostile_line_is_read_in_linear_time(tmp_path, hostile):
    """The time to read a file with a hostile line grows as the line does: four times the line,
    about four times the time (a parser that went back over the line would take sixteen)."""
    seconds = []
    for size in (2_000_000, 8_000_000):
        data = b'{"role": "user", "content": "hi"}\n' + hostile(size) + b'\n{"role": "assistant"}\n'
        seconds.append(_cpu_seconds_to_read(written(tmp_path / f"{size}.jsonl", data)))
    assert seconds[1] < 8 * max(seconds[0], 0.01)
