"""The findings known early, from a prefix of the turns, are the full scan's findings for those turns."""

from __future__ import annotations

import pytest

from inspector.detect import detect_findings
from inspector.scan.early import early_findings
from inspector.scan.scanner import scan_file
from inspector.sources import load_sessions, session_files
from tests.helpers.samples import SESSIONS
from tests.helpers.tools import SAVE_MEMORY

SAMPLES = session_files(SESSIONS)


@pytest.mark.parametrize("path", SAMPLES, ids=[path.name for path in SAMPLES])
def test_every_prefix_of_every_sample_gives_the_full_scans_first_findings(path):
    for result in scan_file(path):
        for size in range(1, len(result.session.turns) + 1):
            early = early_findings(result.session, first=size, last=size)
            assert early == result.findings[: len(early)], f"{result.session.session_id} cut after {size} turns"


def test_the_analyst_samples_first_findings_are_known_from_a_short_prefix():
    result = scan_file(SESSIONS / "analyst-agent.openai.json")[0]
    early = early_findings(result.session, first=8)
    assert early and early == result.findings[: len(early)]


def call(call_id: str) -> dict:
    return {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": call_id,
                "type": "function",
                "function": {"name": "save_memory", "arguments": '{"memory_type": "fact", "content": "Maya"}'},
            }
        ],
    }


def test_a_call_answered_right_after_the_cut_is_not_reported(write_session):
    messages = [
        {"role": "user", "content": "remember that Maya moves in March"},
        call("never-answered"),
        {"role": "assistant", "content": "Saved."},
        {"role": "user", "content": "and that she likes tea"},
        call("answered-after-the-cut"),  # the prefix ends here
        {"role": "tool", "tool_call_id": "answered-after-the-cut", "content": '{"success": true}'},
        {"role": "assistant", "content": "Done."},
    ]
    session = load_sessions(write_session(messages, [SAVE_MEMORY]))[0]
    full = detect_findings(session)
    assert [(f.kind, f.payload["call_id"]) for f in full] == [("orphan-call", "never-answered")]

    early = early_findings(session, first=5, last=5)

    assert early == full
    naive = detect_findings(session.__class__(**{**session.__dict__, "turns": session.turns[:5]}))
    assert ("orphan-call", "answered-after-the-cut") in [(f.kind, f.payload["call_id"]) for f in naive]


def test_a_session_flagged_only_late_is_found_by_doubling_the_prefix(write_session):
    quiet = [
        {"role": "user", "content": f"hello {n}"} if n % 2 == 0 else {"role": "assistant", "content": "hi"}
        for n in range(40)
    ]
    session = load_sessions(
        write_session(quiet + [call("late"), {"role": "assistant", "content": "Saved."}], [SAVE_MEMORY])
    )[0]

    assert early_findings(session, first=4, last=64) == detect_findings(session)
    assert early_findings(session, first=4, last=16) == []
