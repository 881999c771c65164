"""Scanning many session files on several processes (`inspector scan` of a folder, or of a person's
own sessions): the same report as one process, in the files' order, a file that cannot be read
saying so in its place."""

from __future__ import annotations

import shutil
from pathlib import Path

from inspector.cli.main import main
from inspector.scan.file_pool import MIN_POOL_BYTES, FilePool, FileScan, scan_file
from inspector.scan.parallel import ScanRequest, available_cpus
from tests.helpers.samples import SESSIONS, copied

FILES = (
    "memory-agent.openai.json",
    "notes-agent.claude-code.jsonl",
    "shell-agent.codex.jsonl",
    "notes-agent.langchain-sql.db",
    "notes-reader.gemini-cli.jsonl",
    "support-agent.anthropic.json",
)


def _folder(tmp_path: Path) -> Path:
    """A folder holding copies of a few bundled samples of different formats and storages."""
    return copied(FILES, SESSIONS, tmp_path / "sessions")


def _shown(scan: FileScan) -> tuple:
    """What a report shows of a file's scan: each session's summary, its rates as counted, the error."""
    return [
        (
            summary.session_id,
            summary.format,
            summary.turn_count,
            summary.problems,
            summary.findings,
            summary.flagged_turns,
            summary.rates.to_json(),
        )
        for summary in scan.summaries
    ], scan.error


def _scan(capsys, *arguments: str) -> tuple[int, str, str]:
    code = main(["scan", "--json", "--no-cache", *arguments])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_a_folder_scanned_by_workers_gives_the_report_of_one_process(tmp_path, capsys):
    folder = _folder(tmp_path)
    alone = _scan(capsys, "--jobs", "1", str(folder))
    shared = _scan(capsys, "--jobs", "2", str(folder))
    assert alone[0] == 1  # the samples hold findings
    assert '"findings"' in alone[1] and alone[1].count('"path"') >= len(FILES)
    assert shared == alone


def test_a_file_that_cannot_be_read_says_so_in_its_place_and_the_others_are_scanned(tmp_path, capsys):
    folder = _folder(tmp_path)
    (folder / "broken.json").write_text('{"messages": [{"role": "user", "content": "hi"', encoding="utf-8")
    alone = _scan(capsys, "--jobs", "1", str(folder))
    shared = _scan(capsys, "--jobs", "2", str(folder))
    assert shared == alone
    code, out, err = shared
    assert code == 2
    assert len(err.splitlines()) == 1 and "broken.json" in err
    assert all(name in out for name in FILES)


def test_workers_start_only_when_the_files_are_worth_it(tmp_path):
    folder = _folder(tmp_path)
    requests = [ScanRequest(folder / name) for name in FILES]
    assert sum(request.path.stat().st_size for request in requests) < MIN_POOL_BYTES
    small = FilePool(requests, None, None)
    asked = FilePool(requests, None, 2)
    alone = FilePool(requests, None, 1)
    try:
        assert (small.workers, asked.workers, alone.workers) == (0, 2, 0)
        for number, request in enumerate(requests):
            assert _shown(asked.scan(number, request)) == _shown(scan_file(request))
    finally:
        for pool in (small, asked, alone):
            pool.close()


def test_enough_bytes_start_workers_without_being_asked(tmp_path):
    big = tmp_path / "big.jsonl"
    line = '{"messages": [{"role": "user", "content": "' + "word " * 200 + '"}]}\n'
    big.write_text(line * (MIN_POOL_BYTES // len(line) + 1), encoding="utf-8")
    small = tmp_path / "small.openai.json"
    shutil.copy(SESSIONS / "memory-agent.openai.json", small)
    pool = FilePool([ScanRequest(big), ScanRequest(small)], None, None)
    try:
        assert pool.workers == (2 if available_cpus() > 1 else 0)
        assert _shown(pool.scan(1, ScanRequest(small))) == _shown(scan_file(ScanRequest(small)))
    finally:
        pool.close()
