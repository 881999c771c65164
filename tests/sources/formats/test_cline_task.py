"""The tasks of the VS Code extensions Cline, Roo Code and Kilo Code (`api_conversation_history.json`),
built from the extensions' storage code (`sessions/generate/vscode_tasks.py`: VS Code cannot run
here): claimed by `cline-task` alone, Cline's XML tool calls in a reply's text and the results
in the user's text read as calls and results (not as markup printed by mistake), the planted
problems found once, and the parser linear on hostile text."""

from __future__ import annotations

import json
import time

import pytest

from inspector.cli.main import main
from inspector.model import ASSISTANT, TOOL
from inspector.sources import FORMATS, load_sessions
from inspector.sources.files.document import read_document
from inspector.sources.formats._cline_task_xml import xml_calls
from tests.helpers.frameworks import format_read, other_samples, specific_claims
from tests.helpers.samples import TOOL_SAMPLES
from tests.helpers.scanning import finding_triples

XML = TOOL_SAMPLES / "cline.api_conversation_history.json"
NATIVE = [
    TOOL_SAMPLES / "roo-code.api_conversation_history.json",
    TOOL_SAMPLES / "kilo-code.api_conversation_history.json",
    TOOL_SAMPLES / "cline.native.api_conversation_history.json",
]
TASKS = [XML, *NATIVE]
PLANTED = [(1, "result-prefix", None), (3, "tool-markup", "read_file")]
CALLS = ["attempt_completion", "ask_followup_question", "read_file", "execute_command"]


@pytest.mark.parametrize("path", TASKS, ids=lambda p: p.name)
def test_a_task_is_claimed_by_cline_task_alone(path):
    assert specific_claims(path) == ["cline-task"]
    assert format_read(path) == "cline-task"


@pytest.mark.parametrize("path", other_samples("cline-task"), ids=lambda p: p.name)
def test_cline_task_claims_no_other_sample(path):
    assert not FORMATS["cline-task"].claims(read_document(path))


def test_xml_calls_and_text_results_are_read_as_calls_and_results():
    (session,) = load_sessions(XML)
    assert session.problems == ()
    calls = [call for turn in session.turns if turn.role == ASSISTANT for call in turn.tool_calls]
    assert [call.name for call in calls] == CALLS
    assert calls[2].arguments == {"path": "notes.txt"}
    assert calls[3].arguments == {"command": "echo hi", "requires_approval": "false"}
    results = [result for turn in session.turns if turn.role == TOOL for result in turn.tool_results]
    assert [result.name for result in results] == CALLS
    assert results[2].content == "Meeting moved to Thursday.\nBring the draft.\n"
    assert "<feedback>" in results[0].content  # the blocks a completion's result goes on with
    reading = session.turns[5]
    assert reading.text == "Reading notes.txt with the real tool." and "<read_file>" not in reading.text
    assert session.turns[-1].text.startswith("notes.txt says") and session.turns[-1].tool_calls == ()


def test_as_openai_the_xml_calls_were_no_calls():
    (as_openai,) = load_sessions(XML, "openai")
    assert sum(len(turn.tool_calls) for turn in as_openai.turns) == 0


@pytest.mark.parametrize("path", NATIVE, ids=lambda p: p.name)
def test_native_calls_are_linked_to_results_beside_the_environment_s_details(path):
    (session,) = load_sessions(path)
    roles = [turn.role for turn in session.turns]
    assert roles == ["user"] + ["assistant", "tool"] * 4 + ["assistant"]
    results = [result for turn in session.turns for result in turn.tool_results]
    assert [result.name for result in results] == CALLS
    assert all(result.call_id for result in results)
    assert "Meeting moved to Thursday." in results[2].content and "Result:" not in results[2].content


@pytest.mark.parametrize("path", TASKS, ids=lambda p: p.name)
def test_the_planted_problems_are_found_once_and_the_real_calls_are_clean(path):
    assert finding_triples(path) == PLANTED


@pytest.mark.parametrize("path", TASKS, ids=lambda p: p.name)
def test_read_only_fix_is_refused_in_one_line_but_exported(path, tmp_path, capsys):
    out = tmp_path / "fixed.json"
    assert main(["fix", str(path), "--accept", "all", "-o", str(out)]) == 2
    assert capsys.readouterr().err.count("\n") == 1 and not out.exists()
    exported = tmp_path / "fixed.openai.json"
    assert main(["fix", str(path), "--accept", "all", "--to", "openai", "-o", str(exported)]) == 0
    assert finding_triples(exported) == []


def test_an_odd_record_is_counted_and_a_failed_result_is_an_error(tmp_path):
    history = json.loads(XML.read_text())
    history[6]["content"][0]["text"] = (
        "[read_file for 'notes.txt'] Result:\nThe tool execution failed with the following error:\n<error>\nENOENT\n</error>"
    )
    history.append({"kind": "checkpoint"})
    path = tmp_path / "api_conversation_history.json"
    path.write_text(json.dumps(history))
    (session,) = load_sessions(path)
    assert session.problems == (f"message {len(history) - 1}: not a message with a user or assistant role, skipped",)
    assert session.turns[6].tool_results[0].is_error


def test_written_content_runs_to_its_last_closing_tag_and_unknown_or_open_tags_stay_text():
    text, calls = xml_calls(
        "Writing.\n<write_to_file>\n<path>a.html</path>\n<content>\n<p><content>x</content></p>\n</content>\n"
        "</write_to_file>\n<not_a_tool><path>x</path></not_a_tool> <read_file><path>cut off"
    )
    assert [(call.name, call.arguments) for call in calls] == [
        ("write_to_file", {"path": "a.html", "content": "<p><content>x</content></p>"})
    ]
    assert text == "Writing.\n\n<not_a_tool><path>x</path></not_a_tool> <read_file><path>cut off"


@pytest.mark.parametrize(
    "unit",
    ["<read_file>", "<read_file><path>", "<write_to_file><content>", "<execute_command><command>a</command>"],
)
def test_the_xml_parser_runs_in_linear_time_on_hostile_text(unit):
    def timed(count: int) -> float:  # CPU time, the best of three: other work on the machine does not count
        text = unit * count + "</write_to_file>"
        times = []
        for _ in range(3):
            started = time.process_time()
            xml_calls(text)
            times.append(time.process_time() - started)
        return min(times)

    small, large = timed(20_000), timed(160_000)
    assert large < 2.0 and large < 8 * max(small, 0.002) * 4


def test_reasoning_blocks_roo_code_keeps_in_a_reply_leave_it_a_task(tmp_path):
    history = json.loads(NATIVE[0].read_text())
    history[1]["content"].insert(0, {"type": "reasoning", "text": "thinking", "summary": []})
    history[3]["content"].insert(0, {"type": "reasoning", "summary": [], "encrypted_content": "abc", "id": "rs_1"})
    path = tmp_path / "api_conversation_history.json"
    path.write_text(json.dumps(history))
    assert specific_claims(path) == ["cline-task"]
    assert finding_triples(path) == PLANTED
