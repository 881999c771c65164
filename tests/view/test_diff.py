"""The review's diffs on their own: text word by word (bounded on hostile sizes), a fix's known cuts,
and call arguments key by key, nested ones included."""

from __future__ import annotations

import json

import pytest

from inspector.scan.scanner import scan_file
from inspector.view.arguments_diff import diff_arguments, laid_out, path_name
from inspector.view.repaired_turn import fix_preview as preview
from inspector.view.word_diff import INSERTED, REMOVED, REPLACED, diff_text, removal_diff
from tests.helpers.timing import cpu_time
from tests.helpers.tools import SAVE_MEMORY

FAKE = '{success: true, memory_type: "journal", content: "Ran 10k today."}'


def marked_before(before: str, after: str) -> list[str]:
    return [before[start:end] for start, end, _ in diff_text(before, after).before_spans()]


def test_one_extra_brace_marks_one_character():
    diff = diff_text('{"sql": "SELECT 1", "limit": 10}}', '{"sql": "SELECT 1", "limit": 10}')
    assert diff.before_spans() == ((32, 33, REMOVED),) and diff.after_spans() == () and diff.exact


def test_a_fake_result_prefix_marks_just_the_object():
    text = FAKE + "Saved it to your journal. Nice run!"
    assert marked_before(text, "Saved it to your journal. Nice run!") == [FAKE]


def test_a_replaced_word_marks_that_word_on_both_sides():
    diff = diff_text("Saved it to your journal today.", "Saved it to your diary today.")
    assert diff.before_spans() == ((17, 24, REPLACED),) and diff.after_spans() == ((17, 22, REPLACED),)
    inserted = diff_text("Saved it.", "Saved it, Sam.")
    assert [("Saved it, Sam."[start:end], kind) for start, end, kind in inserted.after_spans()] == [(", Sam", INSERTED)]


def test_changes_far_apart_in_a_long_text_are_each_marked_exactly():
    lines = [f"line {n}: the run on day {n} went fine\n" for n in range(3000)]
    before, after = "".join(lines), "".join(lines).replace("day 10 ", "day ten ").replace("line 2900:", "line 2900!")
    assert marked_before(before, after) == ["10 ", ":"]


def test_a_cut_known_in_advance_is_exact_and_merges_touching_spans():
    text = "{a}{b}keep{c}"
    diff = removal_diff(text, [(3, 6), (0, 3), (10, 13)])
    assert [text[start:end] for start, end, _ in diff.before_spans()] == ["{a}{b}", "{c}"]
    assert [change.after for change in diff.changes] == [(0, 0), (4, 4)]  # where each was, in "keep"


def test_a_fix_cutting_a_fake_result_is_shown_as_cutting_just_that(write_session):
    reply = FAKE + "Saved it to your journal."
    path = write_session(
        [{"role": "user", "content": "journal: ran 10k"}, {"role": "assistant", "content": reply}], [SAVE_MEMORY]
    )
    result = scan_file(path)[0]
    (finding,) = [f for f in result.findings if f.kind == "result-prefix"]
    shown = preview(finding, result.session.turn_at(finding.turn))
    assert [reply[start:end] for start, end, _ in shown.text_diff.before_spans()] == [FAKE]
    assert shown.text_diff.after_spans() == ()  # the text after the fix gains nothing


@pytest.mark.parametrize(
    "before, after",
    [
        ("a " * 100_000, "b " * 100_000),  # every word the same
        ("{" * 100_000 + "}" * 100_000, "{" * 99_999 + "}" * 100_001),
        ("x\n" * 100_000, "x\n" * 50_000 + "y\n" + "x\n" * 49_999),
        ("".join(f"w{n % 7} " for n in range(40_000)), "".join(f"w{n % 5} " for n in range(40_000))),
        ("ab {}\n" * 35_000, "ba }{\n" * 35_000),
    ],
    ids=["same-words", "braces", "lines", "repeating-words", "short-lines"],
)
def test_a_200_kb_text_is_compared_fast(before: str, after: str):
    started = cpu_time()
    diff = diff_text(before, after)
    assert cpu_time() - started < 3
    assert diff.changes  # something is marked, word by word or, past the budget, line by line or whole
    for start, end, _ in diff.before_spans():
        assert 0 <= start < end <= len(before)


def test_one_changed_value_marks_one_argument():
    diff = diff_arguments({"sql": "SELECT 1", "limit": "5"}, {"sql": "SELECT 1", "limit": 5})
    assert (diff.added, diff.changed, diff.removed) == (set(), {("limit",)}, set())


def test_a_nested_change_marks_the_nested_key_only():
    old = {"query": {"table": "trials", "filter": {"month": "2026-10", "limit": "10"}}, "format": "csv"}
    new = {"query": {"table": "trials", "filter": {"month": "2026-10", "limit": 10}}, "format": "csv"}
    diff = diff_arguments(old, new)
    assert diff.changed == {("query", "filter", "limit")} and not diff.added and not diff.removed
    assert path_name(("query", "filter", "limit")) == "query.filter.limit"


def test_added_removed_and_list_items():
    diff = diff_arguments(
        {"recipient": "a@b.c", "tags": ["x", "y"], "n": 1}, {"to": "a@b.c", "tags": ["x", "z"], "n": 1.0}
    )
    assert diff.added == {("to",)} and diff.removed == {("recipient",)}
    assert diff.changed == {("tags", 1), ("n",)}  # 1 and 1.0 are different JSON
    assert path_name(("tags", 1)) == "tags[1]"


def test_arguments_that_could_not_be_read_make_every_argument_added():
    assert diff_arguments(None, {"a": 1, "b": {"c": 2}}).added == {("a",), ("b",)}
    assert not diff_arguments({"a": [1, {"b": None}]}, {"a": [1, {"b": None}]})


@pytest.mark.parametrize(
    "value",
    [
        {},
        {"a": 1},
        {"a": {"b": [1, {"c": None}], "d": [], "e": {}}, "f": "x\ny", "g": "é"},
        [1, [2, 3]],
        "text",
    ],
)
def test_laid_out_is_json_dumps_and_spans_cover_each_entry(value):
    text, spans = laid_out(value)
    assert text == json.dumps(value, indent=2, ensure_ascii=False)
    if isinstance(value, dict) and "a" in value and isinstance(value["a"], dict):
        assert text[slice(*spans[("a", "b", 1, "c")])] == '"c": null'
        assert text[slice(*spans[("a", "d")])] == '"d": []'


def test_deep_arguments_are_compared_and_laid_out_without_exhausting_the_stack():
    deep: dict = {}
    inner = deep
    for _ in range(500):
        inner["a"] = {}
        inner = inner["a"]
    text, _ = laid_out(deep)
    assert text == json.dumps(deep, indent=2, ensure_ascii=False)
    assert diff_arguments(deep, {"a": 1}).changed == {("a",)}


def test_whole_words_marks_a_renamed_name_whole_where_the_default_marks_one_letter():
    before, after = 'send_mail({"to": "sam"})', 'send_email({"to": "sam"})'
    assert [after[start:end] for start, end, _ in diff_text(before, after).after_spans()] == ["e"]
    assert diff_text(before, after).before_spans() == ()
    words = diff_text(before, after, whole_words=True)
    assert [before[start:end] for start, end, _ in words.before_spans()] == ["send_mail"]
    assert [after[start:end] for start, end, _ in words.after_spans()] == ["send_email"]


def test_whole_words_shows_no_change_of_the_white_space_after_a_word():
    before, after = "Saved it to your\njournal today.  Nice run!", "Saved it to your journal today. Nice run!"
    assert diff_text(before, after).changes
    assert diff_text(before, after, whole_words=True).changes == ()


@pytest.mark.parametrize("whole_words", [False, True])
def test_both_granularities_are_bounded_on_hostile_text(whole_words: bool):
    before, after = "ab {}\n" * 35_000, "ba }{\n" * 35_000
    started = cpu_time()
    diff = diff_text(before, after, whole_words=whole_words)
    assert cpu_time() - started < 3 and diff.changes
