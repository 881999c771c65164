"""Inspect AI logs, as inspect-ai 0.3.285 wrote them with `mockllm/model`
(sessions/generate/inspect_ai_log.py): the `.eval` zip (Zstandard members) and the legacy
`.json` log are detected, read with the harness's parse errors as malformed calls, and refused by
`fix` as read-only; a cut-off or damaged `.eval` is one line."""

import zipfile
import zlib

import pytest

from inspector.cli.main import main
from inspector.errors import InspectorError
from inspector.model import ASSISTANT, TOOL, USER
from inspector.scan.scanner import scan_file
from inspector.sources import FORMATS, load_sessions, open_source
from inspector.sources.files.document import read_document
from inspector.sources.files.inspect_eval import ZIP_ZSTANDARD, read_eval
from inspector.support.zstandard_module import zstd
from tests.helpers.samples import SESSIONS, TOOL_SAMPLES

SAMPLES = TOOL_SAMPLES
EVAL = SESSIONS / "notes-agent.inspect-ai.eval"
JSON = SAMPLES / "inspect-ai.log.json"
PLANTED = [
    (1, "result-prefix", None),
    (3, "tool-markup", "read_file"),
    (5, "malformed-arguments", "read_file"),
    (6, "tool-error", "read_file"),
]


def test_the_eval_members_are_zstandard_compressed():
    with zipfile.ZipFile(EVAL) as archive:
        assert {info.compress_type for info in archive.infolist()} == {ZIP_ZSTANDARD}


@pytest.mark.parametrize("document", [read_eval(EVAL), read_document(JSON)], ids=["eval", "json"])
def test_detected_as_inspect_ai_and_by_no_other_format(document):
    assert [name for name, file_format in FORMATS.items() if file_format.claims(document)] == ["inspect-ai"]


@pytest.mark.parametrize("path", [EVAL, JSON])
def test_every_planted_problem_is_found_once_and_the_good_call_is_clean(path):
    (result,) = scan_file(path)
    assert result.session.format == "inspect-ai"
    assert result.session.session_id == "notes/epoch 1"
    assert [(f.turn, f.kind, f.tool) for f in result.findings] == PLANTED
    assert result.session.problems == ()


@pytest.mark.parametrize("path", [EVAL, JSON])
def test_the_parse_error_gives_the_raw_arguments_and_the_harness_error(path):
    (session,) = load_sessions(path)
    turns = session.turns
    assert [t.role for t in turns] == [
        USER,
        ASSISTANT,
        USER,
        ASSISTANT,
        USER,
        ASSISTANT,
        TOOL,
        ASSISTANT,
        TOOL,
        ASSISTANT,
    ]
    (broken,) = turns[5].tool_calls
    assert (broken.id, broken.arguments_raw, broken.arguments) == (
        "call_mock_broken_braces",
        '{"path": "notes.txt"}}}}',
        None,
    )
    (error,) = turns[6].tool_results
    assert (error.call_id, error.name, error.is_error) == ("call_mock_broken_braces", "read_file", True)
    assert error.content.startswith("parsing: Error parsing the following tool call arguments")
    (good,) = turns[7].tool_calls
    assert good.arguments == {"path": "notes.txt"}
    (answer,) = turns[8].tool_results
    assert (answer.content, answer.is_error) == ("Meeting moved to Thursday.\nBring the draft.\n", False)
    assert [spec.name for spec in session.tools] == ["read_file"]


@pytest.mark.parametrize("path", [EVAL, JSON])
def test_fix_is_refused_as_read_only_in_one_line(path, tmp_path, capsys):
    out = tmp_path / ("fixed" + path.suffix)
    assert main(["fix", str(path), "--accept", "all", "-o", str(out)]) == 2
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1 and "inspect-ai format cannot be written" in error
    assert not out.exists()
    assert not open_source(path).capabilities.write_in_place


@pytest.mark.parametrize("size", [0.3, 0.9])
def test_a_cut_off_eval_is_one_line_and_exit_2(size, tmp_path, capsys):
    data = EVAL.read_bytes()
    cut = tmp_path / "cut.eval"
    cut.write_bytes(data[: int(len(data) * size)])
    assert main(["scan", str(cut)]) == 2
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1 and "cut off or damaged" in error


def test_a_damaged_member_is_one_line(tmp_path):
    with zipfile.ZipFile(EVAL) as archive:
        sample = archive.getinfo("samples/notes_epoch_1.json")
    data = bytearray(EVAL.read_bytes())
    middle = sample.header_offset + 100
    data[middle : middle + 8] = b"\xff" * 8
    damaged = tmp_path / "damaged.eval"
    damaged.write_bytes(bytes(data))
    with pytest.raises(InspectorError, match="samples/notes_epoch_1.json"):
        load_sessions(damaged)


def test_a_zstandard_member_cut_short_is_one_line_and_exit_2(tmp_path, capsys):
    raw = b'{"id": "notes", "epoch": 1, "messages": [' + b'{"role": "user", "content": "Save a note."}, ' * 40 + b"{}]}"
    cut = tmp_path / "cut-member.eval"
    with zipfile.ZipFile(cut, "w") as archive:
        compressed = zstd.compress(raw)
        archive.writestr("samples/notes_epoch_1.json", compressed[: len(compressed) // 2])  # its stream ends early
        info = archive.infolist()[-1]
        info.compress_type, info.file_size, info.CRC = ZIP_ZSTANDARD, len(raw), zlib.crc32(raw)
    assert main(["scan", str(cut)]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "member samples/notes_epoch_1.json: cannot decompress" in error


def test_a_zip_without_a_log_is_refused(tmp_path):
    other = tmp_path / "other.eval"
    with zipfile.ZipFile(other, "w") as archive:
        archive.writestr("readme.txt", "hello")
    with pytest.raises(InspectorError, match="not an Inspect AI log"):
        load_sessions(other)
