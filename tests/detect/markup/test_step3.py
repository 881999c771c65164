"""Detector `tool-markup` on Step3's tool-call sections, as vLLM's and SGLang's parsers accept them
(their facts, replies written here): prose around them, several calls typed by the schema, a lone
call, the fix re-scanned clean; the clean look-alikes, and hostile sizes scanned in linear time."""

from __future__ import annotations

import pytest

from tests.helpers.markup import (
    EDIT_FILE,
    TOOLS,
    assert_recovered,
    assert_scans_fast,
    calls_of,
    fixed_calls_and_texts,
    markup_findings,
    one_finding,
    repeat,
)

FW = "｜"  # full-width bar U+FF5C
STEP3_BEGIN, STEP3_END = f"<{FW}tool_calls_begin{FW}>", f"<{FW}tool_calls_end{FW}>"
STEP3_CALL, STEP3_CALL_END, STEP3_SEP = f"<{FW}tool_call_begin{FW}>", f"<{FW}tool_call_end{FW}>", f"<{FW}tool_sep{FW}>"


def step3_call(name, **parameters):
    """One Step3 call: `function<｜tool_sep｜>` then a `<steptml:invoke>` element."""
    params = "".join(
        f'<steptml:parameter name="{key}">{value}</steptml:parameter>' for key, value in parameters.items()
    )
    return f'{STEP3_CALL}function{STEP3_SEP}<steptml:invoke name="{name}">{params}</steptml:invoke>{STEP3_CALL_END}'


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
