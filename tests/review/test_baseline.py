"""A finding skipped in a review stays acknowledged after the export: the export writes a baseline
beside its output naming the skipped findings, and `inspector scan` reads it (beside the session,
or `--baseline FILE`; `--no-baseline` reads none), leaving them out of its count and exit code and
saying so in one line."""

import json
import shutil
from pathlib import Path

from inspector.cli.main import main
from inspector.review.review import Review
from inspector.scan.scanner import scan_file
from inspector.sources import open_source
from tests.helpers.rubyllm import build_rubyllm
from tests.helpers.samples import SESSIONS
from tests.sources.formats.test_opencode_storage_write import copied


def _review(path):
    return Review.open(open_source(path), scan_file(path))


def test_a_finding_skipped_then_exported_is_left_out_of_the_scan_of_the_output(tmp_path, capsys):
    path = shutil.copy(SESSIONS / "memory-agent.openai.json", tmp_path / "memory.json")
    review = _review(path)
    findings = review.findings(0)
    review.skip(0, 2)
    for index in range(len(findings)):
        if index != 2:
            review.approve(0, index)
    out = tmp_path / "memory.fixed.json"
    outcome = review.export(out)
    assert outcome.applied == len(findings) - 1
    assert outcome.baseline == tmp_path / "memory.fixed.json.baseline.ndjson"
    (entry,) = json.loads(outcome.baseline.read_text())["acknowledged"]
    assert entry["kind"] == findings[2].kind and entry["session"] == 0

    assert main(["scan", str(out)]) == 0
    printed = capsys.readouterr()
    assert "0 findings" in printed.out
    assert printed.err == (
        f"inspector: 1 acknowledged finding left out (not counted, as the baseline {outcome.baseline} says; "
        "--no-baseline counts it)\n"
    )
    assert main(["scan", str(out), "--no-baseline"]) == 1
    assert "1 finding" in capsys.readouterr().out
    folder = tmp_path / "exported"  # a folder: each session file with its own baseline, not read as a session
    folder.mkdir()
    for written in (out, outcome.baseline):
        shutil.copy(written, folder / written.name)
    assert main(["scan", str(folder)]) == 0
    moved = tmp_path / "elsewhere.json"
    outcome.baseline.rename(moved)
    assert main(["scan", str(out)]) == 1
    capsys.readouterr()
    assert main(["scan", str(out), "--baseline", str(moved), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["summary"]["findings"] == 0


def test_an_opencode_storage_exported_over_itself_keeps_its_baseline_beside_the_storage(tmp_path, capsys):
    storage, session_file = copied(tmp_path)  # OpenCode takes every file of a session folder for a session
    review = _review(session_file)
    review.skip(0, 0)
    outcome = review.export(overwrite_input=True)
    assert outcome.baseline == tmp_path / f"storage.{session_file.name}.baseline.ndjson"
    assert [path.name for path in session_file.parent.iterdir()] == [session_file.name]
    assert not [path for path in storage.rglob("*") if ".baseline." in path.name]
    assert main(["scan", str(session_file), "--json"]) in (0, 1)
    printed = capsys.readouterr()
    assert "1 acknowledged finding left out" in printed.err
    assert main(["scan", str(session_file), "--json", "--no-baseline"]) == 1
    assert (
        json.loads(capsys.readouterr().out)["summary"]["findings"] == json.loads(printed.out)["summary"]["findings"] + 1
    )


def test_a_database_exported_with_a_conversation_skipped_keeps_it_acknowledged_by_its_id(tmp_path, capsys):
    source = build_rubyllm(tmp_path / "app.db")  # conversations 1, 2 and 3 have one finding each
    review = _review(source)
    review.skip(1, 0)
    review.approve(0, 0)
    review.approve(2, 0)
    out = tmp_path / "app.fixed.db"
    assert review.export(out).applied == 2
    assert main(["scan", str(out)]) == 0
    assert "1 acknowledged finding left out" in capsys.readouterr().err
    assert main(["scan", str(out), "--session", "2"]) == 0
    assert main(["scan", str(out), "--no-baseline", "--session", "2"]) == 1


def test_an_export_with_nothing_skipped_leaves_no_baseline_and_removes_an_old_one(tmp_path):
    path = shutil.copy(SESSIONS / "memory-agent.openai.json", tmp_path / "memory.json")
    review = _review(path)
    review.skip(0, 0)
    out = tmp_path / "out.json"
    assert review.export(out).baseline is not None
    review.approve(0, 0)
    assert review.export(out, replace_existing=True).baseline is None
    assert not (tmp_path / "out.json.baseline.ndjson").exists()


def test_a_baseline_that_is_not_one_is_one_line_and_exit_2(tmp_path, capsys):
    path = shutil.copy(SESSIONS / "memory-agent.openai.json", tmp_path / "memory.json")
    (tmp_path / "memory.json.baseline.ndjson").write_text("{not json")
    assert main(["scan", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "memory.json.baseline.ndjson: not a baseline" in err


def test_a_baseline_an_earlier_version_wrote_as_json_is_read_and_replaced_by_the_next_export(tmp_path, capsys):
    path = shutil.copy(SESSIONS / "memory-agent.openai.json", tmp_path / "memory.json")
    review = _review(path)
    review.skip(0, 0)
    for index in range(1, len(review.findings(0))):
        review.approve(0, index)
    out = tmp_path / "out.json"
    written = review.export(out).baseline
    assert written.read_text().count("\n") == 1  # one record: the file is NDJSON, as its name says
    earlier = written.rename(tmp_path / "out.json.baseline.json")  # where an earlier version kept it
    assert main(["scan", str(out)]) == 0
    assert f"as the baseline {earlier} says" in capsys.readouterr().err
    assert review.export(out, replace_existing=True).baseline == written
    assert written.is_file() and not earlier.exists()
    earlier.write_text(written.read_text())
    main(["scan", str(tmp_path), "--json"])  # neither name is read as a session
    report = json.loads(capsys.readouterr().out)
    assert sorted(Path(session["path"]).name for session in report["sessions"]) == ["memory.json", "out.json"]
    assert report["errors"] == []
