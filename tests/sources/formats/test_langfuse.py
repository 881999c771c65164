"""Langfuse observation exports (`GET /api/public/observations`), written by hand to the published
API shape (sessions/generate/langfuse_export.py: no Langfuse server runs offline): detected
by `data` + `meta.totalItems` + observation types, the generations of a trace read as one
conversation rebuilt from their repeated inputs (each problem once, at its turn), SPANs and
EVENTs counted, and read-only: `fix` refuses with one line."""

import json

from inspector.cli.main import main
from inspector.model import ASSISTANT, SYSTEM, TOOL, USER
from inspector.scan.scanner import scan_file
from inspector.sources import load_sessions, render_sessions
from inspector.sources.files.document import read_document
from inspector.sources.formats import GENERAL, SPECIFIC, format_of
from tests.helpers.samples import SESSIONS

EXPORT = SESSIONS / "notes-agent.langfuse.json"
PLANTED = [
    (2, "result-prefix", None),
    (4, "tool-markup", "read_file"),
    (6, "malformed-arguments", "read_file"),
    (8, "malformed-arguments", "read_file"),
]


def test_detected_as_langfuse_by_its_own_markers_and_by_no_other_format():
    document = read_document(EXPORT)
    assert [file_format.name for file_format in (*SPECIFIC, GENERAL) if file_format.claims(document)] == ["langfuse"]
    assert format_of(document).name == "langfuse"


def test_one_conversation_from_six_generations_each_problem_found_once():
    (result,) = scan_file(EXPORT)
    assert [(f.turn, f.kind, f.tool) for f in result.findings] == PLANTED
    assert result.session.problems == (
        "1 observation of type 'EVENT' not read as turns",
        "4 observations of type 'SPAN' not read as turns",
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
    (good,) = turns[10].tool_calls  # the good call, answered with the file: clean
    assert (good.id, good.arguments) == ("call_good", {"file_path": "notes.txt"})
    assert turns[11].tool_results[0].content.startswith("Meeting moved to Thursday.")
    assert [tool.name for tool in result.session.tools] == ["read_file"]


def test_plain_list_inputs_text_outputs_and_two_traces(tmp_path):
    page = json.loads(EXPORT.read_text())
    generations = [o for o in page["data"] if o["type"] == "GENERATION"]
    for observation in generations:
        observation["input"] = observation["input"]["messages"]
    first = generations[-1]  # the oldest: the API lists the newest first
    first["output"] = first["output"]["content"]
    page["data"].append({**first, "id": "other", "traceId": "trace-2", "input": None})
    page["data"].append({**first, "id": "other-2", "traceId": "trace-2"})
    path = tmp_path / "export.json"
    path.write_text(json.dumps(page), encoding="utf-8")
    first_trace, second_trace = scan_file(path)
    assert [(f.turn, f.kind) for f in first_trace.findings] == [(t, k) for t, k, _ in PLANTED]
    assert first_trace.session.tools == ()
    assert "1 observation of type 'GENERATION' without input messages not read as turns" in first_trace.session.problems
    assert (second_trace.session.session_id, [f.kind for f in second_trace.findings]) == ("trace-2", ["result-prefix"])


def test_round_trip_unchanged_and_fix_refused_with_one_line(tmp_path, capsys):
    assert render_sessions(load_sessions(EXPORT)) == EXPORT.read_text(encoding="utf-8")
    out = tmp_path / "fixed.json"
    assert main(["fix", str(EXPORT), "--accept", "all", "-o", str(out)]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "the langfuse format cannot be written as a copy" in error
    assert not out.exists()
