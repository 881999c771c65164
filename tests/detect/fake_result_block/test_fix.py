"""The fix of `fake-result-block` strips the invented result, alone or together with `tool-markup`'s,
which recovers the call: through `inspector fix`, the review's export and the app."""

from __future__ import annotations

import json

import pytest
from textual.notifications import Notify
from textual.widgets import Input, Static

from inspector.cli.main import main
from inspector.model import NOT_EXECUTED
from inspector.review.review import Review
from inspector.scan.scanner import scan_file
from inspector.sources import open_source
from inspector.tui.app import InspectorApp
from inspector.tui.dialogs.export import ExportDialog
from tests.helpers.app import loaded, play_loaded
from tests.helpers.fake_result_block import ENDING_REPLY, HERMES_REPLY, KIND


def test_fix_accept_all_strips_both_and_recovers_the_call(weather_session, tmp_path, capsys):
    out = tmp_path / "fixed.json"
    assert main(["fix", str(weather_session), "--accept", "all", "-o", str(out)]) == 0
    messages = json.loads(out.read_text())["messages"]
    assert [m["role"] for m in messages] == [
        "user",
        "assistant",
        "tool",
        "assistant",
        "user",
        "assistant",
        "tool",
        "assistant",
    ]
    assert messages[1]["tool_calls"][0]["function"] == {"name": "get_weather", "arguments": '{"city": "Oslo"}'}
    assert messages[2]["content"] == NOT_EXECUTED
    assert messages[3]["content"] == "Let me check the weather.\nIt is 21 °C and sunny in Oslo."
    assert messages[7]["content"] == "Checking Bergen too."  # no line left where the two blocks were
    (rescanned,) = scan_file(out)
    assert rescanned.findings == []
    audit = [json.loads(line) for line in (tmp_path / "fixed.json.audit.ndjson").read_text().splitlines()]
    assert sorted(entry["kind"] for entry in audit) == [KIND, KIND, "tool-markup", "tool-markup"]


def test_fix_accept_only_fake_result_block_keeps_the_call_markup(weather_session, tmp_path, capsys):
    out = tmp_path / "fixed.json"
    assert main(["fix", str(weather_session), "--accept", KIND, "-o", str(out)]) == 1
    messages = json.loads(out.read_text())["messages"]
    assert len(messages) == 4
    assert messages[1]["content"] == HERMES_REPLY.split("<tool_response>")[0] + "It is 21 °C and sunny in Oslo."
    assert messages[3]["content"] == ENDING_REPLY.split("\n<tool_response>")[0]
    assert [f.kind for r in scan_file(out) for f in r.findings] == ["tool-markup", "tool-markup"]


def test_approving_both_in_the_review_and_exporting_gives_the_same_text(weather_session, tmp_path):
    review = Review.open(open_source(weather_session), scan_file(weather_session))
    for index, finding in enumerate(review.findings(0)):
        review.approve(0, index)
    out = tmp_path / "exported.json"
    review.export(out)
    messages = json.loads(out.read_text())["messages"]
    assert messages[3]["content"] == "Let me check the weather.\nIt is 21 °C and sunny in Oslo."
    assert messages[7]["content"] == "Checking Bergen too."
    assert messages[1]["tool_calls"][0]["function"]["name"] == "get_weather"


@pytest.mark.slow  # drives the app with Pilot
def test_the_app_shows_both_kinds_and_exports_the_approved_pair(weather_session, tmp_path):
    """Through the real app: the fake result and the leaked call on one turn, approved in turn and
    exported, give the prose alone with the recovered call; a narrated action shows, with no fix."""
    document = json.loads(weather_session.read_text())
    document["messages"] += [
        {"role": "user", "content": "And Tromsø?"},
        {"role": "assistant", "content": "Let me check the weather in Tromsø now."},
    ]
    weather_session.write_text(json.dumps(document), encoding="utf-8")
    out = tmp_path / "exported.json"
    notes, shown = [], []

    def hook(message) -> None:
        if isinstance(message, Notify):
            notes.append(message.notification.message)

    async def scenario(pilot) -> None:
        finding = pilot.app.screen.query_one("#finding", Static)
        shown.append(str(finding.visual))
        await pilot.press("a")  # tool-markup, then the fake result of the same turn
        await pilot.pause()
        shown.append(str(finding.visual))
        await pilot.press("a", "a", "a")  # and the two of turn 3: the narration is shown next
        await pilot.pause()
        shown.append(str(finding.visual))
        await pilot.press("x")
        await pilot.pause()
        assert isinstance(pilot.app.screen, ExportDialog)
        pilot.app.screen.query_one("#path", Input).value = str(out)
        await pilot.press("enter")
        await loaded(pilot)

    play_loaded(InspectorApp(weather_session), scenario, message_hook=hook)
    assert "tool-markup" in shown[0] and "fake-result-block" in shown[1] and "narrated-action" in shown[2]
    assert "turn 5" in shown[2] and "fix:" not in shown[2]
    assert notes[-1].startswith(f"Wrote {out}") and "4 fixes applied" in notes[-1]
    messages = json.loads(out.read_text())["messages"]
    assert messages[3]["content"] == "Let me check the weather.\nIt is 21 °C and sunny in Oslo."
    assert messages[7]["content"] == "Checking Bergen too." and messages[9]["content"].startswith("Let me check")
