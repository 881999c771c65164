"""Aider's files: the chat history (`.aider.chat.history.md`) and the LLM log
(`--llm-history-file`) Aider 0.86.2 wrote over three `aider --message` runs against the scripted
model (`sessions/aider.chat.history.md`, `sessions/aider.llm-history.txt`, see
`sessions/generate/README.md`), read into turns; both formats are read-only."""

from __future__ import annotations

import time

import pytest

from inspector.cli.main import main
from inspector.model import ASSISTANT, USER
from inspector.sources import FORMATS, load_sessions
from inspector.sources.files.document import read_document
from tests.helpers.frameworks import fix_all, format_read, other_samples, specific_claims
from tests.helpers.samples import TOOL_SAMPLES
from tests.helpers.scanning import finding_triples

CHAT = TOOL_SAMPLES / "aider.chat.history.md"
LOG = TOOL_SAMPLES / "aider.llm-history.txt"
# (a) at the first reply, (b) at the second; the third reply's file listing is Aider's good edit.
PLANTED = [(1, "result-prefix", None), (3, "tool-markup", "read_file")]


@pytest.mark.parametrize(("path", "name"), [(CHAT, "aider"), (LOG, "aider-llm-history")], ids=["chat", "log"])
def test_each_file_is_claimed_by_its_own_format_alone(path, name):
    assert specific_claims(path) == [name]
    assert format_read(path) == name


@pytest.mark.parametrize("name", ["aider", "aider-llm-history"])
def test_the_aider_formats_claim_no_other_sample(name):
    for path in other_samples(name):
        assert not FORMATS[name].claims(read_document(path)), path.name


def test_the_chat_history_is_read_as_aider_restores_it():
    (session,) = load_sessions(CHAT)
    assert session.problems == ()
    assert [turn.role for turn in session.turns] == [USER, ASSISTANT] * 3
    first = session.turns[0]
    assert (
        first.text
        == "Please save a journal memory: I lost track of the refactor again. Then tell me honestly what you think."
    )
    assert (first.id, first.raw["role"], first.raw["line"]) == ("line 14", "user", 14)
    assert first.raw["content"].endswith("  \n")  # the message as Aider restores it, its line break kept
    edit = session.turns[5]
    assert edit.text.startswith("I will add the agenda to notes.txt.\n\nnotes.txt\n```\nMeeting moved")
    assert all(turn.tool_calls == () for turn in session.turns)


def test_the_log_is_read_once_an_exchange():
    (session,) = load_sessions(LOG)
    assert session.problems == ()
    assert [turn.role for turn in session.turns] == [USER, ASSISTANT] * 3
    asked = session.turns[2]
    assert asked.text.startswith(
        "Read notes.txt and tell me what it says.\n\nTo suggest changes"
    )  # with Aider's reminder
    assert (asked.raw["kind"], asked.raw["role"]) == ("TO LLM", "USER")
    answer = session.turns[3]
    assert answer.raw["kind"] == "LLM RESPONSE" and answer.raw["time"].startswith("20")
    assert (
        answer.text
        == 'Let me read it.\n<tool_call>{"name":"read_file","arguments":{"file_path":"notes.txt"}}</tool_call>'
    )


@pytest.mark.parametrize("path", [CHAT, LOG], ids=["chat", "log"])
def test_the_planted_problems_are_found_once(path):
    assert finding_triples(path) == PLANTED


@pytest.mark.parametrize("path", [CHAT, LOG], ids=["chat", "log"])
def test_fix_says_in_one_line_that_the_format_cannot_be_written(path, tmp_path, capsys):
    code, error = fix_all(path, tmp_path / "fixed.md", capsys)
    assert code == 2 and "format cannot be written" in error and len(error.splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def test_a_heading_in_a_reply_is_skipped_as_aider_skips_it(tmp_path):
    path = tmp_path / "history.md"
    path.write_text("# aider chat started at 2026-01-01 00:00:00\n\n#### hi  \n\nHello.\n# Title\nMore.\n")
    (session,) = load_sessions(path)
    assert [(turn.role, turn.text) for turn in session.turns] == [(USER, "hi"), (ASSISTANT, "Hello.\nMore.")]


def test_a_log_line_outside_a_message_is_counted(tmp_path):
    text = LOG.read_text(encoding="utf-8").replace("\nLLM RESPONSE", "\nstray words\nLLM RESPONSE", 1)
    path = tmp_path / "log.txt"
    path.write_text(text, encoding="utf-8")
    (session,) = load_sessions(path)
    assert session.problems == ("1 line outside a message not read",)


def test_markdown_that_is_not_aider_s_is_refused_in_one_line(tmp_path, capsys):
    path = tmp_path / "README.md"
    path.write_text("# A project\n\nSome words.\n")
    assert main(["scan", str(path)]) == 2
    assert capsys.readouterr().err == (
        f"inspector: error: {path}: not a recognised session format (text of 3 lines); try --format\n"
    )


@pytest.mark.parametrize("path", [CHAT, LOG], ids=["chat", "log"])
def test_a_long_hostile_file_is_read_in_linear_time(path, tmp_path):
    big = tmp_path / path.name
    head = path.read_text(encoding="utf-8").lstrip().split("\n", 1)[0] + "\n"
    big.write_text(head + ("#### " + "x" * 50 + "\nASSISTANT -------\n> \n" + "y" * 50 + "\n") * 40_000)
    started = time.perf_counter()
    load_sessions(big)
    assert time.perf_counter() - started < 5


def test_a_log_reads_the_same_whatever_its_lines_end_with(tmp_path):
    """Lines ending in a line feed alone are read a block at a time, others a line at a time: the
    turns, their lines and the stray lines counted are the same either way."""
    text = LOG.read_text(encoding="utf-8")
    text = text.replace("\nLLM RESPONSE", "\nstray words\n   \n-------\nLLM RESPONSE", 2)
    text = text.replace("\nASSISTANT Ok.\n", "\nASSISTANT Ok.\nUSER\nTOOL done\nTOOL \n-------\n", 1)
    read = []
    for name, ending in (("lf.txt", "\n"), ("crlf.txt", "\r\n")):
        path = tmp_path / name
        path.write_bytes(text.replace("\n", ending).encode("utf-8"))
        (session,) = load_sessions(path)
        read.append((session.problems, [(turn.role, turn.text, turn.raw) for turn in session.turns]))
    assert read[0] == read[1]
    assert read[0][0] == ("2 lines outside a message not read",)


def test_a_chat_reads_the_same_whatever_its_lines_end_with(tmp_path):
    """Lines ending in a line feed alone are read a message at a time, others a line at a time:
    the turns, their lines and their records are the same either way."""
    text = CHAT.read_text(encoding="utf-8").replace("\nLet me read it.\n", "\n\n# Title\nLet me read it.\n  \n# x\n", 1)
    text += "\n#### one  \n# skipped\n#### two  \n\n# last\n"
    read = []
    for name, ending in (("lf.md", "\n"), ("crlf.md", "\r\n")):
        path = tmp_path / name
        path.write_bytes(text.replace("\n", ending).encode("utf-8"))
        (session,) = load_sessions(path)
        read.append(
            [
                (turn.role, turn.text.replace(ending, "\n"), turn.id, turn.raw["content"].replace(ending, "\n"))
                for turn in session.turns
            ]
        )
    assert read[0] == read[1]
    reply = read[0][3]  # its heading and the `# x` line skipped, its blank lines kept
    assert reply[1].startswith("Let me read it.\n  \n<tool_call>") and reply[2] == "line 32"
    assert reply[3].startswith("\n\nLet me read it.\n  \n<tool_call>")
    assert read[0][-1] == (USER, "one  \ntwo", "line 67", "one  \ntwo  \n")
