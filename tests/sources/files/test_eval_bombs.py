"""Decompression bombs in an Inspect AI `.eval` archive: a member that expands far past what the
archive's size allows (Zstandard or deflate) is refused in one line and exit 2, before it is
decompressed, so memory stays bounded; a real expansion of hundreds of megabytes included."""

from __future__ import annotations

import struct
import subprocess
import sys
import zipfile
import zlib
from pathlib import Path

import pytest

import inspector.sources.files.inspect_eval as inspect_eval
from inspector.cli.main import main
from inspector.support.zstandard_module import zstd

_SPACES = b" " * (1 << 20)


def _zstandard_eval(path: Path, megabytes: int) -> Path:
    """An `.eval` whose one sample is `{` and `}` around `megabytes` MB of spaces, Zstandard-compressed."""
    compressor = zstd.ZstdCompressor()
    payload, crc = bytearray(compressor.compress(b"{")), zlib.crc32(b"{")
    for _ in range(megabytes):
        payload += compressor.compress(_SPACES)
        crc = zlib.crc32(_SPACES, crc)
    payload += compressor.compress(b"}") + compressor.flush()
    crc, size, name = zlib.crc32(b"}", crc), megabytes * len(_SPACES) + 2, b"samples/bomb_epoch_1.json"
    fields = (inspect_eval.ZIP_ZSTANDARD, 0, 0, crc, len(payload), size, len(name))
    local = struct.pack("<4s5HI2I2H", b"PK\x03\x04", 63, 0, *fields, 0) + name
    central = struct.pack("<4s6HI2I5H2I", b"PK\x01\x02", 63, 63, 0, *fields, 0, 0, 0, 0, 0, 0) + name
    end = struct.pack("<4s4H2IH", b"PK\x05\x06", 0, 0, 1, 1, len(central), len(local) + len(payload), 0)
    path.write_bytes(local + payload + central + end)
    return path


def _deflate_eval(path: Path, megabytes: int) -> Path:
    """The same archive, its sample deflated (by `zipfile`, as a stream)."""
    with (
        zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive,
        archive.open("samples/b_epoch_1.json", "w") as out,
    ):
        out.write(b"{")
        for _ in range(megabytes):
            out.write(_SPACES)
        out.write(b"}")
    return path


@pytest.mark.parametrize("build", [_zstandard_eval, _deflate_eval])
def test_a_member_expanding_past_the_allowance_is_refused_in_one_line(build, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(inspect_eval, "MIN_ALLOWANCE", 1 << 20)
    bomb = build(tmp_path / "bomb.eval", 8)
    assert bomb.stat().st_size < 10_000  # small on disk
    assert main(["scan", str(bomb)]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "expands to 8,388,610 bytes, more than the 1,048,576" in error


def test_a_member_within_the_allowance_is_read(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(inspect_eval, "MIN_ALLOWANCE", 16 << 20)
    main(["scan", str(_zstandard_eval(tmp_path / "big.eval", 8))])
    assert "expands to" not in capsys.readouterr().err


@pytest.mark.slow  # builds 600 MB of expansion (streamed) and starts a process
@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="peak memory is read from /proc")
def test_hundreds_of_megabytes_are_refused_with_memory_bounded(tmp_path):
    bomb = _zstandard_eval(tmp_path / "bomb.eval", 600)
    script = (  # the scan's exit code and its peak memory in KiB (VmHWM: reset by exec)
        "import sys\nfrom inspector.cli.main import main\ncode = main(['scan', sys.argv[1]])\n"
        "with open('/proc/self/status') as status:\n"
        "    print(code, next(line.split()[1] for line in status if line.startswith('VmHWM:')))"
    )
    run = subprocess.run([sys.executable, "-c", script, str(bomb)], capture_output=True, text=True, timeout=120)
    code, peak_kib = run.stdout.split()
    assert code == "2" and "decompression bomb" in run.stderr
    assert int(peak_kib) < 200 * 1024, f"peak {int(peak_kib) // 1024} MiB"
