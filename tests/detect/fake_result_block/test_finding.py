"""Detector `fake-result-block` on real session files: a result invented after a leaked Hermes call
is an error beside the call, one alone has no fix; both reports carry the kind, and the first
findings of a long session match the full scan's."""

from __future__ import annotations

import json

from inspector.cli.main import main
from inspector.detect import detect_findings
from inspector.model import ERROR
from inspector.scan.early import early_findings
from inspector.scan.scanner import scan_file
from inspector.sources import load_sessions
from tests.helpers.fake_result_block import ENDING_REPLY, HERMES_REPLY, KIND, WEATHER, kinds_at
from tests.helpers.scanning import findings_of


def test_a_result_after_a_leaked_hermes_call_is_an_error_beside_the_call(weather_session):
    (result,) = scan_file(weather_session)
    assert kinds_at(result.findings, 1) == ["fake-result-block", "tool-markup"]
    first, second = [f for f in result.findings if f.kind == KIND]
    assert (first.turn, first.severity, first.tool, first.executed) == (1, ERROR, "get_weather", None)
    assert HERMES_REPLY[slice(*first.span)].startswith("<tool_response>")
    assert HERMES_REPLY[slice(*first.span)].endswith("</tool_response>")
    assert "invented output" in first.message and first.payload["family"] == "tool_response"
    assert first.fix.apply_to_text(HERMES_REPLY) == HERMES_REPLY.replace(
        HERMES_REPLY[first.span[0] : first.span[1] + 1], ""
    )
    assert second.fix.apply_to_text(ENDING_REPLY).endswith("</tool_call>")  # the white space before it goes too


def test_a_reply_that_is_only_a_fake_result_has_no_fix(write_session):
    path = write_session(
        [
            {"role": "user", "content": "Weather?"},
            {"role": "assistant", "content": '<tool_response>\n{"temperature": 21}\n</tool_response>'},
        ],
        [WEATHER],
    )
    (fake,) = findings_of(path, KIND)
    assert fake.fix is None and "edit the turn by hand" in fake.message.lower()


def test_json_and_text_reports_carry_the_kind(weather_session, capsys):
    assert main(["scan", "--json", str(weather_session)]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["summary"]["by_kind"] == {"tool-markup": 2, KIND: 2}
    finding = next(f for f in report["sessions"][0]["findings"] if f["kind"] == KIND)
    assert finding["severity"] == "error" and finding["fix"]["content"].endswith("It is 21 °C and sunny in Oslo.")
    assert report["rates"]["total"]["kinds"][KIND] == {"count": 2, "per_100_calls": 100.0}  # 2 recovered calls
    assert main(["scan", str(weather_session)]) == 1
    text = capsys.readouterr().out
    assert "error    fake-result-block  get_weather" in text and "fake-result-block 2" in text


def test_early_findings_match_the_full_scan_on_every_prefix(write_session):
    session = load_sessions(
        write_session(
            [
                {"role": "user", "content": "Weather?"},
                {"role": "assistant", "content": HERMES_REPLY},
                {"role": "user", "content": "Bergen?"},
                {"role": "assistant", "content": ENDING_REPLY},
                {"role": "user", "content": "thanks"},
                {"role": "assistant", "content": "You're welcome."},
            ],
            [WEATHER],
        )
    )[0]
    full = detect_findings(session)
    assert KIND in {f.kind for f in full}
    for size in range(1, len(session.turns) + 1):
        early = early_findings(session, first=size, last=size)
        assert early == full[: len(early)]
