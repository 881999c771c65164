"""`inspector report --html/--markdown`: a scan's findings as one self-contained page or as
Markdown, each flagged turn's original beside its repair with the fault and the change marked,
for every source `scan` reads; bad input and unsafe outputs refused in one line."""

from __future__ import annotations

import json
import os
import re
import shutil
import sqlite3
from pathlib import Path

import pytest

from inspector.cli.main import main
from tests.helpers.report_pages import (
    element_tags,
    fences,
    flagged_turns,
    marked_runs,
    outside_fences,
    side_text,
    table_cells,
)
from tests.helpers.samples import DOCS, SESSIONS, TOOL_SAMPLES
from tests.helpers.timing import cpu_time
from tests.helpers.tools import SAVE_MEMORY

CLI_PAGE = DOCS / "cli.md"

HOSTILE = (
    '{success: true, memory_type: "journal", content: "<script>alert(1)</script>"}'
    "Saved! \x1b[31m<img src=x onerror=alert(2)> ```` | pipe \u202e"
)


def _copy(tmp_path: Path, name: str) -> Path:
    return Path(shutil.copy(SESSIONS / name, tmp_path / name))


def _scan_json(capsys, *args: str) -> dict:
    main(["scan", "--json", *args])
    return json.loads(capsys.readouterr().out)


def _hostile_session(tmp_path: Path) -> Path:
    path = tmp_path / "hostile.json"
    path.write_text(
        json.dumps(
            {
                "messages": [{"role": "user", "content": "Journal my run"}, {"role": "assistant", "content": HOSTILE}],
                "tools": [SAVE_MEMORY],
            }
        )
    )
    return path


def test_html_shows_each_flagged_turn_with_the_fault_and_the_repair_marked(tmp_path, capsys):
    path = _copy(tmp_path, "memory-agent.openai.json")
    (session,) = _scan_json(capsys, str(path))["sessions"]
    out = tmp_path / "report.html"
    assert main(["report", str(path), "--html", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    flagged = sorted({finding["turn"] for finding in session["findings"]})
    assert [turn for _, turn in flagged_turns(page)] == flagged == [6, 8, 14, 20, 32]
    text = json.loads(path.read_text())["messages"][6]["content"]
    (finding,) = [f for f in session["findings"] if f["turn"] == 6]
    start, end = finding["span"]
    # the fake result is flagged, and removed with the blank line after it; the prose is left unmarked
    assert marked_runs(page, 6, "original", "fault") == [text[start:end]]
    assert marked_runs(page, 6, "original", "removed") == [text[: len(text) - len(finding["fix"]["content"])]]
    assert text[end : len(text) - len(finding["fix"]["content"])] == "\n\n"
    assert side_text(page, 6, "original") == text
    # the repair: the call recovered (new), its not-executed result, then the remaining prose unmarked
    added = marked_runs(page, 6, "repaired", "added")
    assert added[0] == f"save_memory({json.dumps(finding['arguments'], ensure_ascii=False)})"
    assert "not executed" in added[1] and len(added) == 2
    assert side_text(page, 6, "repaired").endswith(finding["fix"]["content"])
    # turn 14 holds two fake results: both flagged, both cut, two calls recovered
    assert len(marked_runs(page, 14, "original", "removed")) == 1  # they touch: one run
    assert len([run for run in marked_runs(page, 14, "repaired", "added") if run.startswith("save_memory(")]) == 2
    # the summary, the chart and the rates as the JSON report has them
    assert "<svg" in page and "result-prefix" in page and "6 findings" in page.replace("</strong>", "")
    # its fake results are rated (5 on save_memory's 6 calls), by model and tool; web_search, with
    # no finding, has no row (no all-zero row)
    assert "no finding of a kind about tool calls" not in page
    assert "tool save_memory" in page and "model gemini-2.5-flash" in page and "tool web_search" not in page
    # self-contained: no script, no asset from anywhere
    assert element_tags(page).isdisjoint({"script", "link", "img", "iframe", "object", "embed"})
    assert "http://" not in page and "https://" not in page


def test_calls_repaired_in_place_show_the_word_that_changed(tmp_path, capsys):
    path = _copy(tmp_path, "analyst-agent.openai.json")
    out = tmp_path / "report.html"
    assert main(["report", str(path), "--html", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert marked_runs(page, 10, "original", "removed") == ["Bar"]  # invalid-argument: "Bar" -> "bar"
    assert marked_runs(page, 10, "repaired", "added") == ["bar"]
    assert marked_runs(page, 14, "original", "removed") == ["send_mail"]  # unknown-tool: renamed
    assert marked_runs(page, 14, "repaired", "added") == ["send_email"]
    assert marked_runs(page, 16, "original", "removed") == ["recipient"]  # unknown-parameter
    assert marked_runs(page, 16, "repaired", "added") == ["to"]
    # a finding with no fix (a tool's own error) shows its turn and says why nothing is repaired
    assert "No automatic fix" in page.split('data-turn="15"')[1].split("</article>")[0]
    # the orphan call: the call unchanged, a result recorded after it
    assert marked_runs(page, 22, "original", "removed") == []
    assert marked_runs(page, 22, "repaired", "added") == ["No result was recorded for this call (added by inspector)."]


def test_model_text_is_escaped_and_neutralised_in_html(tmp_path):
    path = _hostile_session(tmp_path)
    out = tmp_path / "report.html"
    assert main(["report", str(path), "--html", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert element_tags(page).isdisjoint({"script", "img"})
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "&lt;img src=x onerror=alert(2)&gt;" in page
    assert "\x1b" not in page and "\u202e" not in page
    assert "\\x1b[31m" in page and "\\u202e" in page


def test_markdown_is_well_formed_with_fences_longer_than_any_backtick_run(tmp_path):
    path = _hostile_session(tmp_path)
    out = tmp_path / "report.md"
    assert main(["report", str(path), "--markdown", str(out)]) == 0
    markdown = out.read_text(encoding="utf-8")
    bodies = fences(markdown)  # every fence closed by one as long
    assert any("````" in body for body in bodies)
    assert any(line.startswith("`````") for line in markdown.splitlines())  # the fence outgrows the text's run
    (original,) = [body for body in bodies if body.startswith("[-")]
    # the marks: the fake result removed, the prose kept
    assert original.startswith(
        '[-{success: true, memory_type: "journal", content: "<script>alert(1)</script>"}-]Saved!'
    )
    assert any(body.startswith("{+save_memory(") for body in bodies)
    prose = outside_fences(markdown)
    assert "<script>" not in prose and "<img" not in prose and "\x1b" not in markdown and "\u202e" not in markdown


def test_a_call_whose_agent_kept_only_its_parse_error_is_labelled_so(tmp_path):
    """Copilot CLI kept its parser's errors in place of two calls' arguments: the report says so
    above each, where it labelled them as any call."""
    out = tmp_path / "report.md"
    assert main(["report", str(TOOL_SAMPLES / "copilot-cli.events.jsonl"), "--markdown", str(out)]) == 0
    markdown = out.read_text(encoding="utf-8")
    label = "*call, its arguments lost: the agent kept its parser's error*"
    assert markdown.count(label) == 2
    assert f"{label}\n\n```text\nview(Expected property name or '}}' in JSON" in markdown


def test_markdown_tables_keep_their_columns_whatever_a_tool_is_named(tmp_path):
    path = tmp_path / "odd-tool.json"
    path.write_text(
        json.dumps(
            {
                "model": "m|<b>x</b>",
                "tools": [{"type": "function", "function": {"name": "read", "parameters": {"type": "object"}}}],
                "messages": [
                    {"role": "user", "content": "go"},
                    {
                        "role": "assistant",
                        "content": "",
                        "tool_calls": [
                            {"id": "c1", "type": "function", "function": {"name": "a|b`c", "arguments": "{}"}}
                        ],
                    },
                    {"role": "tool", "tool_call_id": "c1", "content": "ok"},
                ],
            }
        )
    )
    out = tmp_path / "report.md"
    assert main(["report", str(path), "--markdown", str(out)]) == 0
    prose = outside_fences(out.read_text(encoding="utf-8"))
    rates = prose.split("### Rates")[1].split("\n\n")[2].splitlines()
    widths = {len(table_cells(row)) for row in rates}
    assert widths == {len(table_cells(rates[0]))} and len(rates) == 5  # header, rule, all, one model, one tool
    assert r"model m\|\<b\>x\</b\>" in prose and r"tool a\|b\`c" in prose
    assert "<b>" not in prose


def test_markdown_and_html_to_stdout(tmp_path, capsys):
    path = _copy(tmp_path, "memory-agent.openai.json")
    assert main(["report", str(path), "--markdown", "-"]) == 0
    markdown = capsys.readouterr().out
    assert markdown.startswith("# inspector report") and "### Turn 32 · assistant" in markdown
    assert main(["report", str(path), "--html", "-"]) == 0
    assert capsys.readouterr().out.startswith("<!DOCTYPE html>")
    assert sorted(os.listdir(tmp_path)) == ["memory-agent.openai.json"]


def test_a_history_has_one_section_per_flagged_conversation(tmp_path, capsys):
    path = _copy(tmp_path, "rails-chat.rubyllm.db")
    report = _scan_json(capsys, str(path))
    flagged = [(s["session_id"], f["turn"]) for s in report["sessions"] for f in s["findings"]]
    out = tmp_path / "report.html"
    assert main(["report", str(path), "--html", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert [turn for _, turn in flagged_turns(page)] == [turn for _, turn in flagged]
    assert page.count('<section class="conversation"') == 3  # the fourth conversation is clean
    assert "session 1" in page and "session 4" not in page and "4</strong> sessions" in page
    assert marked_runs(page, 1, "original", "removed", "c2") == ["}}"]  # session 2: two extra braces removed
    markdown_out = tmp_path / "one.md"
    assert main(["report", str(path), "--session", "3", "--markdown", str(markdown_out)]) == 0
    markdown = markdown_out.read_text(encoding="utf-8")
    assert markdown.count("\n## ") == 3 and "session 3" in markdown  # summary, list, the one conversation
    assert "[-<tool_call>" in markdown and "{+whiteboard(" in markdown


def test_scan_options_are_taken(tmp_path, capsys):
    # --table/--map: any table, one conversation per session column
    db = tmp_path / "app.db"
    with sqlite3.connect(db) as connection:
        connection.execute("CREATE TABLE turns (turn_no, convo, speaker, body)")
        connection.executemany(
            "INSERT INTO turns VALUES (?, ?, ?, ?)",
            [
                (1, "a", "human", "Journal my walk."),
                (2, "a", "bot", '{success: true, memory_type: "journal", content: "Walked."}Noted, lovely walk.'),
                (1, "b", "human", "hi"),
            ],
        )
    connection.close()
    out = tmp_path / "table.md"
    assert (
        main(
            [
                "report",
                str(db),
                "--table",
                "turns",
                "--map",
                "role=speaker,content=body,session=convo,order=turn_no",
                "--markdown",
                str(out),
            ]
        )
        == 0
    )
    assert "session a" in out.read_text(encoding="utf-8") and "session b" not in out.read_text(encoding="utf-8")
    # --format and --tools, as scan takes them: the tool is known only from the file
    path = tmp_path / "bare.txt"
    path.write_text(
        json.dumps({"messages": [{"role": "user", "content": "log it"}, {"role": "assistant", "content": HOSTILE}]})
    )
    tools = tmp_path / "tools.json"
    tools.write_text(json.dumps([SAVE_MEMORY]))
    out = tmp_path / "tools.html"
    assert main(["report", str(path), "--format", "openai", "--tools", str(tools), "--html", str(out)]) == 0
    assert "save_memory, not executed" in out.read_text(encoding="utf-8")


def test_a_clean_session_gives_a_report_saying_so_and_exit_zero(tmp_path):
    path = _copy(tmp_path, "clean.openai.json")
    out = tmp_path / "clean.html"
    assert main(["report", str(path), "--html", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert "Nothing was flagged" in page and flagged_turns(page) == []


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["missing.json", "--html", "{out}"], "missing.json"),
        (["{garbage}", "--html", "{out}"], "garbage.json"),
        (["{input}"], "give --html OUT or --markdown OUT"),
        (["{input}", "--html", "-", "--markdown", "-"], "name the same output"),
        (["{input}", "--html", "{tmp}/no/such/dir/out.html"], "its directory does not exist"),
        (["{input}", "--html", "{existing}"], "exists already"),
        (["{input}", "--html", "{input}", "--force"], "is one of the sessions read"),
        (["{input}", "--html", "{link}", "--force"], "is one of the sessions read"),
        (["{input}", "--html", "{tmp}", "--force"], "is not a regular file"),
        (["{input}", "--html", "{out}", "--jobs", "0"], "--jobs"),
    ],
)
def test_bad_input_or_output_is_one_line_and_exit_2(tmp_path, capsys, arguments, message):
    path = _copy(tmp_path, "memory-agent.openai.json")
    before = path.read_bytes()
    (tmp_path / "garbage.json").write_text("{not json")
    (tmp_path / "existing.html").write_text("keep me")
    os.link(path, tmp_path / "hardlink.json")
    names = {
        "out": tmp_path / "out.html",
        "garbage": tmp_path / "garbage.json",
        "input": path,
        "tmp": tmp_path,
        "existing": tmp_path / "existing.html",
        "link": tmp_path / "hardlink.json",
    }
    listing = sorted(os.listdir(tmp_path))
    assert main(["report", *(argument.format(**names) for argument in arguments)]) == 2
    captured = capsys.readouterr()
    assert captured.err.count("\n") == 1 and message in captured.err and "Traceback" not in captured.err
    assert captured.out == ""
    assert sorted(os.listdir(tmp_path)) == listing  # nothing written, no temporary file left
    assert path.read_bytes() == before and (tmp_path / "existing.html").read_text() == "keep me"


def test_an_existing_report_is_replaced_only_with_force(tmp_path):
    path = _copy(tmp_path, "memory-agent.openai.json")
    out = tmp_path / "report.html"
    out.write_text("old")
    assert main(["report", str(path), "--html", str(out)]) == 2
    assert out.read_text() == "old"
    assert main(["report", str(path), "--html", str(out), "--force"]) == 0
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert sorted(os.listdir(tmp_path)) == ["memory-agent.openai.json", "report.html"]


def test_a_huge_turn_is_shown_shortened_and_fast(tmp_path):
    fake = '{success: true, memory_type: "journal", content: "' + "x" * 500_000 + '"}'
    path = tmp_path / "huge.json"
    path.write_text(
        json.dumps(
            {
                "messages": [
                    {"role": "user", "content": "go"},
                    {"role": "assistant", "content": fake + "word " * 200_000},
                ],
                "tools": [SAVE_MEMORY],
            }
        )
    )
    out = tmp_path / "huge.html"
    started = cpu_time()
    assert main(["report", str(path), "--html", str(out), "--markdown", str(tmp_path / "huge.md")]) == 0
    assert cpu_time() - started < 5
    page = out.read_text(encoding="utf-8")
    assert len(page) < 100_000 and "characters not shown" in page
    assert len((tmp_path / "huge.md").read_text(encoding="utf-8")) < 100_000


@pytest.mark.parametrize("keys", [12, 5_000])
def test_a_call_repaired_everywhere_is_compared_fast(tmp_path, keys):
    """Single-quoted arguments: the repair changes every quote, so the whole middle differs; small,
    difflib aligns it word by word, hostile-sized (100 KB), it is shown replaced whole."""
    arguments = "{" + ", ".join(f"'k{index}': 'a b a b'" for index in range(keys)) + "}"
    path = tmp_path / "quotes.json"
    path.write_text(
        json.dumps(
            {
                "messages": [
                    {"role": "user", "content": "go"},
                    {
                        "role": "assistant",
                        "content": "",
                        "tool_calls": [
                            {
                                "id": "c1",
                                "type": "function",
                                "function": {"name": "save_memory", "arguments": arguments},
                            }
                        ],
                    },
                    {"role": "tool", "tool_call_id": "c1", "content": "ok"},
                ]
            }
        )
    )
    out = tmp_path / "quotes.html"
    started = cpu_time()
    assert main(["report", str(path), "--html", str(out)]) == 0
    assert cpu_time() - started < 5
    page = out.read_text(encoding="utf-8")
    removed, added = marked_runs(page, 1, "original", "removed"), marked_runs(page, 1, "repaired", "added")
    if keys == 12:
        assert set(removed) == {"'"} and set(added) == {'"'}  # only the quotes changed
    else:  # replaced whole, shown by its two ends around a note of what is not shown
        assert len(removed) == len(added) == 2 and "characters not shown" in page
        assert removed[0].startswith("'k0': 'a b a b'") and added[0].startswith('"k0": "a b a b"')
        assert removed[1].endswith("'k4999': 'a b a b'") and added[1].endswith('"k4999": "a b a b"')


def test_help_and_docs_show_the_command(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    assert re.search(r"^\s+report\s+write a report to share", capsys.readouterr().out, re.M)
    with pytest.raises(SystemExit):
        main(["report", "--help"])
    help_text = capsys.readouterr().out
    assert "--html OUT" in help_text and "--markdown OUT" in help_text and "--session ID" in help_text
    section = CLI_PAGE.read_text(encoding="utf-8").split("\n## inspector report\n")[1].split("\n## ")[0]
    assert "inspector report dump.json --html report.html" in section and "--markdown -" in section
