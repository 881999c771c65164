"""A Claude Code session's tools are those its requests offered: Claude Code 2.1.332 records each
new request's shape (`api-request-shape`, with its `tools`), a subagent's under its `agentId`, and
the catalogue then knows the real tools' parameters (a fake result names the tool whose data it
holds). The files are the ones Claude Code 2.1.332 wrote (`sessions/generate/claude_code_subagent.py`)."""

from __future__ import annotations

import json

from inspector.scan.scanner import scan_file
from inspector.sources import load_sessions
from inspector.sources.files.document import document_of_bytes
from inspector.sources.formats import claude_code
from tests.helpers.samples import TOOL_SAMPLES

FOLDER = TOOL_SAMPLES / "claude-code-subagent"
MAIN = FOLDER / "96771fa5-273c-4ee7-9ace-b7f1e823acb7.jsonl"
SUBAGENT = FOLDER / "96771fa5-273c-4ee7-9ace-b7f1e823acb7" / "subagents" / "agent-a2e34ec84a76856d1.jsonl"


def _offered(path) -> set[str]:
    """The tool names of the file's `api-request-shape` records, as Claude Code wrote them."""
    records = (json.loads(line) for line in path.read_text().splitlines())
    return {
        tool["name"] for record in records if record["type"] == "api-request-shape" for tool in record["shape"]["tools"]
    }


def test_each_file_s_session_has_the_tools_its_requests_offered():
    (main,) = load_sessions(MAIN)
    (subagent,) = load_sessions(SUBAGENT)
    assert {spec.name for spec in main.tools} == _offered(MAIN)
    assert {spec.name for spec in subagent.tools} == _offered(SUBAGENT)
    assert {"Agent", "Read", "Write"} <= _offered(SUBAGENT)
    write = next(spec for spec in subagent.tools if spec.name == "Write")
    assert set(write.parameters["required"]) == {"file_path", "content"}


def test_a_subagent_s_shapes_are_its_own_thread_s_tools():
    lines = MAIN.read_text().splitlines()
    shape = next(json.loads(line) for line in lines if '"api-request-shape"' in line)
    side_shape = {**shape, "agentId": "a2e34ec84a76856d1"}
    side_shape["shape"] = {
        **shape["shape"],
        "tools": [{"name": "OnlyTheSubagents", "input_schema": {"type": "object"}}],
    }
    side_event = next(json.loads(line) for line in SUBAGENT.read_text().splitlines() if '"isSidechain"' in line)
    text = "\n".join([*lines, json.dumps(side_shape), json.dumps(side_event)]) + "\n"
    main, side = claude_code.read(document_of_bytes("joined.jsonl", text.encode()))
    assert side.session_id.endswith("/agent-a2e34ec84a76856d1")
    assert [spec.name for spec in side.tools] == ["OnlyTheSubagents"]
    assert {spec.name for spec in main.tools} == _offered(MAIN)


def test_the_subagent_s_fake_read_is_matched_against_the_tools_its_requests_offered():
    """Its `{file_path, content}` holds both parameters of the offered Write and is what the
    offered Read returns: neither is named, so no write of the made-up content is recovered."""
    (result,) = scan_file(SUBAGENT)
    (finding,) = result.findings
    assert (finding.kind, finding.severity, finding.tool, finding.fix.add_calls) == (
        "result-prefix",
        "warning",
        None,
        (),
    )
    assert "it fits Write, and just as well what Read returns, with its content" in finding.message


def test_a_file_of_an_older_release_declares_no_tool():
    (session,) = load_sessions(TOOL_SAMPLES / "claude-code.jsonl")
    assert session.tools == ()


def test_a_thread_whose_request_names_a_shape_not_in_the_file_declares_none():
    lines = [line for line in MAIN.read_text().splitlines() if '"api-request-shape"' not in line]
    lines.append(
        next(line for line in MAIN.read_text().splitlines() if '"api-request-shape"' in line).replace(
            '"shapeHash":"', '"shapeHash":"0ther'
        )
    )
    (main,) = claude_code.read(document_of_bytes("resumed.jsonl", ("\n".join(lines) + "\n").encode()))
    assert main.tools == ()
    assert {spec.name for spec in load_sessions(MAIN)[0].tools} == _offered(MAIN)
