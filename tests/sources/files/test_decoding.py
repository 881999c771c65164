"""Reading a session file: the fast decoder gives exactly what `json` gives, and whatever it
refuses still loads the `json` way, so a session is read and written back unchanged (the members of
an Inspect AI `.eval` archive too)."""

import json
import math
import zipfile

import pytest

from inspector.errors import InspectorError
from inspector.sources import load_sessions, render_sessions
from inspector.sources.files.document import read_document
from inspector.sources.files.inspect_eval import read_eval
from tests.helpers.files import written

MESSAGES = [
    {"role": "system", "content": "Tu es Wren. Naïve café — “quoted” 😀 \u2028 tab\there"},
    {"role": "user", "content": "Save order 123456789012345678901234567890 please"},
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "save_memory", "arguments": '{"content": "x"}'}}
        ],
    },
    {"role": "tool", "tool_call_id": "call_1", "content": '{"success": true}'},
]
META = {
    "big": 123456789012345678901234567890,
    "negative": -9223372036854775809,
    "max_u64": 18446744073709551615,
    "float": 0.1,
    "tiny": 5e-324,
    "exponent": 1e300,
    "minus_zero": -0.0,
    "escapes": '\\"\b\f\n\r\t/\u00e9\u0001',
}


@pytest.mark.parametrize("indent", [None, 2, 4, "\t"])
def test_values_and_indentation_are_those_json_reads(tmp_path, indent):
    text = json.dumps({"meta": META, "messages": MESSAGES}, indent=indent, ensure_ascii=False) + "\n"
    document = read_document(written(tmp_path / "s.json", text))
    assert document.value == json.loads(text)
    assert type(document.value["meta"]["big"]) is int and type(document.value["meta"]["negative"]) is int
    assert math.copysign(1.0, document.value["meta"]["minus_zero"]) == -1.0
    assert list(document.value["messages"][2]) == list(MESSAGES[2])  # key order kept
    assert document.indent == indent
    assert render_sessions(load_sessions(tmp_path / "s.json")) == text  # read and written back unchanged


@pytest.mark.parametrize(
    "text",
    [
        "\ufeff" + json.dumps({"messages": MESSAGES}),  # byte-order mark
        json.dumps({"messages": MESSAGES, "score": float("nan"), "limit": float("inf")}),  # JS literals json accepts
        json.dumps({"messages": MESSAGES, "note": "\ud800 lone surrogate"}),  # escaped, as json writes it
        json.dumps({"messages": MESSAGES, "huge": 1e400}),  # read by json as infinity
    ],
)
def test_what_the_fast_decoder_refuses_still_loads_as_json_reads_it(tmp_path, text):
    document = read_document(written(tmp_path / "s.json", text))
    expected = json.loads(text.lstrip("\ufeff"))
    assert json.dumps(document.value, sort_keys=True) == json.dumps(expected, sort_keys=True)
    assert len(load_sessions(tmp_path / "s.json")[0].turns) == len(MESSAGES)


def test_indentation_found_past_a_long_first_line_of_wide_characters(tmp_path):
    text = '{"title": "' + "😀" * 1000 + '",\n   "messages": ' + json.dumps(MESSAGES) + "}"
    assert read_document(written(tmp_path / "s.json", text)).indent == 3


def test_a_file_nested_too_deeply_is_one_clear_error_and_such_a_line_is_skipped(tmp_path, capsys):
    from inspector.cli.main import main

    deep = "[" * 100_000 + "]" * 100_000
    path = written(tmp_path / "deep.json", '{"messages": ' + deep + "}")
    assert main(["scan", str(path)]) == 2
    assert capsys.readouterr().err == f"inspector: error: {path}: nested too deeply to read\n"
    lines = [json.dumps(message) for message in MESSAGES] + ['{"role": "user", "content": ' + deep + "}"]
    (session,) = load_sessions(written(tmp_path / "deep.jsonl", "\n".join(lines) + "\n"))
    assert len(session.turns) == len(MESSAGES)
    assert session.problems == ("line 5: invalid JSON (nested too deeply to read), skipped",)


def _eval_archive(path, members: dict[str, bytes]):
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return path


def test_the_members_of_an_eval_archive_are_the_values_json_reads(tmp_path):
    header = json.dumps({"version": 2, "eval": {"task": "notes"}, "results": {"score": 1e400}})
    plain = json.dumps({"id": 1, "messages": MESSAGES, "meta": META})
    refused = "\ufeff" + json.dumps({"id": 2, "messages": MESSAGES, "score": float("nan"), "note": "\ud800"})
    path = _eval_archive(
        tmp_path / "log.eval",
        {
            "header.json": header.encode(),
            "samples/1_epoch_1.json": plain.encode(),
            "samples/2_epoch_1.json": refused.encode("utf-8"),
        },
    )
    value = read_eval(path).value
    expected = {**json.loads(header), "samples": [json.loads(plain), json.loads(refused.lstrip("\ufeff"))]}
    assert json.dumps(value, sort_keys=True) == json.dumps(expected, sort_keys=True)
    assert type(value["samples"][0]["meta"]["big"]) is int
    assert math.copysign(1.0, value["samples"][0]["meta"]["minus_zero"]) == -1.0


def test_a_member_of_an_eval_archive_that_is_not_json_is_one_error_in_json_s_words(tmp_path):
    broken = b'{"id": 3, "messages": [}'
    path = _eval_archive(tmp_path / "log.eval", {"header.json": b"{}", "samples/3_epoch_1.json": broken})
    try:
        json.loads(broken)
    except json.JSONDecodeError as error:
        expected = f"{path}: member samples/3_epoch_1.json: not JSON ({error})"
    with pytest.raises(InspectorError) as raised:
        read_eval(path)
    assert str(raised.value) == expected
