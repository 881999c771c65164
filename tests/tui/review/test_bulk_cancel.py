"""Deciding on a kind in every conversation of a large history (`S` or `A`, then "every
conversation") shows how far it got and Escape cancels it part-way: the conversations read by
then are decided, each whole, the others not at all, and `u` undoes what was done."""

from __future__ import annotations

import threading
from collections import Counter
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

import inspector.tui.review.decisions
from inspector.review.review_file import SKIPPED
from inspector.tui.app import InspectorApp
from tests.helpers.app import decided, play_noting, reviewed
from tests.helpers.pilot import settle, until
from tests.helpers.rubyllm import board, build_rubyllm

pytestmark = pytest.mark.slow  # drives the app with Pilot

CONVERSATIONS = 3000
CANCELLED_AT = 700  # the worker is held after reading this many, until Escape is pressed


def errors_in(number: int) -> int:
    """How many whiteboard calls of conversation `number` (counted from 1) fail: 1 or 2."""
    return 2 if number % 3 == 0 else 1


def history(path: Path) -> Path:
    """A RubyLLM history of CONVERSATIONS conversations, each with tool errors to acknowledge."""
    chats = []
    for number in range(1, CONVERSATIONS + 1):
        calls = [call for n in range(errors_in(number)) for call in board(f"call-{number}-{n}")]
        chats.append([("user", f"What is on board {number}?", None), *calls, ("assistant", "Not found.", None)])
    return build_rubyllm(path, chats)


class HeldScan:
    """The real scan of the history, held after CANCELLED_AT conversations until `resume`, so
    that Escape reaches the worker part-way whatever the machine's speed."""

    def __init__(self) -> None:
        self.reached = threading.Event()
        self.resume = threading.Event()
        self.real = inspector.tui.review.decisions.iter_scan

    def __call__(self, source, extra_tools=()):
        for number, result in enumerate(self.real(source, extra_tools), start=1):
            if number == CANCELLED_AT + 1:
                self.reached.set()
                self.resume.wait(timeout=20)
            yield result


def test_escape_cancels_acknowledging_every_conversation_keeping_whole_conversations(tmp_path: Path, monkeypatch):
    database = history(tmp_path / "app.db")
    held = HeldScan()
    monkeypatch.setattr(inspector.tui.review.decisions, "iter_scan", held)
    seen: dict[str, object] = {}

    async def cancel(pilot: Pilot) -> None:
        screen = await reviewed(pilot)
        await pilot.press("S", "a")
        await until(pilot, held.reached.is_set, "the step to reach the conversation it is held at")
        label = screen.query_one("#bulk-label", Static)
        progress = (
            f"Acknowledge every pending tool-error finding: {CANCELLED_AT:,} of {CONVERSATIONS:,} "
            "conversations read (Esc cancels)"
        )
        await until(pilot, lambda: str(label.visual) == progress, f"the progress to read {progress!r}")
        assert screen.query_one("#bulk").display
        await pilot.press("a")  # no other decision while it runs
        await pilot.pause()
        assert list(pilot.app._notifications)[-1].message == (
            "Reading every conversation to decide on them: wait for it to finish, or cancel it with Esc"
        )
        await pilot.press("escape")
        held.resume.set()
        await settle(pilot)
        assert pilot.app.screen is screen  # Escape cancelled, and did not leave the review
        assert not screen.query_one("#bulk").display
        seen["decided"] = decided(database)
        await pilot.press("u")
        await pilot.pause()
        seen["undone"] = decided(database)

    notes = play_noting(InspectorApp(database, session="1"), cancel)
    by_conversation = Counter(conversation for conversation, _ in seen["decided"])
    assert sorted(by_conversation, key=int) == [str(n) for n in range(1, CANCELLED_AT + 1)]
    assert all(count == errors_in(int(conversation)) for conversation, count in by_conversation.items())
    assert set(seen["decided"].values()) == {SKIPPED}
    findings = sum(by_conversation.values())
    assert notes[-3:] == [
        f"Cancelled after reading {CANCELLED_AT} of {CONVERSATIONS:,} conversations: only their findings (and this "
        "one's) are decided",
        f"Acknowledged {findings} tool-error findings in {CANCELLED_AT} conversations (u undoes them all)",
        f"Undid skip all {findings} pending tool-error in {CANCELLED_AT} conversations",
    ]
    assert seen["undone"] == {}
