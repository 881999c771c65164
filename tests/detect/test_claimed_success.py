"""Detector `claimed-success` on real session files: a reply that says the thing was done right
after the tool that does it failed, and the look-alikes that must stay clean (a reply admitting
the failure, a retry, a claim about a tool that succeeded)."""

import json
import shutil

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from inspector.cli.main import main
from inspector.model import WARNING
from inspector.tui.app import InspectorApp
from inspector.tui.review.turn_list import TurnList
from tests.helpers.files import write_json
from tests.helpers.pilot import play
from tests.helpers.samples import SESSIONS
from tests.helpers.scanning import findings_of
from tests.helpers.timing import cpu_time

KIND = "claimed-success"
SEND_EMAIL = {
    "type": "function",
    "function": {
        "name": "send_email",
        "parameters": {
            "type": "object",
            "properties": {"to": {"type": "string"}, "body": {"type": "string"}},
            "required": ["to"],
        },
    },
}
CREATE_CHART = {
    "type": "function",
    "function": {"name": "create_chart", "parameters": {"type": "object", "properties": {"title": {"type": "string"}}}},
}


def _call(call_id, name, arguments):
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": json.dumps(arguments)}}


def _failed_email(reply, before_reply=()):
    """The user asks for a chart by email; the chart is made, the email fails; then `reply`."""
    return [
        {"role": "user", "content": "Chart October's signups and email it to priya@fernleaf.io."},
        {"role": "assistant", "content": None, "tool_calls": [_call("c1", "create_chart", {"title": "October"})]},
        {"role": "tool", "tool_call_id": "c1", "content": '{"chart_id": "ch_1", "url": "https://charts.example/ch_1"}'},
        {"role": "assistant", "content": None, "tool_calls": [_call("c2", "send_email", {"body": "Chart: ch_1"})]},
        {"role": "tool", "tool_call_id": "c2", "content": '{"error": "missing required argument: to"}'},
        *before_reply,
        reply,
    ]


def test_the_analyst_sample_claims_the_email_its_failed_send_email_call_never_sent():
    (finding,) = findings_of(SESSIONS / "analyst-agent.openai.json", KIND)
    assert (finding.turn, finding.severity, finding.tool, finding.fix) == (18, WARNING, "send_email", None)
    assert finding.message == (
        'The reply says "I\'ve emailed Priya the chart and summary.", but the send_email '
        "call at turn 16 failed: missing required argument: to"
    )
    assert finding.payload["call_turn"] == 16 and finding.payload["call_id"] == "call_e2"
    assert finding.span == (0, len("I've emailed Priya the chart and summary."))


@pytest.mark.parametrize(
    "reply",
    [
        "I've emailed Priya the chart and summary.",
        "Done — the chart is attached and the email has been sent to Priya.",
        "The chart is ready and I sent it to Priya with a two-line summary.",
        "Email sent! Priya now has the chart.",
    ],
)
def test_openai_claims_of_the_failed_email_are_flagged(write_session, reply):
    path = write_session(_failed_email({"role": "assistant", "content": reply}), [SEND_EMAIL, CREATE_CHART])
    (finding,) = findings_of(path, KIND)
    assert (finding.turn, finding.tool) == (5, "send_email")
    assert "send_email call at turn 3 failed: missing required argument: to" in finding.message


@pytest.mark.parametrize(
    "reply",
    [
        "The email could not be sent: the recipient was missing. The chart is at https://charts.example/ch_1.",
        "I couldn't email Priya, but the chart is ready.",
        "Sending failed with an error about the recipient.",
        "Sorry, I created the chart but the email did not go out.",
        "Unfortunately the mail server rejected it.",
        "I've created the chart: https://charts.example/ch_1.",  # the chart did succeed
        "Here is the chart: https://charts.example/ch_1",
        "Should I send the email to priya@fernleaf.io?",
        "I'll email it as soon as you confirm the address.",
        "Once the address is fixed, I will have emailed Priya the chart.",
        "You have sent me the address before; is it priya@fernleaf.io.",  # what the user did
        "```\nDone — email sent\n```",  # a code block is no claim
        "> I've emailed Priya the chart.",  # nor a quoted line
    ],
)
def test_replies_that_admit_the_failure_or_claim_something_else_stay_clean(write_session, reply):
    path = write_session(_failed_email({"role": "assistant", "content": reply}), [SEND_EMAIL, CREATE_CHART])
    assert findings_of(path, KIND) == []


def test_a_retry_in_the_reply_or_a_retry_that_succeeded_before_it_stays_clean(write_session):
    retry = {
        "role": "assistant",
        "content": "Done, sending it again with the address.",
        "tool_calls": [_call("c3", "send_email", {"to": "priya@fernleaf.io", "body": "Chart: ch_1"})],
    }
    retried = [
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [_call("c3", "send_email", {"to": "priya@fernleaf.io", "body": "Chart: ch_1"})],
        },
        {"role": "tool", "tool_call_id": "c3", "content": '{"status": "sent"}'},
    ]
    user_between = [{"role": "user", "content": "Never mind the email."}]
    for messages in (
        _failed_email(retry) + [{"role": "tool", "tool_call_id": "c3", "content": "sent"}],
        _failed_email({"role": "assistant", "content": "I've emailed Priya the chart."}, retried),
        _failed_email({"role": "assistant", "content": "I've emailed Priya the chart."}, user_between),
    ):
        assert findings_of(write_session(messages, [SEND_EMAIL, CREATE_CHART]), KIND) == []


def test_a_tool_that_failed_then_another_that_did_the_job_stays_clean(write_session):
    """The analyst's own story, once fixed: send_mail does not exist, send_email sends."""
    path = write_session(
        [
            {"role": "user", "content": "Email the chart to priya@fernleaf.io."},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [_call("c1", "send_mail", {"to": "priya@fernleaf.io"})],
            },
            {"role": "tool", "tool_call_id": "c1", "content": '{"error": "unknown function send_mail"}'},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [_call("c2", "send_email", {"to": "priya@fernleaf.io"})],
            },
            {"role": "tool", "tool_call_id": "c2", "content": '{"status": "sent"}'},
            {"role": "assistant", "content": "I've emailed Priya the chart."},
        ],
        [SEND_EMAIL],
    )
    assert findings_of(path, KIND) == []


@pytest.mark.parametrize(
    "reply",
    [
        "I found these from what I already know: Oslo has about 700,000 people.",
        "I've put together a short answer below: Oslo has about 700,000 people.",
        "Oslo has about 700,000 people.",
    ],
)
def test_an_answer_after_a_failed_lookup_that_claims_no_task_stays_clean(write_session, reply):
    search = {"type": "function", "function": {"name": "web_search", "parameters": {"type": "object"}}}
    path = write_session(
        [
            {"role": "user", "content": "How many people live in Oslo?"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [_call("c1", "web_search", {"query": "Oslo population"})],
            },
            {"role": "tool", "tool_call_id": "c1", "content": '{"error": "rate limited"}'},
            {"role": "assistant", "content": reply},
        ],
        [search],
    )
    assert findings_of(path, KIND) == []


def test_a_generic_done_is_flagged_only_when_nothing_since_the_last_reply_succeeded(write_session):
    messages = _failed_email({"role": "assistant", "content": "Done."})
    assert findings_of(write_session(messages, [SEND_EMAIL, CREATE_CHART]), KIND) == []  # the chart succeeded
    only_the_email = [messages[0], *messages[3:]]
    (finding,) = findings_of(write_session(only_the_email, [SEND_EMAIL, CREATE_CHART]), KIND)
    assert (finding.turn, finding.tool, finding.payload["claim"]) == (3, "send_email", "Done.")


def test_a_bare_done_after_parallel_calls_of_which_one_succeeded_stays_clean(write_session):
    path = write_session(
        [
            {"role": "user", "content": "Email Priya and Sam."},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    _call("c1", "send_email", {"to": "priya@fernleaf.io"}),
                    _call("c2", "send_email", {"to": "sam@"}),
                ],
            },
            {"role": "tool", "tool_call_id": "c1", "content": '{"status": "sent"}'},
            {"role": "tool", "tool_call_id": "c2", "content": '{"error": "invalid address"}'},
            {"role": "assistant", "content": "Done. Finished the first part of the list."},
        ],
        [SEND_EMAIL],
    )
    assert findings_of(path, KIND) == []


def test_anthropic_is_error_result_then_a_booking_claim_through_the_cli(tmp_path, capsys):
    document = {
        "system": "You book restaurants.",
        "tools": [
            {
                "name": "book_table",
                "input_schema": {
                    "type": "object",
                    "properties": {"restaurant": {"type": "string"}, "time": {"type": "string"}},
                },
            }
        ],
        "messages": [
            {"role": "user", "content": "Book Nopa for 7pm."},
            {
                "role": "assistant",
                "content": [
                    {"type": "text", "text": "Booking it now."},
                    {
                        "type": "tool_use",
                        "id": "toolu_1",
                        "name": "book_table",
                        "input": {"restaurant": "Nopa", "time": "19:00"},
                    },
                ],
            },
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": "toolu_1", "content": "No tables at 19:00", "is_error": True}
                ],
            },
            {
                "role": "assistant",
                "content": [{"type": "text", "text": "Your table at Nopa is booked for 7pm. Enjoy!"}],
            },
        ],
    }
    path = write_json(tmp_path / "booking.anthropic.json", document)
    assert main(["scan", "--json", str(path)]) == 1
    report = json.loads(capsys.readouterr().out)
    (finding,) = [f for f in report["sessions"][0]["findings"] if f["kind"] == KIND]
    assert (finding["turn"], finding["severity"], finding["tool"], finding["fix"]) == (3, "warning", "book_table", None)
    assert "book_table call at turn 1 failed: No tables at 19:00" in finding["message"]
    assert finding["payload"]["claim"] == "Your table at Nopa is booked for 7pm."
    assert report["summary"]["by_kind"][KIND] == 1
    assert main(["scan", str(path)]) == 1
    text = capsys.readouterr().out
    assert f"turn 3  warning  {KIND}  book_table" in text and "found:  Your table at Nopa is booked for 7pm." in text


def test_gemini_error_response_then_a_generic_claim(tmp_path):
    document = {
        "contents": [
            {"role": "user", "parts": [{"text": "Put the review on my calendar for Tuesday."}]},
            {
                "role": "model",
                "parts": [{"functionCall": {"name": "create_event", "args": {"title": "Review", "day": "Tuesday"}}}],
            },
            {
                "role": "user",
                "parts": [
                    {"functionResponse": {"name": "create_event", "response": {"error": "calendar is read-only"}}}
                ],
            },
            {"role": "model", "parts": [{"text": "All set: the review is scheduled for Tuesday."}]},
        ],
        "tools": [{"functionDeclarations": [{"name": "create_event"}]}],
    }
    (finding,) = findings_of(write_json(tmp_path / "calendar.gemini.json", document), KIND)
    assert (finding.turn, finding.tool) == (3, "create_event")
    assert finding.message.endswith("create_event call at turn 1 failed: calendar is read-only")


def test_a_failed_tool_whose_name_holds_an_admitting_word_is_still_caught(write_session):
    issue = {"type": "function", "function": {"name": "create_issue", "parameters": {"type": "object"}}}
    path = write_session(
        [
            {"role": "user", "content": "File a bug for the login crash."},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [_call("c1", "create_issue", {"title": "Login crash"})],
            },
            {"role": "tool", "tool_call_id": "c1", "content": '{"error": "403 Forbidden"}'},
            {"role": "assistant", "content": "I've created the issue for the login crash."},
        ],
        [issue],
    )
    (finding,) = findings_of(path, KIND)
    assert finding.tool == "create_issue"


def test_each_exchange_is_judged_on_its_own_calls_whatever_lies_between_its_turns(write_session):
    """Only exchanges around a result that may report an error are paired: the exchange must still
    reach back past turns that end nothing (a bare call, a blank user message) and stop at a reply."""

    def failed(call_id):
        return [
            {"role": "assistant", "content": None, "tool_calls": [_call(call_id, "send_email", {"body": "x"})]},
            {"role": "tool", "tool_call_id": call_id, "content": '{"error": "missing required argument: to"}'},
        ]

    claim = {"role": "assistant", "content": "I've emailed Priya the chart."}
    path = write_session(
        [
            {"role": "user", "content": "Email Priya the chart."},
            *failed("c1"),
            {"role": "user", "content": "  \n"},  # no text: the exchange goes on
            claim,  # turn 4: flagged
            *failed("c2"),
            {"role": "assistant", "content": " ", "tool_calls": [_call("c3", "create_chart", {"title": "Oct"})]},
            {"role": "tool", "tool_call_id": "c3", "content": '{"chart_id": "ch_1"}'},
            claim,  # turn 9: flagged, the chart's call is of the same exchange
            *failed("c4"),
            {"role": "user", "content": "Never mind."},  # ends the exchange: the next claim judges nothing
            claim,
            {"role": "assistant", "content": None, "tool_calls": [_call("c5", "send_email", {"body": "x"})]},
            {"role": "tool", "tool_call_id": "c5", "content": '{"status": "sent", "error": null}'},  # not an error
            claim,
        ],
        [SEND_EMAIL, CREATE_CHART],
    )
    assert [(f.turn, f.payload["call_turn"]) for f in findings_of(path, KIND)] == [(4, 1), (9, 5)]


def test_a_hostile_reply_after_a_failure_is_read_in_linear_time(write_session):
    reply = "we have just I had already is now " * 6_000 + "I've emailed Priya. " + "Done " * 20_000
    path = write_session(_failed_email({"role": "assistant", "content": reply}), [SEND_EMAIL, CREATE_CHART])
    start = cpu_time()
    (finding,) = findings_of(path, KIND)
    assert cpu_time() - start < 5 and finding.tool == "send_email"


@pytest.mark.slow  # drives the app with Pilot
def test_the_app_shows_the_claim_on_the_analyst_samples_turn_18(tmp_path):
    path = shutil.copy(SESSIONS / "analyst-agent.openai.json", tmp_path / "analyst-agent.openai.json")
    app = InspectorApp(path)

    async def scenario(pilot: Pilot) -> None:
        for _ in range(12):  # next flagged turn until turn 18 (the tenth flagged turn at most)
            if app.screen.query_one(TurnList).position == 18:
                break
            await pilot.press("n")
            await pilot.pause()
        shown = str(app.screen.query_one("#finding", Static).visual)
        assert app.screen.query_one(TurnList).position == 18
        assert KIND in shown and "I've emailed Priya the chart and summary." in shown
        assert "send_email call at turn 16 failed" in shown.replace("\n", " ")

    play(app, scenario, settled=True)
