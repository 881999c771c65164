"""Detector `tool-markup` on the shapes the inference servers' parsers accept and inspector missed
(vLLM `tests/tool_parsers/`, SGLang `test_function_call_parser.py`: their facts, replies written
here): Step3, xLAM lists, several calls in one block, JSON literals and bytes in pythonic calls,
escaped GLM and indented Qwen3-Coder layouts. Each has its clean look-alikes and a hostile-size
input that must scan in linear time."""

from __future__ import annotations

import json
import threading

import pytest

from inspector.detect import detect_findings
from inspector.sources import load_sessions
from tests.helpers.markup import TOOLS, assert_recovered, fixed_calls_and_texts, markup_findings, one_finding

FW = "｜"  # full-width bar U+FF5C
STEP3_BEGIN, STEP3_END = f"<{FW}tool_calls_begin{FW}>", f"<{FW}tool_calls_end{FW}>"
STEP3_CALL, STEP3_CALL_END, STEP3_SEP = f"<{FW}tool_call_begin{FW}>", f"<{FW}tool_call_end{FW}>", f"<{FW}tool_sep{FW}>"
LIMIT = 10  # seconds for a hostile input: quadratic or worse takes minutes


def _tool(name, **properties):
    return {
        "type": "function",
        "function": {
            "name": name,
            "parameters": {"type": "object", "properties": {key: {"type": kind} for key, kind in properties.items()}},
        },
    }


EDIT_FILE = _tool(
    "edit_file", path="string", old_string="string", new_string="string", indent="integer", enabled="boolean"
)


def step3_call(name, **parameters):
    """One Step3 call: `function<｜tool_sep｜>` then a `<steptml:invoke>` element."""
    params = "".join(
        f'<steptml:parameter name="{key}">{value}</steptml:parameter>' for key, value in parameters.items()
    )
    return f'{STEP3_CALL}function{STEP3_SEP}<steptml:invoke name="{name}">{params}</steptml:invoke>{STEP3_CALL_END}'


def calls_of(finding):
    return [(call.name, call.arguments) for call in finding.fix.add_calls]


def assert_scans_fast(tmp_path, reply):
    """The reply, in a session, is scanned within `LIMIT` seconds (in a thread: a regression fails
    clearly instead of hanging); its findings."""
    path = tmp_path / "hostile.json"
    path.write_text(
        json.dumps(
            {"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": reply}], "tools": TOOLS}
        )
    )
    (session,) = load_sessions(path)
    found = []
    worker = threading.Thread(target=lambda: found.append(detect_findings(session)), daemon=True)
    worker.start()
    worker.join(LIMIT)
    assert not worker.is_alive(), f"scanning {len(reply):,} characters took over {LIMIT} s"
    return found[0]


def repeat(unit, size):
    return (unit * (size // len(unit) + 1))[:size]


# Step3 ------------------------------------------------------------------------------------------


def test_step3_section_with_prose_around_it(write_session):
    block = f"{STEP3_BEGIN}{step3_call('get_weather', city='Tokyo', days='3')}{STEP3_END}"
    reply = f"Let me check the weather for you.\n\n{block}\n\nI'll get that information."
    finding = one_finding(write_session, reply, family="step3")
    assert_recovered(
        finding,
        reply,
        "get_weather",
        {"city": "Tokyo", "days": 3},
        block + "\n\n",
        "Let me check the weather for you.\n\nI'll get that information.",
    )


def test_step3_two_calls_on_their_own_lines_typed_by_schema(write_session):
    search = step3_call("search_files", pattern="*.py", recursive="false", paths='["src"]')
    block = f"{STEP3_BEGIN}\n{search}\n{step3_call('run_code', code='print(40 + 2)')}\n{STEP3_END}"
    finding = one_finding(write_session, f"Two steps.\n{block}", family="step3")
    assert calls_of(finding) == [
        ("search_files", {"pattern": "*.py", "recursive": False, "paths": ["src"]}),
        ("run_code", {"code": "print(40 + 2)"}),
    ]
    assert finding.fix.apply_to_text(f"Two steps.\n{block}") == "Two steps."


def test_step3_string_values_keep_their_white_space_typed_values_do_not(write_session):
    call = step3_call(
        "edit_file", path="app.py", old_string="    if x:", new_string="return 1\n", indent=" 4 ", enabled=" true "
    )
    finding = one_finding(write_session, f"Re-indenting it.\n{STEP3_BEGIN}{call}{STEP3_END}", [EDIT_FILE], "step3")
    assert finding.fix.add_calls[0].arguments == {
        "path": "app.py",
        "old_string": "    if x:",
        "new_string": "return 1\n",
        "indent": 4,
        "enabled": True,
    }


def test_step3_lone_call_and_unknown_tool_kept_as_written(write_session):
    reply = f"Refreshing.\n{step3_call('refresh_cache', ttl='60', region='eu-west')}"
    finding = one_finding(write_session, reply, family="step3")
    assert calls_of(finding) == [("refresh_cache", {"ttl": "60", "region": "eu-west"})]


def test_step3_fix_rescans_clean_with_the_calls_structured(write_session, tmp_path):
    reply = f"Checking.\n{STEP3_BEGIN}{step3_call('get_weather', city='Oslo')}{STEP3_END}"
    path = write_session(
        [{"role": "user", "content": "Weather in Oslo?"}, {"role": "assistant", "content": reply}], TOOLS
    )
    assert fixed_calls_and_texts(path, tmp_path) == ([("get_weather", {"city": "Oslo"})], ["Checking."])


@pytest.mark.parametrize(
    "reply",
    [
        f"Step3 opens its calls with `{STEP3_BEGIN}` and closes them with `{STEP3_END}`.",
        f"The section marker {STEP3_BEGIN} is followed by the calls, then {STEP3_END}.",
        f"```\n{STEP3_BEGIN}{step3_call('get_weather', city='Paris')}{STEP3_END}\n```\nThat is the format.",
    ],
    ids=["inline-code", "prose-without-calls", "code-example"],
)
def test_step3_look_alikes_stay_clean(write_session, reply):
    path = write_session(
        [{"role": "user", "content": "How does Step3 call tools?"}, {"role": "assistant", "content": reply}], TOOLS
    )
    assert markup_findings(path) == []


@pytest.mark.parametrize(
    "unit",
    [
        STEP3_BEGIN + STEP3_CALL + "function" + STEP3_SEP + '<steptml:invoke name="f"><steptml:parameter name="q">',
        '<steptml:parameter name="q">x',
        STEP3_CALL + '<steptml:invoke name="f">',
        STEP3_BEGIN + STEP3_CALL + "function" + STEP3_SEP,
    ],
    ids=["repeated-sections", "unclosed-parameters", "repeated-lone-calls", "sections-with-no-call"],
)
def test_step3_hostile_size_scans_fast(tmp_path, unit):
    assert_scans_fast(tmp_path, STEP3_BEGIN + '<steptml:invoke name="f">' + repeat(unit, 200_000))


# xLAM ---------------------------------------------------------------------------------------------

XLAM_TWO = (
    '[{"name": "get_weather", "arguments": {"city": "Dallas", "days": 2}}, '
    '{"name": "search_files", "arguments": {"pattern": "forecast*.csv", "recursive": true}}]'
)


def test_xlam_list_that_is_the_whole_reply(write_session):
    finding = one_finding(write_session, XLAM_TWO + "\n", family="xlam")
    assert calls_of(finding) == [
        ("get_weather", {"city": "Dallas", "days": 2}),
        ("search_files", {"pattern": "forecast*.csv", "recursive": True}),
    ]
    assert finding.fix.apply_to_text(XLAM_TWO + "\n") == ""


def test_xlam_list_after_a_thinking_block_keeps_the_thinking(write_session):
    thinking = "<think>The user wants Seattle's forecast in celsius; one call will do.</think>"
    block = '[{"name": "get_weather", "arguments": {"city": "Seattle", "days": 1}}]'
    reply = f"{thinking}\n{block}"
    finding = one_finding(write_session, reply, family="xlam")
    assert_recovered(finding, reply, "get_weather", {"city": "Seattle", "days": 1}, "\n" + block, thinking)


def test_xlam_unknown_function_name_is_a_call_by_its_shape(write_session):
    reply = '[{"name": "lookup_order", "arguments": {"order_id": "W9077205"}}]'
    finding = one_finding(write_session, reply, family="xlam")
    assert calls_of(finding) == [("lookup_order", {"order_id": "W9077205"})]


def test_xlam_in_a_json_fence_and_after_tool_calls_marker(write_session):
    fenced = 'I\'ll help you with that.\n```json\n[{"name": "get_weather", "arguments": {"city": "Austin"}}]\n```'
    marked = 'I\'ll check the weather for you.[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Austin"}}]'
    for reply in (fenced, marked):
        finding = one_finding(write_session, reply)
        assert calls_of(finding) == [("get_weather", {"city": "Austin"})]


@pytest.mark.parametrize(
    "reply",
    [
        '[{"name": "Alice", "role": "admin"}, {"name": "Bob", "role": "viewer"}]',
        '[{"name": "get_weather", "description": "Current weather for a city", "parameters": {"type": "object", '
        '"properties": {"city": {"type": "string"}}}}]',
        '[{"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}]',
        '[{"name": "Alice", "arguments": ["it is cheaper", "it ships sooner"]}, {"name": "Bob", "arguments": []}]',
        '[{"name": "Jane Doe", "arguments": {"for": "remote work"}}]',
        '<think>They want the raw records.</think>\n[{"name": "Paris", "population": 2102650}]',
        "[]",
    ],
    ids=[
        "records",
        "tool-definitions",
        "schemas-as-parameters",
        "debate-arguments",
        "names-with-spaces",
        "records-after-thinking",
        "empty-list",
    ],
)
def test_xlam_look_alikes_stay_clean(write_session, reply):
    path = write_session(
        [{"role": "user", "content": "Give me that as JSON, please."}, {"role": "assistant", "content": reply}], TOOLS
    )
    assert markup_findings(path) == []


def test_xlam_hostile_size_scans_fast(tmp_path):
    item = '{"name": "get_weather", "arguments": {"city": "Paris"}}, '
    assert_scans_fast(tmp_path, "[" + repeat(item, 500_000) + '{"name": "f", "arguments": {}}]')
    assert_scans_fast(tmp_path, "<think>" + repeat("[{", 500_000) + "</think>[" + repeat("[", 200_000) + "]")


# Several calls in one block -----------------------------------------------------------------------

WEATHER = '{"name": "get_weather", "parameters": {"city": "Paris", "days": 2}}'
SEARCH = '{"name": "search_files", "parameters": {"pattern": "*.csv"}}'


@pytest.mark.parametrize("separator", ["; ", ";", " ; ", ";\n", "\n"])
def test_llama_calls_after_python_tag_joined_by_semicolons_or_lines(write_session, separator):
    reply = f"Let me do both.\n<|python_tag|>{WEATHER}{separator}{SEARCH}"
    finding = one_finding(write_session, reply, family="llama")
    assert calls_of(finding) == [("get_weather", {"city": "Paris", "days": 2}), ("search_files", {"pattern": "*.csv"})]
    assert finding.fix.apply_to_text(reply) == "Let me do both."


def test_llama_call_then_prose_after_a_semicolon_is_one_call(write_session):
    reply = f"<|python_tag|>{WEATHER}; then I will summarise it for you."
    finding = one_finding(write_session, reply, family="llama")
    assert calls_of(finding) == [("get_weather", {"city": "Paris", "days": 2})]
    assert finding.fix.apply_to_text(reply) == "; then I will summarise it for you."


@pytest.mark.parametrize("between", [", ", ",\n", "\n"], ids=["comma", "comma-newline", "own-lines"])
def test_hermes_two_objects_in_one_tool_call(write_session, between):
    block = f"<tool_call>\n{WEATHER}{between}{SEARCH}\n</tool_call>"
    reply = f"Checking the forecast and finding the CSV files.\n{block}\nBack in a moment."
    finding = one_finding(write_session, reply, family="hermes")
    assert calls_of(finding) == [("get_weather", {"city": "Paris", "days": 2}), ("search_files", {"pattern": "*.csv"})]
    assert finding.fix.apply_to_text(reply) == "Checking the forecast and finding the CSV files.\nBack in a moment."


def test_one_broken_line_in_a_tool_calls_block_keeps_the_good_lines(write_session, tmp_path):
    broken = '{"name": "run_code", "arguments": {"code": "print(1)"'
    block = f"<tool_calls>\n{WEATHER}\n{broken}\n{SEARCH}\n</tool_calls>"
    reply = f"Three things at once.\n{block}"
    finding = one_finding(write_session, reply, family="jamba")
    assert calls_of(finding) == [("get_weather", {"city": "Paris", "days": 2}), ("search_files", {"pattern": "*.csv"})]
    assert "a line that does not parse, " + broken in finding.message
    assert "warning: it is not recovered, and the fix removes it with the block" in finding.message
    path = write_session([{"role": "user", "content": "Go."}, {"role": "assistant", "content": reply}], TOOLS)
    assert fixed_calls_and_texts(path, tmp_path) == (
        [("get_weather", {"city": "Paris", "days": 2}), ("search_files", {"pattern": "*.csv"})],
        ["Three things at once."],
    )


def test_a_tool_calls_block_of_only_broken_lines_recovers_nothing(write_session):
    reply = 'Trying.\n<tool_calls>\n{"name": "get_weather", "arguments": {"city": \n{"name": "run_code"\n</tool_calls>'
    finding = one_finding(write_session, reply, family="jamba")
    assert finding.fix.add_calls == ()
    assert finding.fix.apply_to_text(reply) == "Trying."


@pytest.mark.parametrize(
    "text",
    [
        "<|python_tag|>" + repeat('{"name": "f", "arguments": {}} ; ', 300_000),
        repeat('<|python_tag|>{"name": "f", "arguments": {}}' + " " * 5000 + "\n", 300_000),
        "Go.\n<tool_calls>\n" + repeat('{"name": "f", "arguments": {"q": \n', 300_000) + "</tool_calls>",
        repeat('<tool_calls>\n{"name": "f", "arguments": {}}\n{"name": "f"\n</tool_calls>\n', 300_000),
        repeat('<tool_call>{"name": "f", "arguments": {}}, ', 300_000),
    ],
    ids=["semicolons", "white-space-runs", "broken-lines", "blocks-with-a-broken-line", "commas"],
)
def test_several_calls_hostile_size_scans_fast(tmp_path, text):
    assert_scans_fast(tmp_path, text)


# Literals in pythonic calls -----------------------------------------------------------------------

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


# Escaped and indented layouts ---------------------------------------------------------------------

TODO_WRITE = _tool("todo_write", todos="array")
SEND_MESSAGE = _tool("send_message", recipient="string", message="string")


def test_glm_escaped_once_more_reads_its_values_back(write_session):
    block = (
        '<tool_call>todo_write\\n<arg_key>todos</arg_key>\\n<arg_value>[{\\"id\\": \\"1\\", \\"task\\": '
        '\\"Audit the backend\\", \\"status\\": \\"in_progress\\"}]</arg_value>\\n</tool_call>'
    )
    reply = f"Updating the plan.\n{block}"
    finding = one_finding(write_session, reply, [TODO_WRITE], "glm")
    assert calls_of(finding) == [
        ("todo_write", {"todos": [{"id": "1", "task": "Audit the backend", "status": "in_progress"}]})
    ]
    assert finding.fix.apply_to_text(reply) == "Updating the plan."


def test_glm_escaped_string_values_lose_their_escapes(write_session):
    block = (
        "<tool_call>send_message\\n<arg_key>recipient</arg_key>\\n<arg_value>Amy</arg_value>\\n"
        '<arg_key>message</arg_key>\\n<arg_value>She said \\"see you at 5\\"\\nBring the keys.</arg_value>'
        "\\n</tool_call>"
    )
    finding = one_finding(write_session, f"Sending it now.\n{block}", [SEND_MESSAGE], "glm")
    assert calls_of(finding) == [
        ("send_message", {"recipient": "Amy", "message": 'She said "see you at 5"\nBring the keys.'})
    ]


def test_glm_with_real_newlines_keeps_backslashes_as_written(write_session):
    block = (
        '<tool_call>run_code\n<arg_key>code</arg_key>\n<arg_value>print("a\\"b")\\nprint(1)</arg_value>\n</tool_call>'
    )
    finding = one_finding(write_session, f"Running it.\n{block}", family="glm")
    assert calls_of(finding) == [("run_code", {"code": 'print("a\\"b")\\nprint(1)'})]


def test_glm_escaped_value_that_is_not_string_text_is_kept_as_written(write_session):
    block = (
        '<tool_call>run_code\\n<arg_key>code</arg_key>\\n<arg_value>open("C:\\Users\\me")</arg_value>\\n</tool_call>'
    )
    finding = one_finding(write_session, block, family="glm")
    assert calls_of(finding) == [("run_code", {"code": 'open("C:\\Users\\me")'})]


def test_qwen3_coder_indented_markup_loses_its_indentation(write_session):
    block = (
        "<tool_call>\n    <function=get_weather>\n        <parameter=city>\n        Dallas\n        </parameter>\n"
        "        <parameter=days>\n        4\n        </parameter>\n    </function>\n</tool_call>"
    )
    reply = f"I'll check the weather.{block}"
    finding = one_finding(write_session, reply, family="qwen3-coder")
    assert_recovered(finding, reply, "get_weather", {"city": "Dallas", "days": 4}, block, "I'll check the weather.")


def test_qwen3_coder_indented_code_keeps_its_own_indentation(write_session):
    block = (
        "<tool_call>\n  <function=edit_file>\n    <parameter=path>\n    app.py\n    </parameter>\n"
        "    <parameter=new_string>\n    if x:\n\n        return 1\n    </parameter>\n  </function>\n</tool_call>"
    )
    finding = one_finding(write_session, f"Fixing the guard clause.\n{block}", [EDIT_FILE], "qwen3-coder")
    assert calls_of(finding) == [("edit_file", {"path": "app.py", "new_string": "if x:\n\n    return 1"})]


@pytest.mark.parametrize(
    "value, expected",
    [
        ("\n    x = 1\n", "    x = 1"),  # closing tag not indented: the value's indentation is its own
        ("\n  a\nb\n  ", "  a\nb"),  # a line without the closing tag's indentation: nothing is taken off
        ("    x = 1", "    x = 1"),  # inline: as written
    ],
    ids=["closing-tag-not-indented", "uneven-lines", "inline"],
)
def test_qwen3_coder_values_whose_indentation_is_content(write_session, value, expected):
    reply = (
        f"Running it.\n<tool_call>\n<function=run_code>\n<parameter=code>{value}</parameter>\n</function>\n</tool_call>"
    )
    finding = one_finding(write_session, reply, family="qwen3-coder")
    assert calls_of(finding) == [("run_code", {"code": expected})]


def test_invoke_parameters_laid_out_with_indentation(write_session):
    block = (
        '<function_calls>\n  <invoke name="search_files">\n    <parameter name="pattern">\n      TODO\n'
        "    </parameter>\n  </invoke>\n</function_calls>"
    )
    finding = one_finding(write_session, f"Searching.\n{block}", family="anthropic-xml")
    assert calls_of(finding) == [("search_files", {"pattern": "TODO"})]


@pytest.mark.parametrize(
    "text",
    [
        repeat('<tool_call>f\\n<arg_key>q</arg_key>\\n<arg_value>\\"', 300_000),
        "<tool_call>f" + repeat("\\n \\n", 300_000),
        "<tool_call>f\\n<arg_key>q</arg_key>" + repeat("\\n", 300_000) + "<arg_value>" + repeat('\\"', 100_000),
        "<tool_call>\n<function=f>\n<parameter=q>\n" + repeat("    x\n", 300_000) + "    </parameter>",
        "<function=f><parameter=q>" + repeat("\n" + " " * 50, 300_000) + "</parameter>",
    ],
    ids=[
        "escaped-glm-blocks",
        "escaped-newlines-after-a-name",
        "long-escaped-gap-and-value",
        "indented-value",
        "blank-indented-lines",
    ],
)
def test_layouts_hostile_size_scans_fast(tmp_path, text):
    assert_scans_fast(tmp_path, text)
