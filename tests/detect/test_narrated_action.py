"""Detector `narrated-action` on real session files: a reply that ends announcing a tool action with
no call, followed by the person or by the end of the session (what agent loops answer with a "continuation nudge"); a
precision set of ordinary closings that stay clean; the early-findings contract; hostile sizes."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from inspector.cli.main import main
from inspector.detect import detect_findings
from inspector.detect.announcement import final_announcement
from inspector.model import WARNING
from inspector.scan.early import early_findings
from inspector.scan.scanner import scan_file
from inspector.sources import load_sessions
from tests.helpers.timing import cpu_time

KIND = "narrated-action"
SEARCH = {
    "type": "function",
    "function": {
        "name": "web_search",
        "parameters": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]},
    },
}
SAVE = {
    "type": "function",
    "function": {
        "name": "save_memory",
        "parameters": {
            "type": "object",
            "properties": {
                "memory_type": {"type": "string", "enum": ["journal", "fact"]},
                "content": {"type": "string"},
            },
            "required": ["memory_type", "content"],
        },
    },
}

# Closings that announce a tool action and stop: each must be flagged.
POSITIVES = [
    "Let me search for that now.",
    "I'll save this to your journal.",
    "Now I'll run the tests.",
    "Sure! Let me look that up for you.",
    "Good question. I'll check the current exchange rate.",
    "Got it, I'll book the 9:40 flight to Lisbon.",
    "That error means the path was wrong. Let me try again with the full path.",
    "I'm going to query the orders table for last week's refunds.",
    "OK, let me pull up your account details. One moment!",
    "Understood. I'll go ahead and delete the draft.",
    "Let me check.",
    "Alright, I'll send the invoice to Dana now.",
    "Searching for flights to Oslo now...",
    "Next, I'll update the README with the new flags.",
    "Let me take a quick look at the logs.",
    "I'll fix the failing import and rerun the suite. I'll report back with the results.",
    "Thanks! I'm about to create the calendar event for Friday at 3pm.",
    "Let's run the migration.",
    "I will now write the summary to notes.md.",
    "The file is missing a newline at the end \u2014 let me fix that.",
    "I see the issue. Let me search the codebase for other uses of `parse_date`.",
    "Perfect, I'll add Maya's birthday to your calendar.",
    "Let me fetch the latest release notes.",
    "I'll go ahead and create the ticket in Jira.",
    "Okay, now let me run the linter on the changed files.",
    "Let me double-check the booking reference.",
    "I'm going to restart the web server.",
    "Let me open `config.yaml` and see what's set there.",
    "Great, I\u2019ll schedule the reminder for 8am.",
    "Let me grab the weather forecast for Bergen.",
    "Let me dig into the stack trace. \U0001f50d",
    "I'll install the missing dependency.",
    "Let me query the database for that customer.",
    "I'll look up the tracking number.",
    "Alright, let me read the error log.",
    "Let me see what I can find.",
    "I'll retry with a longer timeout.",
    "I'll now apply the patch.",
    "That didn't work. Let me try something else.",
]
# Ordinary closings, offers, conditions, deferrals, explanations and code: none may be flagged.
CLEAN = [
    "Let me know if you need anything else.",
    "I'll be here if you have questions.",
    "Let me explain:\n\n1. The cache is keyed by user.\n2. It expires after an hour.",
    "Shall I search for it?",
    "If you want, I'll save it to your journal.",
    "Once you confirm the dates, I'll book the flight.",
    "When you're ready, I'll run the deployment.",
    "Would you like me to look that up?",
    "Want me to run the tests again?",
    "I can search for that if you'd like.",
    "I ran the tests and all 42 passed.",
    "I won't delete anything without your approval.",
    "I'll remember that you prefer metric units.",
    "I'll keep that in mind for next time.",
    "Let me think about this for a second.",
    "Let me summarize: the build fails because the lockfile is stale.",
    "Let me be clear: nothing was deleted.",
    "Hope that helps! Let me know how it goes.",
    "I'll check back with you tomorrow.",
    "I'll look into it next week.",
    "Happy to help. Have a great day!",
    "You can run the tests with `pytest -q`.",
    "To search the archive, use the search box at the top.",
    "Next, you'll want to run the migration yourself.",
    "I'd be happy to run the numbers if you send the data.",
    "I could search for cheaper flights, if that helps.",
    "Here's the code:\n\n```python\nprint('hello')\n```",
    "I'll write a script that does it:\n\n```bash\nfind . -name '*.log' -delete\n```",
    "Let me walk you through it step by step: first open the settings, then pick Privacy.",
    "Let's get started! What would you like to do first?",
    "Let me run you through the options: A is cheaper, B is faster.",
    "> I'll search for it now.",
    "Should I save this to your journal?",
    "Let me check: the file says the meeting moved to Thursday.",
    "I'll help you with that. What's the order number?",
    "The tests passed. Let me know if you want me to deploy.",
    "I'll wait for your go-ahead before sending anything.",
    "If needed, I'll rerun the tests later.",
    "No problem. I'll be around if anything else comes up.",
    "Let me rephrase that: the deadline is Friday, not Thursday.",
    "I will try to be more careful from now on.",
    "I'll make sure to double-check next time.",
    "Perhaps I'll search for it later.",
    "Let me give you a quick overview of the three plans.",
    "I'll leave it there for now.",
    "Glad I could help!",
    "Let me know which option you prefer.",
    "I'll leave the decision to you.",
    "Let me start by saying I'm sorry for the confusion.",
    "I'll do my best.",
    "Let me put it another way: the refund goes to the original card.",
    "If the tests fail again, I'll look at the fixtures.",
    "Let me know once you've restarted it and I'll take another look.",
    "I'll need your order number to go further.",
    "Let's keep it simple for now.",
    "I'll try to keep my answers shorter.",
    "Feel free to ask if anything is unclear.",
    "Let me clarify what I meant by 'stale'.",
    "Do you want me to save this?",
    "I can run it again whenever you like.",
    "That's all for now.",
    "Shall I go ahead?",
    "Let me think.",
    "Sure thing! Anything else?",
    "I'll remind you as the date gets close.",
    "Let me also mention that the API has a rate limit of 60 requests per minute.",
    "I checked the logs earlier and found nothing unusual.",
    "The search returned three results, listed above.",
    "Let me be honest: I'm not sure this will work.",
    "I'll be more careful to confirm things actually saved.",
    "Would it help if I ran the tests?",
    "Next time, I'll ask before deleting anything.",
    "Let me answer your second question first: yes, it's free.",
    "Let's hope the fix holds.",
    "I will note, though, that the benchmark is noisy.",
    "I'll add that the office closes at 5.",
    "Let me check my understanding.",
    "Let me open by saying thanks.",
    "I'll call it a day.",
    "Now let's build something great together!",
    "Let me run with that idea.",
]


def _exchanges(replies: list[str]) -> list[dict]:
    """Each reply as the assistant's closing of its own exchange, the person prodding after it."""
    messages = []
    for number, reply in enumerate(replies):
        messages += [{"role": "user", "content": f"request {number}"}, {"role": "assistant", "content": reply}]
    return messages + [{"role": "user", "content": "go on"}]


def _flagged(path) -> list:
    (result,) = scan_file(path)
    return [f for f in result.findings if f.kind == KIND]


def test_precision_set_every_announcement_is_flagged_and_no_ordinary_closing(write_session):
    assert len(POSITIVES) >= 15 and len(CLEAN) >= 40
    replies = POSITIVES + CLEAN
    findings = _flagged(write_session(_exchanges(replies), [SEARCH, SAVE]))
    flagged = {replies[(f.turn - 1) // 2] for f in findings}
    missed = [reply for reply in POSITIVES if reply not in flagged]
    false = [reply for reply in CLEAN if reply in flagged]
    assert (missed, false) == ([], [])  # precision and recall 1.0 on this set
    assert all(f.severity == WARNING and f.fix is None and f.executed is False for f in findings)


def test_seed_003_narration_after_a_tool_error_then_the_person_prods(write_session):
    call = {
        "id": "c1",
        "type": "function",
        "function": {"name": "save_memory", "arguments": '{"memory_type": "diary", "content": "Maya"}'},
    }
    reply = "Sorry, that type was wrong. I'll save this to your journal."
    path = write_session(
        [
            {"role": "user", "content": "Journal this: Maya moves in March."},
            {"role": "assistant", "content": None, "tool_calls": [call]},
            {"role": "tool", "tool_call_id": "c1", "content": '{"error": "memory_type must be journal or fact"}'},
            {"role": "assistant", "content": reply},
            {"role": "user", "content": "did you do it?"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        **call,
                        "id": "c2",
                        "function": {
                            "name": "save_memory",
                            "arguments": '{"memory_type": "journal", "content": "Maya"}',
                        },
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "c2", "content": '{"success": true}'},
            {"role": "assistant", "content": "Saved."},
        ],
        [SAVE],
    )
    (finding,) = _flagged(path)
    assert (finding.turn, finding.tool, finding.payload["followed_by"]) == (3, None, "user")
    assert reply[slice(*finding.span)] == "I'll save this to your journal."
    assert 'the person wrote next: "did you do it?"' in finding.message


def test_anthropic_narration_without_tool_use_but_not_the_reply_with_one(tmp_path):
    tools = [
        {
            "name": "web_search",
            "description": "Search the web.",
            "input_schema": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]},
        }
    ]
    document = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 1024,
        "tools": tools,
        "messages": [
            {"role": "user", "content": "Find flights to Oslo."},
            {
                "role": "assistant",
                "content": [
                    {"type": "text", "text": "Let me search for flights to Oslo now."},
                    {"type": "tool_use", "id": "toolu_1", "name": "web_search", "input": {"query": "flights to Oslo"}},
                ],
            },
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "3 flights"}]},
            {
                "role": "assistant",
                "content": [
                    {"type": "text", "text": "Three flights. Now I'll use the web_search tool to compare prices."}
                ],
            },
            {"role": "user", "content": "continue"},
        ],
    }
    path = tmp_path / "claude.json"
    path.write_text(json.dumps(document, indent=2), encoding="utf-8")
    (result,) = scan_file(path)
    assert result.session.format == "anthropic"
    (finding,) = [f for f in result.findings if f.kind == KIND]
    assert (finding.turn, finding.tool) == (3, "web_search")


def test_gemini_narration_that_ends_the_session(tmp_path):
    document = {
        "contents": [
            {"role": "user", "parts": [{"text": "Is the weather good for a hike?"}]},
            {"role": "model", "parts": [{"text": "Good idea. Let me check the forecast for Bergen."}]},
        ],
        "tools": [
            {
                "functionDeclarations": [
                    {
                        "name": "get_forecast",
                        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
                    }
                ]
            }
        ],
    }
    path = tmp_path / "gemini.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    (finding,) = _flagged(path)
    assert finding.turn == 1 and finding.payload["followed_by"] == "end"
    assert "the session ends there" in finding.message


def test_not_flagged_when_the_exchange_goes_on_or_no_tool_exists(write_session, tmp_path):
    narration = {"role": "assistant", "content": "Let me search for that now."}
    call = {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "web_search", "arguments": '{"query": "oslo"}'}}
        ],
    }
    answered = [
        call,
        {"role": "tool", "tool_call_id": "c1", "content": "sunny"},
        {"role": "assistant", "content": "Sunny."},
    ]
    nudged = write_session(
        [
            {"role": "user", "content": "weather?"},
            narration,
            {"role": "system", "content": "Call the next tool NOW."},
            *answered,
        ],
        [SEARCH],
        "nudged.json",
    )
    split = write_session([{"role": "user", "content": "weather?"}, narration, *answered], [SEARCH], "split.json")
    toolless = write_session(
        [{"role": "user", "content": "weather?"}, narration, {"role": "user", "content": "and?"}], None, "toolless.json"
    )
    assert _flagged(nudged) == _flagged(split) == _flagged(toolless) == []
    prodded = write_session(
        [
            {"role": "user", "content": "weather?"},
            narration,
            {"role": "system", "content": "Call the next tool NOW."},
            {"role": "user", "content": "hello?"},
        ],
        [SEARCH],
        "prodded.json",
    )
    assert [f.turn for f in _flagged(prodded)] == [1]  # system messages are passed over


def test_a_repaired_reply_after_its_recovered_call_is_not_flagged(write_session, tmp_path, capsys):
    reply = (
        'Let me search for that now.\n<tool_call>\n{"name": "web_search", "arguments": {"query": "oslo"}}\n</tool_call>'
    )
    path = write_session(
        [
            {"role": "user", "content": "weather?"},
            {"role": "assistant", "content": reply},
            {"role": "user", "content": "well?"},
        ],
        [SEARCH],
    )
    assert [f.kind for r in scan_file(path) for f in r.findings] == ["tool-markup"]
    out = tmp_path / "fixed.json"
    assert main(["fix", str(path), "--accept", "all", "-o", str(out)]) == 0
    assert json.loads(out.read_text())["messages"][3]["content"] == "Let me search for that now."
    assert [f.kind for r in scan_file(out) for f in r.findings] == []


def test_reports_and_fix_accept_know_the_kind(write_session, tmp_path, capsys):
    path = write_session(_exchanges(["Let me search for that now."]), [SEARCH])
    assert main(["scan", "--json", str(path)]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["summary"]["by_kind"] == {KIND: 1}
    (finding,) = report["sessions"][0]["findings"]
    assert (finding["severity"], finding["fix"], finding["payload"]["announcement"]) == (
        "warning",
        None,
        "Let me search for that now.",
    )
    assert report["rates"]["total"]["kinds"][KIND] == {"count": 1, "per_100_calls": None}  # no call at all
    assert report["rates"]["total"]["by_model"]["unknown"]["kinds"][KIND]["count"] == 1
    assert main(["scan", str(path)]) == 1
    assert "warning  narrated-action" in capsys.readouterr().out
    out = tmp_path / "fixed.json"
    assert main(["fix", str(path), "--accept", KIND, "-o", str(out)]) == 1  # a known kind, nothing to apply


def test_early_findings_never_report_a_narration_the_rest_of_the_session_answers(write_session):
    messages = [
        {"role": "user", "content": "weather?"},
        {"role": "assistant", "content": "Let me search for that now."},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "web_search", "arguments": '{"query": "oslo"}'}}
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "sunny"},
        {"role": "assistant", "content": "Sunny. Let me check the forecast for Bergen too."},
        {"role": "user", "content": "go on"},
        {"role": "assistant", "content": "Done."},
    ]
    session = load_sessions(write_session(messages, [SEARCH]))[0]
    full = detect_findings(session)
    assert [(f.turn, f.kind) for f in full] == [(4, KIND)]
    assert detect_findings(replace(session, turns=session.turns[:2]))[0].kind == KIND  # the prefix alone "ends" there
    for size in range(1, len(session.turns) + 1):
        early = early_findings(session, first=size, last=size)
        assert early == full[: len(early)], size


@pytest.mark.parametrize(
    "reply, expected",
    [
        ("Let me search for that now. " * 3_600, 1),
        ("let me " * 14_300, 0),
        ("Searching " * 10_000 + "now...", 0),  # a sentence longer than an announcement
        ("." * 100_000, 0),
        ("I'll " + "a" * 100_000 + ".", 0),
        ("\U0001f50d" * 50_000, 0),
        ("Let me check. One moment! " + "One moment! " * 8_000, 0),  # more fillers than are passed over
        ("x" * 100_000 + ". Let me check. One moment!", 1),
    ],
    ids=["sentences", "no-stop", "gerunds", "dots", "one-word", "emoji", "fillers", "long-then-announcement"],
)
def test_hostile_replies_of_100_kb_are_read_in_constant_time(write_session, reply, expected):
    path = write_session(_exchanges([reply]), [SEARCH])
    started = cpu_time()
    assert len(_flagged(path)) == expected
    assert cpu_time() - started < 2.0


def test_five_thousand_narrations_scan_fast(write_session):
    path = write_session(_exchanges(["I'll run the tests now."] * 5_000), [SEARCH])
    started = cpu_time()
    assert len(_flagged(path)) == 5_000
    assert cpu_time() - started < 5.0


@pytest.mark.parametrize(
    "reply, sentence",
    [
        ("Now checking the logs.", "Now checking the logs."),  # "Now" found only after its capital is
        ("Checking the logs now.", "Checking the logs now."),
        ("Done. I\u2019ll run the tests.", "I\u2019ll run the tests."),  # a curly apostrophe
        ("Let me check.  \n", "Let me check."),  # white space after the end
        ("What went wrong? Let me check.", "Let me check."),  # a question mark that does not end the reply
        ("Let me check that now \U0001f50d", "Let me check that now"),
        ("Let me check? ", None),  # a question, white space after it
        ("I'll run it:\n```bash\nmake\n```", None),
    ],
)
def test_the_prefilter_turns_away_only_replies_that_end_no_announcement(reply, sentence):
    found = final_announcement(reply)
    assert (found[1] if found else None) == sentence
