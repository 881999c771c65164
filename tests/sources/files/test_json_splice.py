"""Writing a JSON document back from the bytes read: untouched records copied as they were (layout,
escapes and all), only what a repair changed encoded again, the whole still the value the full
re-encoding gives."""

import json
from dataclasses import replace

import pytest

from inspector.cli.main import main
from inspector.repair.apply import apply_fixes
from inspector.scan.scanner import iter_scan
from inspector.sources import load_sessions, open_source
from inspector.sources.files.document import parse_document
from inspector.sources.formats import rendered_file
from tests.helpers.samples import SESSIONS

MESSAGES = [
    {"role": "system", "content": "Be brief, caf\u00e9 owner."},
    {"role": "user", "content": "Note: the espresso machine is broken."},
    {"role": "assistant", "content": "Noted.", "tool_calls": []},
    {"role": "user", "content": "And order beans \u2028 tomorrow."},
    {"role": "assistant", "content": None, "extra": {"n": [1, 2.50, 1e3]}},
]


def _laid_out(messages, indent):
    """The messages as a tool might write them: each record compact with ASCII escapes, the list
    indented by `indent` (None: one line)."""
    items = [json.dumps(m, separators=(",", ":")) for m in messages]
    if indent is None:
        return "[" + ", ".join(items) + "]"
    return "[\n" + ",\n".join(indent + item for item in items) + "\n]"


def _edited_removed_inserted(messages):
    """An edited message 1, message 2 removed, a new message before message 3 (sharing the rest)."""
    edited = {**messages[1], "content": "Note: the machine is fixed."}
    inserted = {"role": "tool", "tool_call_id": "c1", "content": "saved"}
    return [messages[0], edited, inserted, *messages[3:]]


@pytest.mark.parametrize("indent", [None, "  ", "\t"])
@pytest.mark.parametrize("shape", ["list", "object"])
def test_a_spliced_document_keeps_untouched_messages_byte_for_byte(shape, indent):
    listed = _laid_out(MESSAGES, indent)
    text = listed if shape == "list" else '{"model": "m",\n "messages": ' + listed + ',\n "tools": []}\n'
    document = parse_document("s.json", text.encode())
    messages = document.value if shape == "list" else document.value["messages"]
    new_messages = _edited_removed_inserted(messages)
    new = new_messages if shape == "list" else {**document.value, "messages": new_messages}

    written = document.render_bytes(new).decode()

    assert json.loads(written) == json.loads(document.render(new))  # the value the full re-encoding gives
    expected = _edited_removed_inserted(MESSAGES)
    assert (json.loads(written) if shape == "list" else json.loads(written)["messages"]) == expected
    for kept in (MESSAGES[0], *MESSAGES[3:]):
        assert json.dumps(kept, separators=(",", ":")) in written  # escapes and spacing as they were
    assert json.dumps(MESSAGES[2], separators=(",", ":")) not in written
    if shape == "object":
        assert written.startswith('{"model": "m",\n "messages": ') and written.endswith(',\n "tools": []}\n')


def test_new_messages_are_indented_as_the_document_is():
    text = json.dumps({"messages": MESSAGES[:2]}, indent=2, ensure_ascii=False)
    document = parse_document("s.json", text.encode())
    new = {"messages": [*document.value["messages"], {"role": "user", "content": "more", "tags": ["a"]}]}
    assert document.render_bytes(new).decode() == json.dumps(new, indent=2, ensure_ascii=False)


def test_nothing_changed_is_the_file_as_read():
    data = b'  {"messages" :[ {"role":"user","content":"hi"} ,{"role":"user","content":"x"}]}  \n'
    document = parse_document("s.json", data)
    assert document.render_bytes(document.value) == data
    messages = document.value["messages"]
    assert document.render_bytes({"messages": list(messages)}) == data  # a new list of the same messages


def test_separators_that_differ_are_each_found():
    data = b'[{"a":1},{"b":2} ,  {"c":3},   {"d":4}]'
    document = parse_document("s.json", data)
    old = document.value
    written = document.render_bytes([old[0], old[1], {"e": 5}, old[3]])
    assert written == b'[{"a":1},{"b":2},{"e": 5},{"d":4}]'


def test_keys_given_twice_fall_back_to_encoding_the_whole_value():
    data = b'{"messages": [{"role": "user", "content": "a"}], "messages": [{"role": "user", "content": "b"}]}'
    document = parse_document("s.json", data)
    new = {"messages": [*document.value["messages"], {"role": "user", "content": "c"}]}
    assert json.loads(document.render_bytes(new)) == new


def test_json_lines_are_written_as_before():
    text = "".join(json.dumps(m, separators=(",", ":")) + "\n" for m in MESSAGES)
    document = parse_document("s.jsonl", text.encode())
    new = _edited_removed_inserted(document.value)
    written = document.render_bytes(new).decode()
    assert written == document.render(new)
    assert [json.loads(line) for line in written.splitlines()] == _edited_removed_inserted(MESSAGES)


def _repaired(path):
    """Every session of `path` with all its findings' fixes applied."""
    return [apply_fixes(result.session, result.findings)[0] for result in iter_scan(open_source(path), ())]


@pytest.mark.parametrize(
    "name",
    [
        "analyst-agent.openai.json",
        "memory-agent.openai.json",
        "quickstart.openai.jsonl",
        "support-agent.anthropic.json",
        "travel-agent.gemini.json",
    ],
)
def test_a_repaired_sample_has_the_value_the_full_re_encoding_gives(name):
    sessions = _repaired(SESSIONS / name)
    assert any(turn.edited or turn.raw is None for session in sessions for turn in session.turns)
    document = sessions[0].document
    encoded = [replace(session, document=replace(document, data=None)) for session in sessions]  # the old way
    spliced, whole = rendered_file(sessions), rendered_file(encoded)
    if document.is_jsonl:
        assert spliced == whole
    else:
        assert json.loads(spliced) == json.loads(whole)
    if name == "memory-agent.openai.json":  # written by `json.dumps(indent=2)`: the same bytes either way
        assert spliced == whole


def test_fix_keeps_each_untouched_message_as_the_file_had_it(tmp_path):
    value = json.loads((SESSIONS / "memory-agent.openai.json").read_text(encoding="utf-8"))
    compact = [json.dumps(m, separators=(",", ":")) for m in value["messages"]]
    path = tmp_path / "memory.json"
    path.write_text('{"model": "m", "messages": [\n' + ",\n".join(compact) + "\n]}\n", encoding="utf-8")
    out, plain_out = tmp_path / "fixed.json", tmp_path / "plain-fixed.json"

    assert main(["fix", str(path), "--accept", "all", "-o", str(out)]) == 0
    assert main(["fix", str(SESSIONS / "memory-agent.openai.json"), "--accept", "all", "-o", str(plain_out)]) == 0

    written = out.read_text(encoding="utf-8")
    fixed_messages = json.loads(written)["messages"]
    assert fixed_messages == json.loads(plain_out.read_text(encoding="utf-8"))["messages"]
    untouched = [text for text, message in zip(compact, value["messages"]) if message in fixed_messages]
    assert len(untouched) > len(compact) / 2
    assert all(text in written for text in untouched)
    assert [t.text for s in load_sessions(out) for t in s.turns] == [
        t.text for s in load_sessions(plain_out) for t in s.turns
    ]


def test_fix_of_json_lines_with_crlf_and_no_final_break_keeps_every_untouched_line(tmp_path):
    sample = SESSIONS / "notes-agent.claude-code.jsonl"
    lines = sample.read_bytes().splitlines()
    path = tmp_path / "crlf.jsonl"
    path.write_bytes(b"\r\n".join(lines))  # CRLF, and no break after the last line
    out, plain_out = tmp_path / "fixed.jsonl", tmp_path / "plain-fixed.jsonl"

    assert main(["fix", str(path), "--accept", "all", "-o", str(out)]) in (0, 1)
    assert main(["fix", str(sample), "--accept", "all", "-o", str(plain_out)]) in (0, 1)

    written = out.read_bytes()
    assert written.count(b"\n") == written.count(b"\r\n")  # new and changed lines break as the file does
    kept = set(written.split(b"\r\n"))
    assert sum(line in kept for line in lines) > len(lines) / 2
    assert written.split(b"\r\n") != lines  # the fix changed something
    assert [t.text for s in load_sessions(out) for t in s.turns] == [
        t.text for s in load_sessions(plain_out) for t in s.turns
    ]


def test_only_a_format_whose_writer_copies_from_the_bytes_keeps_them():
    assert load_sessions(SESSIONS / "memory-agent.openai.json")[0].document.data is not None
    assert load_sessions(SESSIONS / "notes-agent.ag2.json")[0].document.data is None
