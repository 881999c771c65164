"""LangSmith run exports, as langchain-core 1.7's own `LangChainTracer` built the runs (posting
nothing) for a hand-written agent loop on `GenericFakeChatModel` (sessions/generate/
langsmith_runs.py), written as `client.list_runs` gives them: detected by `run_type` + `inputs` /
`outputs`, the llm runs of a trace read as one conversation of `dumpd` messages rebuilt from their
repeated inputs (each problem once, at its turn), and read-only: `fix` refuses with one line."""

import json

from inspector.cli.main import main
from inspector.model import ASSISTANT, SYSTEM, TOOL, USER
from inspector.scan.scanner import scan_file
from inspector.sources import load_sessions, render_sessions
from inspector.sources.files.document import read_document
from inspector.sources.formats import GENERAL, SPECIFIC, format_of
from tests.helpers.samples import SESSIONS

EXPORT = SESSIONS / "notes-agent.langsmith.json"
PLANTED = [
    (2, "result-prefix", None),
    (4, "tool-markup", "read_file"),
    (6, "malformed-arguments", "read_file"),
    (7, "tool-error", "read_file"),
    (8, "malformed-arguments", "read_file"),
    (9, "tool-error", "read_file"),
]


def test_detected_as_langsmith_by_its_own_markers_and_by_no_other_format():
    document = read_document(EXPORT)
    assert [file_format.name for file_format in (*SPECIFIC, GENERAL) if file_format.claims(document)] == ["langsmith"]
    assert format_of(document).name == "langsmith"


def test_one_conversation_from_six_llm_runs_each_problem_found_once():
    (result,) = scan_file(EXPORT)
    assert [(f.turn, f.kind, f.tool) for f in result.findings] == PLANTED  # the errors: the loop's own results
    assert result.session.problems == (
        "1 run of type 'chain' not read as turns",
        "1 run of type 'tool' not read as turns",
    )
    turns = result.session.turns
    assert [t.role for t in turns] == [
        SYSTEM,
        USER,
        ASSISTANT,
        USER,
        ASSISTANT,
        USER,
        ASSISTANT,
        TOOL,
        ASSISTANT,
        TOOL,
        ASSISTANT,
        TOOL,
        ASSISTANT,
    ]
    (cut,) = turns[6].tool_calls  # an invalid_tool_calls entry: its raw args
    assert (cut.id, cut.arguments_raw, cut.arguments) == ("call_broken_cut", '{"file_path": "notes.txt"', None)
    (good,) = turns[10].tool_calls  # the good call, answered with the file: clean
    assert (good.id, good.arguments) == ("call_good", {"file_path": "notes.txt"})
    assert turns[11].tool_results[0].name == "read_file"


def test_runs_out_of_order_two_traces_and_prompt_runs(tmp_path):
    runs = json.loads(EXPORT.read_text())
    llm = [run for run in runs if run["run_type"] == "llm"]
    other = {**llm[0], "trace_id": "trace-2"}
    prompts = {**llm[1], "inputs": {"prompts": ["Human: hi"]}}
    path = tmp_path / "runs.json"
    path.write_text(json.dumps(list(reversed(runs)) + [other, prompts]), encoding="utf-8")
    first, second = scan_file(path)
    assert [(f.turn, f.kind, f.tool) for f in first.findings] == PLANTED
    assert "1 run of type 'llm without messages' not read as turns" in first.session.problems
    assert (second.session.session_id, [f.kind for f in second.findings]) == ("trace-2", ["result-prefix"])


def test_round_trip_unchanged_and_fix_refused_with_one_line(tmp_path, capsys):
    assert render_sessions(load_sessions(EXPORT)) == EXPORT.read_text(encoding="utf-8")
    out = tmp_path / "fixed.json"
    assert main(["fix", str(EXPORT), "--accept", "all", "-o", str(out)]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "the langsmith format cannot be written as a copy" in error
    assert not out.exists()
