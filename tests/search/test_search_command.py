"""`inspector search` on every agent's real session, placed where the agent keeps it: words,
phrases and prefixes, each facet, the counts of findings as `scan` reports them, the output on a
terminal and in a pipe, and queries FTS5 itself would refuse."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.cli.main import main
from tests.helpers.samples import SESSIONS, TOOL_SAMPLES
from tests.search.helpers import hit_places, searched, searched_json

CLAUDE = "75be298c-69f7-4eae-9118-77047fde8a3b.jsonl"


def test_a_word_finds_the_turns_that_hold_it_with_their_session_turn_and_role(placed, capsys):
    code, out, err = searched(capsys, "Thursday", "--limit", "100")
    assert code == 0, err
    lines = out.splitlines()
    assert lines and len(lines) % 2 == 0
    gemini = str(placed["Gemini CLI"])
    assert any(line.startswith(gemini) and "session b680cadb-f2e8-4427-a8c6-6cfd1f65ee1c" in line for line in lines)
    assert any("turn 15 assistant" in line for line in lines if line.startswith(gemini))
    assert all("**Thursday**" in snippet for snippet in lines[1::2])  # a pipe: the match between markers


def test_a_phrase_matches_the_words_in_order_and_a_prefix_by_their_start(placed, capsys):
    phrase = searched_json(capsys, '"moved to Thursday"', "--limit", "100")
    reversed_words = searched_json(capsys, '"Thursday to moved"', "--limit", "100")
    prefix = searched_json(capsys, "Thursd*", "--limit", "100")
    whole = searched_json(capsys, "Thursd", "--limit", "100")
    assert phrase["hits"] and not reversed_words["hits"]
    assert hit_places(phrase) <= hit_places(prefix)
    assert not whole["hits"]
    assert all("moved to Thursday" in hit["snippet"] for hit in phrase["hits"])


def test_each_facet_narrows_the_hits(placed, capsys):
    every = searched_json(capsys, "notes", "--limit", "1000")
    agents = {hit["agent"] for hit in every["hits"]}
    assert {"Claude Code", "Codex", "Gemini CLI"} <= agents
    by_agent = searched_json(capsys, "notes", "--agent", "claude code", "--limit", "1000")
    assert {hit["agent"] for hit in by_agent["hits"]} == {"Claude Code"}
    by_format = searched_json(capsys, "notes", "--agent", "codex", "--limit", "1000")
    assert {hit["format"] for hit in by_format["hits"]} == {"codex"}
    by_project = searched_json(capsys, "notes", "--project", "CC-WORK", "--limit", "1000")
    assert {hit["project"] for hit in by_project["hits"]} == {"/tmp/cc-work"}
    by_model = searched_json(capsys, "notes", "--model", "qwen", "--limit", "1000")
    assert by_model["hits"] and {hit["agent"] for hit in by_model["hits"]} == {"Qwen Code"}
    by_kind = searched_json(capsys, "notes", "--kind", "malformed-arguments", "--limit", "1000")
    assert by_kind["hits"] and all("malformed-arguments" in hit["kinds"] for hit in by_kind["hits"])
    by_tool = searched_json(capsys, "notes", "--tool", "exec_command", "--limit", "1000")
    assert by_tool["hits"] and {hit["agent"] for hit in by_tool["hits"]} == {"Codex"}
    for narrowed in (by_agent, by_format, by_project, by_model, by_kind, by_tool):
        assert hit_places(narrowed) < hit_places(every)


def test_dates_keep_the_sessions_of_their_days(placed, capsys):
    placed_at = "2023-11-14"  # a file sample is placed with the modification time 1_700_000_000
    claude = ("--agent", "claude code")
    assert searched_json(capsys, "notes", *claude, "--since", placed_at, "--until", "2023-11-15")["hits"]
    assert not searched_json(capsys, "notes", *claude, "--since", "2023-11-15")["hits"]
    assert not searched_json(capsys, "notes", *claude, "--until", placed_at)["hits"]
    assert searched_json(capsys, "notes", *claude, "--until", "1d")["hits"]
    code, _, err = searched(capsys, "notes", "--since", "last week")
    assert code == 2 and err.count("\n") == 1 and "not a date" in err


def test_no_words_lists_the_turns_with_findings_of_the_kind(placed, capsys):
    document = searched_json(capsys, "", "--kind", "tool-markup", "--model", "qwen")
    assert [(hit["agent"], hit["kinds"]) for hit in document["hits"]] == [("Qwen Code", ["tool-markup"])]
    assert "tool_call" in document["hits"][0]["snippet"]


def test_a_turn_found_by_its_findings_alone_shows_its_call_or_result_when_it_has_no_text(placed, capsys):
    malformed = searched_json(capsys, "", "--kind", "malformed-arguments", "--agent", "codex")
    errors = searched_json(capsys, "", "--kind", "tool-error", "--agent", "claude code")
    assert malformed["hits"] and errors["hits"]
    assert all(hit["snippet"].startswith("exec_command {") for hit in malformed["hits"])
    assert all("InputValidationError" in hit["snippet"] for hit in errors["hits"])


def test_facets_count_the_findings_scan_reports(placed, capsys):
    assert main(["scan", "--json"]) == 1
    scanned = json.loads(capsys.readouterr().out)
    counts = searched_json(capsys, "", "--facets")["facets"]
    assert counts["kind"] == scanned["summary"]["by_kind"]
    by_tool: dict[str, int] = {}
    for session in scanned["sessions"]:
        for finding in session["findings"]:
            tool = finding["tool"] if finding["tool"] is not None else "(unknown)"
            by_tool[tool] = by_tool.get(tool, 0) + 1
    assert counts["tool"] == by_tool
    assert sum(counts["agent"].values()) == sum(counts["model"].values()) == scanned["summary"]["findings"]
    assert counts["agent"] == {agent: n for agent, n in _findings_by_agent(scanned, placed).items() if n}


def _findings_by_agent(scanned: dict, placed: dict[str, Path]) -> dict[str, int]:
    """The findings `scan --json` reports in each agent's sample."""
    by_path = {str(path): agent for agent, path in placed.items()}
    counts = dict.fromkeys(placed, 0)
    for session in scanned["sessions"]:
        counts[by_path[session["path"]]] += len(session["findings"])
    return counts


def test_facets_of_a_kind_say_which_model_and_tool_it_comes_from(placed, capsys):
    code, out, _ = searched(capsys, "", "--facets", "--kind", "tool-markup", "--model", "qwen")
    assert code == 0
    assert "findings by model:\n        1  qwen3-coder-plus\n" in out
    assert "findings by kind:\n        1  tool-markup\n" in out


def test_facets_or_a_filter_need_no_words(placed, capsys):
    assert searched(capsys, "--facets") == searched(capsys, "", "--facets")
    assert searched(capsys, "--kind", "tool-markup")[1] == searched(capsys, "", "--kind", "tool-markup")[1]
    code, out, err = searched(capsys)
    assert (code, out) == (2, "") and "give the words to find" in err and err.count("\n") == 1


def test_a_facet_with_nothing_counted_says_none(placed, capsys):
    code, out, _ = searched(capsys, "xylophonequartz", "--facets")
    assert code == 1 and out == "".join(
        f"findings by {facet}:\n  none\n" for facet in ("kind", "tool", "model", "agent")
    )


def test_nothing_found_exits_1_and_says_nothing_on_stdout(placed, capsys):
    code, out, _ = searched(capsys, "xylophonequartz")
    assert (code, out) == (1, "")


@pytest.mark.parametrize(
    "query",
    [
        '"unbalanced',
        "OR",
        "NOT",
        "AND notes",
        "notes OR",
        "(",
        "notes)",
        "NEAR(notes Thursday)",
        "text:notes",
        "*",
        '"',
        "^notes",
        "notes -Thursday",
        "\x1b[31m",
        "'",
        "a" * 5000,
        '"notes" * OR OR "',
    ],
)
def test_a_query_fts5_would_refuse_is_quoted_never_a_traceback(placed, capsys, query):
    code, _, err = searched(capsys, query)
    assert code in (0, 1), err
    assert "Traceback" not in err


def test_terms_or_either_and_hostile_words_match_as_words(placed, capsys):
    either = hit_places(searched_json(capsys, "xylophonequartz OR Thursday", "--limit", "1000"))
    assert either == hit_places(searched_json(capsys, "Thursday", "--limit", "1000"))
    assert searched_json(capsys, "NEAR(notes", "--limit", "5")["hits"] == []  # `near` is a word here, not syntax


def test_a_terminal_shows_the_match_bold_and_no_escape_from_the_session(tmp_path, capsys, monkeypatch):
    session = tmp_path / "hostile.json"
    session.write_text(
        json.dumps({"messages": [{"role": "user", "content": "the beacon \x1b]0;owned\x07 glows \x1b[2J here"}]}),
        encoding="utf-8",
    )
    monkeypatch.setattr("sys.stdout.isatty", lambda: True)
    code, out, _ = searched(capsys, "beacon", str(session))
    assert code == 0
    assert "\x1b[1mbeacon\x1b[0m" in out
    assert "\x1b]" not in out and "\x1b[2J" not in out and "\\x1b" in out


def test_paths_given_are_indexed_besides_the_person_s_own(capsys):
    document = searched_json(capsys, '"save_memory"', str(SESSIONS))
    assert document["hits"] and all(hit["path"].startswith(str(SESSIONS)) for hit in document["hits"])
    assert document["index"]["files"] > 1
    code, _, err = searched(capsys, "notes", str(TOOL_SAMPLES / "not-there.jsonl"))
    assert code == 2 and err.count("\n") == 1 and "no such file" in err


def test_the_json_document_has_a_versioned_schema(placed, capsys):
    document = searched_json(capsys, "Thursday", "--agent", "gemini cli", "--facets")
    assert document["schema"] == 1
    assert set(document) == {"schema", "query", "filter", "hits", "facets", "index"}
    assert document["filter"]["agent"] == "gemini cli"
    hit = document["hits"][0]
    assert set(hit) == {
        "path",
        "session_id",
        "session",
        "turn",
        "role",
        "agent",
        "format",
        "project",
        "model",
        "date",
        "kinds",
        "snippet",
        "highlights",
    }
    assert all(hit["snippet"][start:end] == "Thursday" for start, end in hit["highlights"])
    assert hit["date"] == "2023-11-14T22:13:20Z"
    assert document["index"]["path"].endswith("/inspector/search.db")


def test_a_bad_limit_is_one_line_and_exit_2(capsys):
    code, _, err = searched(capsys, "notes", "--limit", "0")
    assert code == 2 and err.count("\n") == 1
