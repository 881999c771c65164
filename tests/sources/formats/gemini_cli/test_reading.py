"""Reading Gemini CLI sessions: both containers detected and no other file, the log replayed into
turns (rewinds included), the CLI's context a system turn, and the planted problems found."""

from inspector.model import ASSISTANT, SYSTEM, TOOL, USER
from inspector.sources import FORMATS, load_sessions, render_sessions
from inspector.sources.files.document import read_document
from inspector.sources.formats import gemini, gemini_cli
from tests.helpers.gemini_cli import (
    DOCUMENT,
    FAKE,
    HERMES,
    SAMPLE,
    log_records,
    message_record,
    tool_specs,
    write_document,
    write_log,
)
from tests.helpers.samples import SESSIONS, TOOL_SAMPLES
from tests.helpers.scanning import finding_triples

CHECKPOINT = SESSIONS / "travel-agent.gemini.json"


def test_detection_of_both_containers_and_of_no_other_file(tmp_path):
    assert load_sessions(SAMPLE)[0].format == "gemini-cli"
    assert load_sessions(write_document(tmp_path / "chat.json", DOCUMENT))[0].format == "gemini-cli"
    for other in ("claude-code.jsonl", "codex.rollout.jsonl"):
        assert not gemini_cli.claims(read_document(TOOL_SAMPLES / other))
    assert not gemini_cli.claims(read_document(CHECKPOINT))
    assert not gemini_cli.claims(
        read_document(
            write_document(tmp_path / "ckpt.json", {"history": [{"role": "user", "parts": [{"text": "hi"}]}]})
        )
    )
    for path in (SAMPLE, tmp_path / "chat.json"):
        document = read_document(path)
        assert not gemini.claims(document)
        assert [name for name, file_format in FORMATS.items() if file_format.claims(document)] == ["gemini-cli"]


def test_the_log_is_replayed_into_turns(tmp_path):
    (session,) = load_sessions(SAMPLE)
    assert session.session_id == "b680cadb-f2e8-4427-a8c6-6cfd1f65ee1c"
    assert session.problems == ()
    turns = session.turns
    assert [(t.position, t.role) for t in turns] == [
        (0, SYSTEM),
        (1, USER),
        (2, ASSISTANT),
        (3, USER),
        (4, ASSISTANT),
        (5, USER),
        (6, ASSISTANT),
        (7, TOOL),
        (9, ASSISTANT),
        (10, TOOL),
        (12, ASSISTANT),
        (13, TOOL),
        (15, ASSISTANT),
    ]  # 8, 11, 14: results repeated
    assert turns[2].text == FAKE and turns[4].text == HERMES  # the last copies (in `$set.messages`, as parts)
    assert turns[1].text.startswith("Please save") and turns[0].text.startswith("<session_context>")
    (call,) = turns[6].tool_calls
    assert (call.id, call.name, call.arguments) == (
        "read_file__read_file_1795489933452_0",
        "read_file",
        {"path": "notes.txt"},
    )
    (error,) = turns[7].tool_results
    assert error.is_error and error.call_id == call.id
    assert error.content == {"error": "params must have required property 'file_path'"}
    assert turns[7].id == "e5df10fd-29e6-4773-88e3-0ba434ac704a_response"
    assert [r.is_error for t in turns[9:12:2] for r in t.tool_results] == [False, False]
    assert turns[10].tool_calls[0].arguments == {"dir_path": "."}


def test_the_context_the_cli_writes_is_a_system_turn_kept_as_written(tmp_path):
    """The CLI's own first message (`<session_context>` ..., or that sentence alone before the
    tag) is the CLI's context, not the person: a system turn holding its text as stored, written
    back unchanged; a person who quotes the tag later in a message is still the person."""
    (session,) = load_sessions(SAMPLE)
    context = session.turns[0]
    stored = context.raw["content"][0]["text"]
    assert (context.role, context.text, context.id) == (SYSTEM, stored, "d04923d38bb0f6017037e74183378ef4")
    assert [t.role for t in session.turns[:2]] == [SYSTEM, USER]
    older = "This is the Gemini CLI. We are setting up the context for our chat.\nMy operating system is: linux"
    quoted = "Why does my log start with <session_context>? " + "<session_context>" * 6000  # 100 KB
    path = write_document(
        tmp_path / "chat.json",
        {
            **DOCUMENT,
            "messages": [
                message_record("c0", "user", older),
                message_record("u0", "user", quoted),
                *DOCUMENT["messages"],
            ],
        },
    )
    (session,) = load_sessions(path)
    assert [(t.role, t.text) for t in session.turns[:3]] == [
        (SYSTEM, older),
        (USER, quoted),
        (USER, DOCUMENT["messages"][0]["content"]),
    ]
    assert render_sessions([session]) == path.read_text(encoding="utf-8")


def test_a_scan_finds_the_planted_problems_and_leaves_the_good_calls_clean(tmp_path):
    assert finding_triples(SAMPLE) == [
        (2, "result-prefix", None),
        (4, "tool-markup", "read_file"),
        (7, "tool-error", "read_file"),
    ]
    specs = tool_specs(tmp_path)
    assert finding_triples(SAMPLE, specs) == [
        (2, "result-prefix", None),
        (4, "tool-markup", "read_file"),
        (6, "invalid-argument", "read_file"),
        (6, "unknown-parameter", "read_file"),
        (7, "tool-error", "read_file"),
    ]
    assert finding_triples(write_document(tmp_path / "chat.json", DOCUMENT)) == [
        (1, "result-prefix", None),
        (3, "tool-markup", "read_file"),
        (7, "tool-error", "read_file"),
    ]


def test_rewinds_drop_messages_and_an_unknown_id_drops_all(tmp_path):
    records = log_records(
        message_record("u1", "user", "one"),
        message_record("g1", "gemini", "two"),
        message_record("u2", "user", "three"),
        {"$rewindTo": "g1"},
        message_record("g2", "gemini", "four"),
    )
    (session,) = load_sessions(write_log(tmp_path / "log.jsonl", records))
    assert [t.text for t in session.turns] == ["one", "four"]
    (session,) = load_sessions(
        write_log(tmp_path / "all.jsonl", records + [{"$rewindTo": "nowhere"}, message_record("u3", "user", "five")])
    )
    assert [t.text for t in session.turns] == ["five"]
