"""`inspector fix --to openai`: any session, repaired, written as OpenAI Chat Completions JSON
(JSON Lines for several sessions), read back as `openai`, clean of the fixed kinds, holding the
same texts and calls as the repaired session, with one line naming what could not be carried."""

import json
import os
import shutil

import pytest

from inspector.cli.main import main
from inspector.detect import kinds
from inspector.model import TOOL
from inspector.repair.apply import accepted_findings, apply_fixes
from inspector.repair.write import Chosen, write_repaired
from inspector.scan.scanner import iter_scan
from inspector.sources import open_source
from inspector.sources.base import Capabilities
from inspector.sources.files.session_file import SessionFile
from tests.helpers.samples import SESSIONS
from tests.helpers.scanning import fix_exit_code

FORMATS = [
    "support-agent.anthropic.json",
    "travel-agent.gemini.json",
    "notes-agent.claude-code.jsonl",
    "shell-agent.codex.jsonl",
    "rails-chat.rubyllm.db",
    "notes-reader.gemini-cli.jsonl",
    "notes-agent.pydantic-ai.json",
    "notes-agent.ai-sdk-ui.json",
    "notes-agent.langchain-sql.db",
]


def _copy(tmp_path, name):
    source = tmp_path / name
    shutil.copyfile(SESSIONS / name, source)
    return source


def _repaired(path):
    """Every session of `path` with all its fixes applied, and the kinds fixed."""
    sessions, fixed = [], set()
    for result in iter_scan(open_source(path)):
        findings = accepted_findings(result.findings, kinds())
        fixed.update(finding.kind for finding in findings)
        sessions.append(apply_fixes(result.session, findings)[0])
    return sessions, fixed


def _texts_and_calls(sessions):
    """What a reader of the conversation sees: the texts said (not results), the calls made, and
    the results given to them."""
    texts = [turn.text for session in sessions for turn in session.turns if turn.role != TOOL and turn.text]
    calls = [(call.name, call.arguments) for session in sessions for turn in session.turns for call in turn.tool_calls]
    results = sum(len(turn.tool_results) for session in sessions for turn in session.turns)
    return texts, calls, results


@pytest.mark.parametrize("name", FORMATS)
def test_to_openai_carries_the_repaired_texts_and_calls(tmp_path, capsys, name):
    source = _copy(tmp_path, name)
    before = source.read_bytes()
    out = tmp_path / "out.json"
    assert main(["fix", str(source), "--accept", "all", "--to", "openai", "-o", str(out)]) == fix_exit_code(source)
    assert f"wrote {out} (as openai)" in capsys.readouterr().out
    assert source.read_bytes() == before

    written = open_source(out)
    assert written.format == "openai"
    repaired, fixed = _repaired(source)
    assert fixed
    again = list(iter_scan(written))
    assert not [finding for result in again for finding in result.findings if finding.kind in fixed]
    assert _texts_and_calls([result.session for result in again]) == _texts_and_calls(repaired)
    audit = [json.loads(line) for line in (tmp_path / "out.json.audit.ndjson").read_text().splitlines()]
    assert {entry["kind"] for entry in audit} == fixed


def test_one_session_is_one_object_with_its_tools_several_are_json_lines(tmp_path):
    one, several = tmp_path / "one.json", tmp_path / "several.jsonl"
    assert (
        main(
            [
                "fix",
                str(_copy(tmp_path, "support-agent.anthropic.json")),
                "--accept",
                "all",
                "--to",
                "openai",
                "-o",
                str(one),
            ]
        )
        == 0
    )
    example = json.loads(one.read_text())
    assert set(example) == {"messages", "tools"}
    assert all(tool["type"] == "function" and tool["function"]["name"] for tool in example["tools"])
    calls = [call for message in example["messages"] for call in message.get("tool_calls", [])]
    answered = {message["tool_call_id"] for message in example["messages"] if message["role"] == "tool"}
    assert calls and all(isinstance(call["function"]["arguments"], str) for call in calls)
    assert {call["id"] for call in calls} <= answered

    history = _copy(tmp_path, "rails-chat.rubyllm.db")
    assert main(["fix", str(history), "--accept", "all", "--to", "openai", "-o", str(several)]) == 0
    lines = [json.loads(line) for line in several.read_text().splitlines()]
    assert len(lines) == len(open_source(history).listing()) > 1
    assert all(isinstance(line["messages"], list) for line in lines)


def test_calls_without_ids_are_given_ids_their_results_answer(tmp_path):
    out = tmp_path / "out.json"
    assert (
        main(
            [
                "fix",
                str(_copy(tmp_path, "travel-agent.gemini.json")),
                "--accept",
                "all",
                "--to",
                "openai",
                "-o",
                str(out),
            ]
        )
        == 0
    )
    messages = json.loads(out.read_text())["messages"]
    calls = [call["id"] for message in messages for call in message.get("tool_calls", [])]
    results = [message["tool_call_id"] for message in messages if message["role"] == "tool"]
    assert calls and all(calls) and sorted(calls) == sorted(results)


def test_one_line_names_what_was_not_carried(tmp_path, capsys):
    out = tmp_path / "out.json"
    main(
        [
            "fix",
            str(_copy(tmp_path, "notes-agent.claude-code.jsonl")),
            "--accept",
            "all",
            "--to",
            "openai",
            "-o",
            str(out),
        ]
    )
    lines = [line for line in capsys.readouterr().out.splitlines() if "not carried" in line]
    assert len(lines) == 1
    assert lines[0].startswith("not carried into OpenAI messages: ")
    assert "lines of type 'queue-operation'" in lines[0] and "usage figures" in lines[0]
    assert "error flags of tool results" in lines[0]


def test_parts_and_unreadable_records_are_named(tmp_path, capsys):
    source = tmp_path / "chat.json"
    source.write_text(
        json.dumps(
            {
                "messages": [
                    {
                        "role": "user",
                        "content": [{"type": "text", "text": "Look"}, {"type": "image_url", "image_url": {"url": "x"}}],
                    },
                    {"role": "assistant", "content": "Seen."},
                    {"role": "nobody", "content": "?"},
                ]
            }
        )
    )
    out = tmp_path / "out.json"
    assert main(["fix", str(source), "--accept", "all", "--to", "openai", "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    line = next(line for line in printed.splitlines() if line.startswith("not carried into OpenAI messages: "))
    assert "1 part of type 'image_url'" in line and "1 record the reader could not read" in line
    assert [m["content"] for m in json.loads(out.read_text())["messages"]] == ["Look", "Seen."]


def test_everything_carried_says_nothing_more(tmp_path, capsys):
    out = tmp_path / "out.json"
    main(
        [
            "fix",
            str(_copy(tmp_path, "support-agent.anthropic.json")),
            "--accept",
            "all",
            "--to",
            "openai",
            "-o",
            str(out),
        ]
    )
    assert "not carried" not in capsys.readouterr().out


def test_to_openai_in_place_is_one_error_line(tmp_path, capsys):
    source = _copy(tmp_path, "support-agent.anthropic.json")
    before = sorted(os.listdir(tmp_path))
    assert main(["fix", str(source), "--accept", "all", "--to", "openai", "--in-place"]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "--to openai: writes a new file (-o OUT), never in place" in error
    assert sorted(os.listdir(tmp_path)) == before


def test_an_existing_output_only_with_force_and_never_the_input(tmp_path, capsys):
    source = _copy(tmp_path, "support-agent.anthropic.json")
    out = tmp_path / "out.json"
    out.write_text("keep me")
    assert main(["fix", str(source), "--accept", "all", "--to", "openai", "-o", str(out)]) == 2
    assert "exists already" in capsys.readouterr().err and out.read_text() == "keep me"
    assert main(["fix", str(source), "--accept", "all", "--to", "openai", "-o", str(out), "--force"]) == 0
    assert open_source(out).format == "openai"

    alias = tmp_path / "alias.json"
    os.link(source, alias)
    before = source.read_bytes()
    assert main(["fix", str(source), "--accept", "all", "--to", "openai", "-o", str(alias), "--force"]) == 2
    assert "is the input" in capsys.readouterr().err and source.read_bytes() == before


class _ReadOnly(SessionFile):
    """A source that cannot write itself at all: only an export to another format reads it out."""

    capabilities = Capabilities(write_copy=False, write_in_place=False)


def test_a_read_only_source_is_exported(tmp_path):
    source = _ReadOnly(_copy(tmp_path, "support-agent.anthropic.json"))

    def chosen(reading):
        return [Chosen(result.session, accepted_findings(result.findings, kinds())) for result in iter_scan(reading)]

    with pytest.raises(Exception, match="cannot be written as a copy"):
        write_repaired(source, tmp_path / "copy.json", chosen)
    outcome = write_repaired(source, tmp_path / "out.json", chosen, to="openai")
    assert outcome.applied == 1 and open_source(outcome.out).format == "openai"
