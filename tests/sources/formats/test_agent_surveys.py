"""`scan --unknowns` on Amp threads, mini-swe-agent trajectories and OpenHands conversations: a
record of a kind the reader does not know, planted in each real-shaped sample, is listed under the
version the file names; the samples as committed hold none."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from inspector.cli.main import main
from tests.helpers.samples import TOOL_SAMPLES


def unknowns(capsys: pytest.CaptureFixture[str], path: Path) -> tuple[int, list[tuple]]:
    code = main(["scan", "--unknowns", "--json", str(path)])
    listed = json.loads(capsys.readouterr().out)["unknowns"]
    return code, [(u["format"], u["version"], u["record_type"], u["count"]) for u in listed]


def test_the_committed_samples_hold_nothing_unknown(capsys):
    for path in (
        TOOL_SAMPLES / "amp.thread.json",
        TOOL_SAMPLES / "mini-swe-agent.traj.json",
        TOOL_SAMPLES / "openhands-conversation" / "base_state.json",
    ):
        assert unknowns(capsys, path) == (0, []), path


def test_an_amp_role_or_block_of_a_new_release_is_listed(tmp_path: Path, capsys):
    thread = json.loads((TOOL_SAMPLES / "amp.thread.json").read_text(encoding="utf-8"))
    thread["messages"].append({"role": "narrator", "content": []})
    thread["messages"][0]["content"].append({"type": "diagram"})
    path = tmp_path / "T-thread.json"
    path.write_text(json.dumps(thread), encoding="utf-8")
    assert unknowns(capsys, path) == (
        1,
        [("amp", "thread v10", "user block/diagram", 1), ("amp", "thread v10", "message/narrator", 1)],
    )


def test_a_mini_swe_agent_role_is_listed_under_mini_s_version(tmp_path: Path, capsys):
    trajectory = json.loads((TOOL_SAMPLES / "mini-swe-agent.traj.json").read_text(encoding="utf-8"))
    trajectory["messages"].insert(1, {"role": "observer", "content": "x"})
    path = tmp_path / "run.traj.json"
    path.write_text(json.dumps(trajectory), encoding="utf-8")
    assert unknowns(capsys, path) == (1, [("mini-swe-agent", "2.4.6", "message/observer", 1)])


def test_an_openhands_event_kind_is_listed(tmp_path: Path, capsys):
    folder = Path(shutil.copytree(TOOL_SAMPLES / "openhands-conversation", tmp_path / "conversation"))
    last = sorted((folder / "events").iterdir())[-1]
    event = json.loads(last.read_text(encoding="utf-8"))
    event["kind"] = "BrowserSnapshotEvent"
    last.write_text(json.dumps(event), encoding="utf-8")
    assert unknowns(capsys, folder / "base_state.json") == (1, [("openhands", None, "BrowserSnapshotEvent", 1)])
