"""Detector `claimed-execution` on real session files: claims of tool runs that never happened,
and the intents, questions and explanations that must stay clean."""

import json

import pytest

from inspector.model import WARNING
from tests.helpers.scanning import findings_of

RUN_CODE = {
    "type": "function",
    "function": {
        "name": "run_code",
        "parameters": {"type": "object", "properties": {"code": {"type": "string"}}, "required": ["code"]},
    },
}
READ_FILE = {
    "type": "function",
    "function": {
        "name": "read_file",
        "parameters": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
    },
}
TOOLS = [RUN_CODE, READ_FILE]


def _reply(text):
    return [{"role": "user", "content": "Print hello and check it works."}, {"role": "assistant", "content": text}]


def _real_call(name, arguments, output):
    call = {"id": "call_1", "type": "function", "function": {"name": name, "arguments": json.dumps(arguments)}}
    return [
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "call_1", "content": output},
    ]


def test_seed_004_replies_after_a_call_that_never_ran(write_session):
    markup = (
        "I'll write a Python script that prints hello and run it.\n\n```json\n"
        '{"tool": "run_code", "arguments": {"code": "print(\'hello\')"}}}}\n```'
    )
    used = (
        "The previous output shows the code I prepared. The `run_code` tool was used to execute "
        "`print('hello')`, so the expected output is `hello`. I need the output from run_code to confirm."
    )
    executed = "The Python script has executed successfully and printed hello.\n\nOutput:\n```\nhello\n```"
    path = write_session(
        [
            {"role": "user", "content": "Print hello"},
            {"role": "assistant", "content": markup},
            {"role": "user", "content": "Continue working on the problem. Turn 2 of 3."},
            {"role": "assistant", "content": used},
            {"role": "user", "content": "Continue working on the problem. Turn 3 of 3."},
            {"role": "assistant", "content": executed},
        ],
        TOOLS,
    )
    first, second = findings_of(path, "claimed-execution")
    assert (first.turn, first.severity, first.tool, first.executed, first.fix) == (3, WARNING, "run_code", False, None)
    assert used[slice(*first.span)].startswith("The `run_code` tool was used")
    assert "no run_code call was made" in first.message
    assert (second.turn, second.tool) == (5, None)
    assert second.payload == {"claim": "The Python script has executed successfully and printed hello."}
    assert "no tool was called" in second.message


@pytest.mark.parametrize(
    "text",
    [
        "I ran the tests and they pass.",
        "Done! I've run the script and it printed hello.",
        "The code was executed and everything works.",
        "It executed successfully without errors.",
        "The search returned 3 results, the first from the Python docs.",
        "I used the `run_code` tool to check it.",
        "All good: the tests were executed in CI mode.",
        "The Code Was executed and everything works.",
        "Café menu updated: the Script was executed and the prices are in.",
    ],
)
def test_claims_without_any_call_are_flagged(write_session, text):
    (finding,) = findings_of(write_session(_reply(text), TOOLS), "claimed-execution")
    assert finding.turn == 1 and finding.severity == WARNING


def test_the_claimed_tool_is_named_from_the_catalogue_or_backticks(write_session):
    path = write_session(_reply("I ran read_file on hello.py: it holds one print call."), TOOLS)
    assert findings_of(path, "claimed-execution")[0].tool == "read_file"
    path = write_session(_reply("The `sandbox_exec` tool was used and the script printed hello."), TOOLS, "other.json")
    assert findings_of(path, "claimed-execution")[0].tool == "sandbox_exec"


def test_a_named_tool_needs_a_call_of_that_tool(write_session):
    messages = _reply("Let me look.") + _real_call("read_file", {"path": "hello.py"}, "print('hello')")
    ran_other = messages + [{"role": "assistant", "content": "The `run_code` tool was used and it printed hello."}]
    (finding,) = findings_of(write_session(ran_other, TOOLS), "claimed-execution")
    assert (finding.turn, finding.tool) == (4, "run_code")
    unnamed = messages + [{"role": "assistant", "content": "I ran the script and it printed hello."}]
    assert findings_of(write_session(unnamed, TOOLS, "unnamed.json"), "claimed-execution") == []


def test_claims_after_a_real_call_of_the_tool_stay_clean(write_session):
    messages = (
        _reply("Running it.")
        + _real_call("run_code", {"code": "print('hello')"}, "hello")
        + [
            {
                "role": "assistant",
                "content": "The `run_code` tool was used and the script executed successfully. It printed hello.",
            }
        ]
    )
    assert findings_of(write_session(messages, TOOLS), "claimed-execution") == []


def test_only_the_first_unsupported_claim_of_a_reply_is_reported(write_session):
    text = "I ran the tests. The script printed hello. The search returned nothing."
    (finding,) = findings_of(write_session(_reply(text), TOOLS), "claimed-execution")
    assert text[slice(*finding.span)] == "I ran the tests."


@pytest.mark.parametrize(
    "text",
    [
        "I will run it now.",
        "Let me run the tests before I answer.",
        "I'm going to call the run_code tool.",
        "Shall I run it? Did the script run successfully?",
        "Once I have run the tests I'll report back.",
        "If the script executed successfully, it would have printed hello.",
        "The script should have executed successfully, but I cannot run code here.",
        "No tool was used for this answer.",
        "I haven't run the code yet, and the script was not executed.",
        "When you ran it, your script printed an error because of the typo.",
        "The script you sent printed hello because of line 3.",
        "This function returns None when the list is empty.",
        "I ran into a problem with the import; here is a fix.",
        "I used a dictionary so lookups are fast.",
        "The binary search returned the index of the match.",
        "Example:\n```python\n# the script executed successfully\nprint('I ran the tests')\n```",
        "> I ran the tests and they pass\n\nThat quote is from your earlier message.",
        "Here is the code that prints hello: print('hello').",
    ],
)
def test_texts_that_must_stay_clean(write_session, text):
    assert findings_of(write_session(_reply(text), TOOLS), "claimed-execution") == []


def test_user_and_tool_turns_are_never_claims(write_session):
    path = write_session(
        [
            {"role": "user", "content": "I ran the tests and they pass."},
            {"role": "tool", "tool_call_id": "x", "content": "The script executed successfully."},
            {"role": "assistant", "content": "Great, thanks for checking."},
        ],
        TOOLS,
    )
    assert findings_of(path, "claimed-execution") == []


def test_after_a_call_a_plain_catalogue_name_is_still_checked(write_session):
    tools = [
        {"type": "function", "function": {"name": name, "parameters": {"type": "object"}}}
        for name in ("bash", "search")
    ]
    messages = _reply("Looking.") + _real_call("search", {"q": "pytest flags"}, "3 results")
    named = messages + [{"role": "assistant", "content": "I ran the tests with bash and they pass."}]
    (finding,) = findings_of(write_session(named, tools), "claimed-execution")
    assert (finding.turn, finding.tool) == (4, "bash")
    unnamed = messages + [{"role": "assistant", "content": "I ran the tests and they pass."}]
    assert findings_of(write_session(unnamed, tools, "unnamed.json"), "claimed-execution") == []


def test_an_unnamed_claim_needs_a_call_in_its_own_phase(write_session):
    planning = [
        {"role": "system", "content": "Phase plan: save the plan with set_state."},
        {"role": "user", "content": "Print hello"},
    ] + _real_call("set_state", {"plan": "run it"}, "State updated")
    solving = [
        {"role": "system", "content": "Phase solve: run the code."},
        {"role": "user", "content": "Continue."},
        {"role": "assistant", "content": "The Python script has executed successfully and printed hello."},
    ]
    (finding,) = findings_of(write_session(planning + solving, TOOLS), "claimed-execution")
    assert (finding.turn, finding.tool) == (6, None)
    assert findings_of(write_session(planning + solving[1:], TOOLS, "one-phase.json"), "claimed-execution") == []


def _both_tools_ran():
    """Every catalogue tool called and answered, each with its own id."""
    calls = [
        {"id": f"call_{name}", "type": "function", "function": {"name": name, "arguments": "{}"}}
        for name in ("read_file", "run_code")
    ]
    return (
        _reply("Let me look.")
        + [{"role": "assistant", "content": None, "tool_calls": calls}]
        + [{"role": "tool", "tool_call_id": call["id"], "content": "ok"} for call in calls]
    )


@pytest.mark.parametrize(
    "claim, tool",
    [
        ("The `shell` tool was used and it printed hello.", "shell"),  # a backtick, no underscore
        ("I used the sandbox_exec tool and it printed hello.", "sandbox_exec"),  # an underscore, no backtick
        ("The run_code tool was used and it printed hello.", None),  # a catalogue tool that ran
        ("I ran the script and it printed hello.", None),
    ],
)
def test_after_every_catalogue_tool_ran_a_name_outside_it_is_still_checked(write_session, claim, tool):
    findings = findings_of(
        write_session(_both_tools_ran() + [{"role": "assistant", "content": claim}], TOOLS), "claimed-execution"
    )
    assert [finding.tool for finding in findings] == ([tool] if tool else [])


def test_a_system_message_opens_a_phase_where_every_claim_is_checked_again(write_session):
    solving = [
        {"role": "system", "content": "Phase solve: run the code."},
        {"role": "user", "content": "Continue."},
        {"role": "assistant", "content": "The Python script has executed successfully and printed hello."},
    ]
    (finding,) = findings_of(write_session(_both_tools_ran() + solving, TOOLS), "claimed-execution")
    assert (finding.turn, finding.tool) == (7, None)
