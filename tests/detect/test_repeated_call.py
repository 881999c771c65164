"""Detector `repeated-call` on real session files: the same call three or more times in a row
answered the same way (OpenAI, Anthropic, Gemini CLI), the look-alikes that stay clean, the
early findings of a loop, and a 50,000-call loop scanned in linear time."""

import json

import pytest

from inspector.cli.main import main
from inspector.detect import detect_findings
from inspector.model import WARNING
from inspector.scan.early import early_findings
from inspector.scan.scanner import scan_file
from inspector.sources import load_sessions
from tests.helpers.files import write_json
from tests.helpers.scanning import findings_of
from tests.helpers.timing import cpu_time

KIND = "repeated-call"
READ_FILE = {
    "type": "function",
    "function": {
        "name": "read_file",
        "parameters": {"type": "object", "properties": {"path": {"type": "string"}, "encoding": {"type": "string"}}},
    },
}
NOT_FOUND = '{"error": "ENOENT: no such file or directory, open \'notes.md\'"}'


def _call(call_id, arguments, name="read_file", text=None):
    return {
        "role": "assistant",
        "content": text,
        "tool_calls": [{"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}],
    }


def _answer(call_id, content):
    return {"role": "tool", "tool_call_id": call_id, "content": content}


def _loop(times, arguments=lambda n: '{"path": "notes.md"}', content=lambda n: NOT_FOUND, text=lambda n: None):
    messages = [{"role": "user", "content": "What do my notes say?"}]
    for n in range(times):
        messages += [_call(f"c{n}", arguments(n), text=text(n)), _answer(f"c{n}", content(n))]
    return messages + [{"role": "assistant", "content": "I could not find notes.md."}]


def test_an_openai_loop_of_the_same_failing_read_is_one_finding_at_its_last_call(write_session, capsys):
    path = write_session(
        _loop(
            4,
            arguments=lambda n: [
                '{"path": "notes.md", "encoding": "utf-8"}',
                '{"encoding": "utf-8", "path": "notes.md"}',
            ][n % 2],
        ),
        [READ_FILE],
    )
    (finding,) = findings_of(path, KIND)
    assert (finding.turn, finding.role, finding.severity, finding.tool, finding.fix) == (
        7,
        "assistant",
        WARNING,
        "read_file",
        None,
    )
    assert finding.message == (
        "read_file was called 4 times in a row with the same arguments "
        '({"encoding":"utf-8","path":"notes.md"}), each time getting the same error: '
        "ENOENT: no such file or directory, open 'notes.md'"
    )
    assert finding.payload == {"count": 4, "same_answers": 4, "answer": "error", "first_turn": 1}
    assert finding.arguments == {"path": "notes.md", "encoding": "utf-8"}
    assert main(["scan", "--json", str(path)]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["summary"]["by_kind"] == {"tool-error": 4, KIND: 1}
    assert report["rates"]["total"]["kinds"][KIND] == {"count": 1, "per_100_calls": 25.0}


def test_the_same_result_each_time_is_a_loop_too_and_a_changing_stretch_is_counted(write_session):
    same = _loop(3, content=lambda n: "# Notes\nMeeting moved to Thursday.")
    (finding,) = findings_of(write_session(same, [READ_FILE]), KIND)
    assert "3 times in a row" in finding.message and "each time getting the same result: # Notes" in finding.message
    polling = _loop(5, content=lambda n: '{"status": "running"}' if n < 4 else '{"status": "done"}')
    (finding,) = findings_of(write_session(polling, [READ_FILE], name="polling.json"), KIND)
    assert "5 times in a row" in finding.message and "4 of them in a row got the same result" in finding.message


@pytest.mark.parametrize(
    "messages",
    [
        _loop(2),  # a retry
        _loop(3, arguments=lambda n: json.dumps({"path": f"notes{n}.md"})),  # other arguments each time
        _loop(3, arguments=lambda n: json.dumps({"path": "notes.md", "encoding": ["utf-8", "latin-1", "ascii"][n]})),
        _loop(3, content=lambda n: json.dumps({"status": "running", "progress": 30 * n})),  # progress
        _loop(3, content=lambda n: [NOT_FOUND, "# Notes", NOT_FOUND][n]),  # answers that change
        _loop(3, arguments=lambda n: '{"path": 1}' if n == 1 else '{"path": true}'),  # 1 and true are not the same
        [
            {"role": "user", "content": "Read notes.md"},
            _call("c0", '{"path": "notes.md"}'),
            _answer("c0", NOT_FOUND),
            {"role": "user", "content": "I created it, try again."},
            _call("c1", '{"path": "notes.md"}'),
            _answer("c1", NOT_FOUND),
            {"role": "user", "content": "Now?"},
            _call("c2", '{"path": "notes.md"}'),
            _answer("c2", NOT_FOUND),
            {"role": "assistant", "content": "Still missing."},
        ],  # the user asked each time
        [
            {"role": "user", "content": "Read notes.md"},
            _call("c0", '{"path": "notes.md"}'),
            _answer("c0", NOT_FOUND),
            _call("c1", '{"path": "notes.md"}', name="list_files"),
            _answer("c1", '["todo.md"]'),
            _call("c2", '{"path": "notes.md"}'),
            _answer("c2", NOT_FOUND),
            _call("c3", '{"path": "notes.md"}'),
            _answer("c3", NOT_FOUND),
            {"role": "assistant", "content": "notes.md is missing."},
        ],  # another call between
        [
            {"role": "user", "content": "Read notes.md"},
            _call("c0", '{"path": "notes.md"}'),
            _call("c1", '{"path": "notes.md"}'),
            _call("c2", '{"path": "notes.md"}'),
            {"role": "assistant", "content": "No answer yet."},
        ],  # never answered
    ],
)
def test_calls_that_change_or_are_interrupted_or_unanswered_stay_clean(write_session, messages):
    assert findings_of(write_session(messages, [READ_FILE]), KIND) == []


def test_a_reply_that_calls_nothing_ends_a_run_but_one_with_a_call_does_not(write_session):
    spoken = _loop(4, text=lambda n: None)
    spoken.insert(5, {"role": "assistant", "content": "That failed; trying once more."})
    assert findings_of(write_session(spoken, [READ_FILE]), KIND) == []  # two calls, a reply, two calls
    narrated = _loop(3, text=lambda n: "Let me read your notes.")
    (finding,) = findings_of(write_session(narrated, [READ_FILE], name="narrated.json"), KIND)
    assert finding.payload["count"] == 3


def test_an_anthropic_loop_of_parallel_and_narrated_tool_uses(tmp_path):
    use = {"type": "tool_use", "name": "run_tests", "input": {"path": "tests/", "args": ["-x"]}}
    failure = "FAILED tests/test_login.py::test_token - KeyError: 'exp'"
    messages = [{"role": "user", "content": "Make the tests pass."}]
    for n in range(3):
        messages += [
            {
                "role": "assistant",
                "content": [{"type": "text", "text": "Running the tests."}, {**use, "id": f"toolu_{n}"}],
            },
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": f"toolu_{n}", "content": failure, "is_error": True}],
            },
        ]
    messages.append({"role": "assistant", "content": "The login test still fails on a missing 'exp' claim."})
    document = {"tools": [{"name": "run_tests", "input_schema": {"type": "object"}}], "messages": messages}
    (finding,) = findings_of(write_json(tmp_path / "coder.anthropic.json", document), KIND)
    assert (finding.turn, finding.tool, finding.payload["count"]) == (5, "run_tests", 3)
    assert "each time getting the same error: FAILED tests/test_login.py" in finding.message


def test_a_gemini_cli_loop_with_results_in_the_calls_own_message(tmp_path):
    def gemini(n):
        return {
            "id": f"m{n}",
            "timestamp": "2025-10-01T10:00:00Z",
            "type": "gemini",
            "content": "",
            "toolCalls": [
                {
                    "id": f"read_file-{n}",
                    "name": "read_file",
                    "args": {"absolute_path": "/w/notes.md"},
                    "status": "error",
                    "timestamp": "2025-10-01T10:00:00Z",
                    "result": [
                        {
                            "functionResponse": {
                                "id": f"read_file-{n}",
                                "name": "read_file",
                                "response": {"error": "File not found: /w/notes.md"},
                            }
                        }
                    ],
                }
            ],
        }

    document = {
        "sessionId": "3f0c",
        "projectHash": "ab12",
        "startTime": "2025-10-01T10:00:00Z",
        "lastUpdated": "2025-10-01T10:01:00Z",
        "messages": [
            {"id": "u0", "timestamp": "2025-10-01T10:00:00Z", "type": "user", "content": "Read my notes"},
            gemini(0),
            gemini(1),
            gemini(2),
            {"id": "m9", "timestamp": "2025-10-01T10:01:00Z", "type": "gemini", "content": "I can't find /w/notes.md."},
        ],
    }
    (result,) = scan_file(write_json(tmp_path / "session-2025-10-01T10-00-3f0c.json", document))
    assert result.session.format == "gemini-cli"
    (finding,) = [f for f in result.findings if f.kind == KIND]
    assert (finding.tool, finding.payload["count"], finding.payload["answer"]) == ("read_file", 3, "error")


def test_loops_of_two_tools_sharing_turns_are_each_one_finding(write_session):
    """Only stretches of calls of one tool are compared: a loop whose first or last turn also holds
    another tool's loop, or another tool's call, is still found once, with its own calls."""

    def calls(*names):
        return {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": f"c{n}", "type": "function", "function": {"name": name, "arguments": '{"path": "notes.md"}'}}
                for n, name in names
            ],
        }

    ask = {"role": "user", "content": "Read my notes."}
    messages = [
        ask,
        calls((0, "list_dir"), (1, "list_dir"), (2, "list_dir"), (3, "read_file")),
        *[_answer(f"c{n}", NOT_FOUND) for n in range(4)],
        {"role": "system", "content": "Retrying."},  # ends nothing
        calls((4, "read_file")),
        _answer("c4", NOT_FOUND),
        calls((5, "read_file"), (6, "list_dir")),
        _answer("c5", NOT_FOUND),
        _answer("c6", NOT_FOUND),
        {"role": "assistant", "content": "Nothing found."},
    ]
    findings = findings_of(write_session(messages, [READ_FILE]), KIND)
    assert [(f.turn, f.tool, f.payload["count"], f.payload["first_turn"]) for f in findings] == [
        (1, "list_dir", 3, 1),
        (9, "read_file", 3, 1),
    ]


def test_loops_of_several_tools_within_one_turn_are_each_found_with_their_own_calls(write_session):
    """A stretch of calls of one tool may start and end inside a turn of parallel calls."""
    names = ["list_dir"] * 3 + ["read_file"] * 4 + ["list_dir"] * 3 + ["read_file"]
    messages = [
        {"role": "user", "content": "Read my notes."},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": f"c{n}", "type": "function", "function": {"name": name, "arguments": '{"path": "notes.md"}'}}
                for n, name in enumerate(names)
            ],
        },
        *[_answer(f"c{n}", NOT_FOUND) for n in range(len(names))],
        {"role": "assistant", "content": "Nothing found."},
    ]
    findings = findings_of(write_session(messages, [READ_FILE]), KIND)
    assert [(f.turn, f.tool, f.payload["count"]) for f in findings] == [
        (1, "list_dir", 3),
        (1, "read_file", 4),
        (1, "list_dir", 3),
    ]


def test_a_loop_whose_results_are_paired_by_name_is_found(tmp_path):
    """Results without call ids (older Gemini files) are paired by name, in order."""
    call = {"role": "model", "parts": [{"functionCall": {"name": "read_file", "args": {"path": "notes.md"}}}]}
    answer = {
        "role": "user",
        "parts": [{"functionResponse": {"name": "read_file", "response": {"error": "not found"}}}],
    }
    document = {
        "contents": [
            {"role": "user", "parts": [{"text": "Read my notes."}]},
            *[call, answer] * 3,
            {"role": "model", "parts": [{"text": "I can't find notes.md."}]},
        ]
    }
    (finding,) = findings_of(write_json(tmp_path / "notes.gemini.json", document), KIND)
    assert (finding.turn, finding.payload["count"], finding.payload["answer"]) == (5, 3, "error")


def test_early_findings_of_a_loop_are_the_full_scans_at_every_cut(write_session):
    messages = _loop(4, text=lambda n: "Trying again." if n % 2 else None)
    messages[-1:-1] = [{"role": "assistant", "content": "Still failing."}]
    messages += [{"role": "user", "content": "Try once more"}] + _loop(3)[1:]
    session = load_sessions(write_session(messages, [READ_FILE]))[0]
    full = detect_findings(session)
    assert [(f.kind, f.turn) for f in full if f.kind == KIND] == [(KIND, 7), (KIND, 16)]
    for size in range(1, len(session.turns) + 1):
        early = early_findings(session, first=size, last=size)
        assert early == full[: len(early)], f"cut after {size} turns"


@pytest.mark.slow  # scans 100,000 turns twice
def test_fifty_thousand_identical_calls_are_one_finding_in_linear_time(write_session):
    small = write_session(_loop(5_000), [READ_FILE], name="small.json")
    large = write_session(_loop(50_000), [READ_FILE], name="large.json")
    start = cpu_time()
    findings_of(small, KIND)
    small_time = cpu_time() - start
    start = cpu_time()
    (finding,) = findings_of(large, KIND)
    large_time = cpu_time() - start
    assert finding.payload["count"] == 50_000 and finding.turn == 99_999
    assert large_time < 30 and large_time < 25 * small_time + 1  # ten times the calls: about ten times the time
