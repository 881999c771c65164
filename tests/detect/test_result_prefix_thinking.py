"""A reply that opens with an object inside thinking begun in the prompt: the chat
template put `<think>` in the prompt, so the reply's text starts in the thinking and a `</think>`
with no opening tag ends it. An object there is the model thinking, not a fake result shown to the
user: `result-prefix` strips and recovers nothing; when the reply makes no call, it gets an info
note with no fix, as `tool-markup` notes a call drafted in thinking."""

import json

from inspector.cli.main import main
from inspector.model import ERROR, INFO
from inspector.scan.scanner import scan_file
from tests.helpers.timing import cpu_time
from tests.helpers.tools import SAVE_MEMORY

ASKED = "Please journal that I finally finished the Lisbon itinerary."
OBJECT = '{"success": true, "memory_type": "journal", "content": "Finished the Lisbon itinerary"}'
THOUGHT = (
    f"{OBJECT}\nThat is what saving it would return. The user wants this journaled, so I should "
    "call save_memory with memory_type journal.\n</think>\n\n"
)
ANSWER = "Congratulations on finishing the Lisbon itinerary! I'll note it in your journal."


def findings(write_session, reply, tool_calls=None):
    message = {"role": "assistant", "content": reply}
    messages = [{"role": "user", "content": ASKED}, message]
    if tool_calls:
        message["tool_calls"] = tool_calls
        messages.append({"role": "tool", "tool_call_id": tool_calls[0]["id"], "content": '{"success": true}'})
    path = write_session(messages, [SAVE_MEMORY])
    (result,) = scan_file(path)
    return path, [finding for finding in result.findings if finding.kind == "result-prefix"]


def test_an_object_in_thinking_begun_in_the_prompt_is_only_noted(write_session, tmp_path):
    reply = THOUGHT + ANSWER
    path, found = findings(write_session, reply)
    (note,) = found
    assert (note.severity, note.fix, note.tool) == (INFO, None, "save_memory")
    assert reply[slice(*note.span)] == OBJECT
    assert "thinking" in note.message and "nothing is stripped or recovered" in note.message
    out = tmp_path / "fixed.json"
    assert main(["fix", str(path), "--accept", "all", "-o", str(out)]) == 1  # a finding, but no fix to apply
    assert json.loads(out.read_text())["messages"][1]["content"] == reply


def test_an_object_in_thinking_of_a_reply_that_makes_its_call_is_silent(write_session):
    call = {
        "id": "call_1",
        "type": "function",
        "function": {
            "name": "save_memory",
            "arguments": '{"memory_type": "journal", "content": "Finished the Lisbon itinerary"}',
        },
    }
    _, found = findings(write_session, THOUGHT + "Saving it now.", [call])
    assert found == []


def test_a_fake_result_before_a_thinking_block_of_its_own_is_still_reported(write_session):
    reply = f"{OBJECT}\nSaved to your journal. <think>The user may want a reminder too.</think> Anything else?"
    _, found = findings(write_session, reply)
    (finding,) = found
    assert (finding.severity, finding.tool) == (ERROR, "save_memory") and finding.fix.add_calls


def test_a_closing_tag_in_inline_code_ends_no_thinking(write_session):
    reply = f"{OBJECT}\nSaved. Your notes app shows the `</think>` tag literally, by the way."
    _, found = findings(write_session, reply)
    (finding,) = found
    assert finding.severity == ERROR and finding.fix.add_calls


def test_hostile_objects_and_closing_tags_are_read_in_linear_time(write_session):
    reply = '{"a": 1} ' * 50_000 + "</think>" * 50_000 + " done"
    started = cpu_time()
    _, found = findings(write_session, reply)
    assert cpu_time() - started < 5
    assert all(finding.severity == INFO for finding in found)
