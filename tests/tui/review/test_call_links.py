"""Links between calls and results (`inspector.tui.review.call_links`), on the bundled samples and
on sessions written for the purpose."""

from __future__ import annotations

from inspector.model import Session, ToolCall, ToolResult, Turn
from inspector.sources import load_sessions
from inspector.tui.review.call_links import call_links
from tests.helpers.samples import SESSIONS
from tests.helpers.timing import cpu_time


def call(name: str, call_id: str | None = None) -> ToolCall:
    return ToolCall(call_id, name, "{}", {})


def result(name: str | None, call_id: str | None = None) -> ToolResult:
    return ToolResult(call_id, name, "ok")


def session(*turns: Turn) -> Session:
    return Session("openai", None, turns)


def test_results_by_id_on_an_openai_sample():
    links = call_links(load_sessions(SESSIONS / "analyst-agent.openai.json")[0])
    assert links.results_of[2] == [3] and links.calls_of[3] == [2]
    assert links.other_end(2) == [3] and links.other_end(3) == [2] and links.other_end(1) == []


def test_results_by_name_on_a_gemini_sample_without_ids():
    links = call_links(load_sessions(SESSIONS / "travel-agent.gemini.json")[0])
    assert (links.results_of, links.calls_of) == ({1: [2], 5: [6]}, {2: [1], 6: [5]})


def test_parallel_calls_unanswered_calls_and_results_answering_nothing():
    links = call_links(
        session(
            Turn(0, "assistant", "", tool_calls=(call("read", "a"), call("read", "b"), call("grep", "c"))),
            Turn(1, "tool", "", tool_results=(result("read", "b"),)),
            Turn(2, "tool", "", tool_results=(result("read", "a"),)),
            Turn(3, "tool", "", tool_results=(result("read", "zz"),)),  # an id no call has
            Turn(4, "assistant", "", tool_calls=(call("save"), call("save"))),
            Turn(5, "tool", "", tool_results=(result("save"),)),  # by name: the first save
            Turn(6, "tool", "", tool_results=(result("lookup"),)),
        )
    )
    assert links.results_of == {0: [1, 2], 4: [5]} and links.calls_of == {1: [0], 2: [0], 5: [4]}
    assert links.unanswered == {0: ["grep"], 4: ["save"]} and links.unmatched == {3, 6}


def test_a_long_session_is_linked_in_one_pass():
    turns = []
    for n in range(50_000):
        turns += [
            Turn(2 * n, "assistant", "", tool_calls=(call("step", f"id{n}"), call("step"))),
            Turn(2 * n + 1, "tool", "", tool_results=(result("step", f"id{n}"), result("step"))),
        ]
    started = cpu_time()
    links = call_links(session(*turns))
    assert cpu_time() - started < 2.0
    assert links.results_of[99_998] == [99_999] and not links.unanswered and not links.unmatched
