"""Detector `result-prefix` on real OpenAI session files: what it flags, infers and proposes."""

import json

import pytest

from inspector.model import ERROR, WARNING
from tests.helpers.scanning import findings_of
from tests.helpers.tools import SAVE_MEMORY, WHITEBOARD

PREFIX = '{success: true, memory_type: "journal", content: "Lost track of the Lisbon plan"}'


def _call(call_id, name, arguments):
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": json.dumps(arguments)}}


def test_fake_save_memory_result_is_flagged_with_the_call_to_recover(write_session):
    path = write_session(
        [
            {"role": "user", "content": "Please journal that I lost track of the Lisbon plan."},
            {"role": "assistant", "content": PREFIX + "You saw right through me."},
        ],
        [SAVE_MEMORY, WHITEBOARD],
    )
    (finding,) = findings_of(path, "result-prefix")
    assert (finding.turn, finding.kind, finding.severity) == (1, "result-prefix", ERROR)
    assert finding.tool == "save_memory"
    assert finding.executed is False
    assert finding.arguments == {"memory_type": "journal", "content": "Lost track of the Lisbon plan"}
    assert finding.payload["success"] is True
    assert finding.span == (0, len(PREFIX))
    (call,) = finding.fix.add_calls
    assert (call.name, call.arguments, call.origin) == ("save_memory", finding.arguments, "recovered")
    assert finding.fix.apply_to_text(PREFIX + "You saw right through me.") == "You saw right through me."
    assert "would be lost" in finding.message


def test_chained_objects_give_one_finding_each_and_strip_to_the_prose(write_session):
    second = "{'success': true, 'memory_type': 'core', 'content': 'Prefers tea'}"
    text = f"  {PREFIX}\n{second}\n\nNoted both."
    path = write_session([{"role": "user", "content": "hi"}, {"role": "assistant", "content": text}], [SAVE_MEMORY])
    first, other = findings_of(path, "result-prefix")
    assert first.arguments["memory_type"] == "journal" and other.arguments["content"] == "Prefers tea"
    assert text[slice(*other.span)] == second
    assert first.fix.apply_to_text(text) == second + "\n\nNoted both."
    assert other.fix.add_calls[0].id != first.fix.add_calls[0].id


def test_echo_of_a_real_result_is_flagged_as_executed_and_only_stripped(write_session):
    result = {"success": True, "type": "board_updated", "board_id": "b-12", "title": "Week plan"}
    path = write_session(
        [
            {"role": "user", "content": "Update my week board"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    _call("call_1", "whiteboard", {"action": "update", "board_id": "b-12", "content": "Mon: gym"})
                ],
            },
            {"role": "tool", "tool_call_id": "call_1", "content": json.dumps(result)},
            {
                "role": "assistant",
                "content": '{success: true, type: "board_updated", board_id: "b-12", title: "Week plan"}Updated!',
            },
        ],
        [SAVE_MEMORY, WHITEBOARD],
    )
    (finding,) = findings_of(path, "result-prefix")
    assert (finding.turn, finding.tool, finding.executed, finding.severity) == (3, "whiteboard", True, WARNING)
    assert finding.fix.add_calls == ()
    assert "turn 1" in finding.message


def test_prefix_matching_a_real_call_with_the_same_arguments_counts_as_executed(write_session):
    arguments = {"memory_type": "journal", "content": "Lost track of the Lisbon plan"}
    path = write_session(
        [
            {"role": "assistant", "content": None, "tool_calls": [_call("c9", "save_memory", arguments)]},
            {"role": "tool", "tool_call_id": "c9", "content": "saved"},
            {"role": "assistant", "content": PREFIX + " Saved it."},
        ],
        [SAVE_MEMORY],
    )
    (finding,) = findings_of(path, "result-prefix")
    assert finding.executed is True and finding.fix.add_calls == ()


def test_a_real_call_with_other_content_does_not_count(write_session):
    path = write_session(
        [
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [_call("c9", "save_memory", {"memory_type": "journal", "content": "Something else"})],
            },
            {"role": "tool", "tool_call_id": "c9", "content": "saved"},
            {"role": "assistant", "content": PREFIX + " Saved it."},
        ]
    )
    (finding,) = findings_of(path, "result-prefix")
    assert finding.tool == "save_memory"
    assert finding.executed is False
    assert len(finding.fix.add_calls) == 1


@pytest.mark.parametrize("saved, executed", [("Something else", False), ("Lost track of the Lisbon plan", True)])
def test_only_calls_of_the_inferred_tool_can_have_run_it(write_session, saved, executed):
    """A whiteboard call holding the fake save's very arguments is no save; a save made in the same
    turn as it counts when its arguments agree."""
    arguments = {"memory_type": "journal", "content": "Lost track of the Lisbon plan"}
    path = write_session(
        [
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    _call("c1", "whiteboard", arguments),
                    _call("c2", "save_memory", {**arguments, "content": saved}),
                ],
            },
            {"role": "tool", "tool_call_id": "c1", "content": "done"},
            {"role": "tool", "tool_call_id": "c2", "content": "done"},
            {"role": "user", "content": "and?"},
            {"role": "assistant", "content": PREFIX + " Saved it."},
        ],
        [SAVE_MEMORY, WHITEBOARD],
    )
    (finding,) = findings_of(path, "result-prefix")
    assert (finding.tool, finding.executed) == ("save_memory", executed)


def test_no_matching_tool_strips_only_and_keeps_the_object_in_the_payload(write_session):
    path = write_session(
        [{"role": "assistant", "content": '{mood: "happy", score: 9} Glad to hear it!'}], [SAVE_MEMORY]
    )
    (finding,) = findings_of(path, "result-prefix")
    assert finding.tool is None and finding.executed is None
    assert finding.payload == {"mood": "happy", "score": 9}
    assert finding.fix.add_calls == ()
    assert finding.fix.apply_to_text('{mood: "happy", score: 9} Glad to hear it!') == "Glad to hear it!"


def test_equally_good_tools_are_not_guessed(write_session):
    tools = [
        {"name": name, "parameters": {"type": "object", "properties": {"query": {"type": "string"}}}}
        for name in ("web_search", "doc_search")
    ]
    path = write_session(
        [{"role": "assistant", "content": '{query: "weather"} Here is what I found.'}],
        [{"type": "function", "function": tool} for tool in tools],
    )
    (finding,) = findings_of(path, "result-prefix")
    assert finding.tool is None
    assert "web_search" in finding.message and "doc_search" in finding.message


def _file_tool(name, required, *optional):
    properties = {key: {"type": "string"} for key in (*required, *optional)}
    parameters = {"type": "object", "properties": properties, "required": list(required)}
    return {"type": "function", "function": {"name": name, "parameters": parameters}}


FILE_TOOLS = [
    _file_tool("Read", ["file_path"], "offset", "limit"),
    _file_tool("Write", ["file_path", "content"]),
    _file_tool("Edit", ["file_path", "old_string", "new_string"], "replace_all"),
]
MADE_UP_READ = '{"file_path": "notes.txt", "content": "Meeting moved to Thursday."}'


def test_an_object_a_read_returns_as_well_as_a_write_takes_is_stripped_and_no_write_recovered(write_session):
    """Recovered as `Write`, the made-up content would be written over the file it claims to have read."""
    text = MADE_UP_READ + "notes.txt says the meeting moved to Thursday."
    path = write_session(
        [{"role": "user", "content": "What does notes.txt say?"}, {"role": "assistant", "content": text}], FILE_TOOLS
    )
    (finding,) = findings_of(path, "result-prefix")
    assert (finding.tool, finding.arguments, finding.fix.add_calls) == (None, None, ())
    assert "it fits Write, and just as well what Read returns, with its content" in finding.message
    assert finding.fix.apply_to_text(text) == "notes.txt says the meeting moved to Thursday."


def test_keys_no_tool_returns_name_the_tool_that_takes_them_and_a_copy_of_a_real_write_is_only_stripped(
    write_session,
):
    """An `Edit`'s strings are no `Read`'s output; a copy of a `Write` call that ran is that call's."""
    edit = '{"file_path": "a.py", "old_string": "x = 1", "new_string": "x = 2"}'
    wrote = {"file_path": "notes.txt", "content": "Meeting moved to Thursday."}
    path = write_session(
        [
            {"role": "user", "content": "Fix a.py, then write the note."},
            {"role": "assistant", "content": edit + "Changed x to 2."},
            {"role": "assistant", "content": None, "tool_calls": [_call("call_1", "Write", wrote)]},
            {"role": "tool", "tool_call_id": "call_1", "content": "File written."},
            {"role": "assistant", "content": MADE_UP_READ + "Written."},
        ],
        FILE_TOOLS,
    )
    edited, copied = findings_of(path, "result-prefix")
    assert (edited.tool, edited.fix.add_calls[0].arguments["new_string"]) == ("Edit", "x = 2")
    assert (copied.tool, copied.executed, copied.fix.add_calls) == ("Write", True, ())


def test_tool_with_most_shared_parameters_wins():
    """Anthropic-style refund echo: issue_refund shares two keys, lookup_order only one."""
    from inspector.catalogue import Catalogue
    from inspector.detect.context import ScanContext
    from inspector.detect.tool_inference import infer_tool
    from inspector.model import Session, ToolSpec

    catalogue = Catalogue(
        [
            ToolSpec("lookup_order", {"properties": {"order_id": {}}, "required": ["order_id"]}),
            ToolSpec(
                "issue_refund", {"properties": {"order_id": {}, "amount": {}, "reason": {}}, "required": ["order_id"]}
            ),
        ]
    )
    context = ScanContext(Session("openai", None, ()), catalogue)
    inference = infer_tool(context, {"status": "refunded", "order_id": "A-1042", "amount": 25.0}, 3)
    assert inference.tool == "issue_refund"
    assert inference.arguments == {"order_id": "A-1042", "amount": 25.0}


def test_texts_that_must_stay_clean(write_session):
    path = write_session(
        [
            {"role": "system", "content": "{success: true} system prompts are not replies"},
            {"role": "user", "content": '{memory_type: "journal", content: "x"} please save this'},
            {"role": "assistant", "content": '{"memory_type": "journal", "content": "only an object"}'},
            {"role": "assistant", "content": '{"a": 1}\n{"b": 2}\n'},
            {"role": "assistant", "content": 'Here is the config: {"memory_type": "journal"}'},
            {"role": "assistant", "content": "{1, 2, 3} is a set in Python."},
            {"role": "assistant", "content": "{name} is a placeholder you fill in."},
            {"role": "assistant", "content": "{never closed, and then prose"},
            {"role": "tool", "tool_call_id": "x", "content": "{success: true} tool output"},
            {"role": "assistant", "content": [{"type": "text", "text": "Plain reply"}]},
        ],
        [SAVE_MEMORY],
    )
    assert findings_of(path, "result-prefix") == []


def test_list_of_parts_content_is_read_as_one_text(write_session):
    path = write_session(
        [
            {
                "role": "assistant",
                "content": [{"type": "text", "text": PREFIX}, {"type": "text", "text": "You saw right through me."}],
            }
        ],
        [SAVE_MEMORY],
    )
    (finding,) = findings_of(path, "result-prefix")
    assert finding.tool == "save_memory" and finding.executed is False
