"""`fix --accept secret` on every file format, each on a committed sample of it (the file the real
tool wrote where there is one): a GitHub token planted in a tool result, in a call's arguments and
in a reply's text (where the format has them) is found once each; a writable format's copy holds
none of them anywhere, is read back in the same format with as many turns, and scans clean; a
read-only format's `--to openai` export holds none."""

from __future__ import annotations

import re
import shutil
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from inspector.cli.main import main
from inspector.errors import InspectorError
from inspector.model import Turn
from inspector.scan.scanner import scan_file
from inspector.sources import load_sessions
from inspector.sources.files.document import read_document
from inspector.sources.formats import FORMATS, format_of
from tests.helpers.samples import FILE_SUFFIXES, SAMPLE_DATABASES, SESSIONS, TOOL_SAMPLES

TOKENS = {
    "result": "ghp_1111111111abcdefghijABCDEFGHIJ111111",
    "arguments": "ghp_2222222222abcdefghijABCDEFGHIJ222222",
    "text": "ghp_3333333333abcdefghijABCDEFGHIJ333333",
}
_WORD = re.compile(r"[A-Za-z]{4,}")
WRITABLE_SAMPLE = {"autogen": TOOL_SAMPLES / "autogen.state.json"}  # a TaskResult transcript is read-only


def _sample(format_name: str) -> Path:
    """The committed JSON sample of the format, the real tool's file first."""
    if format_name in WRITABLE_SAMPLE:
        return WRITABLE_SAMPLE[format_name]
    for folder in (TOOL_SAMPLES, SESSIONS):
        for path in sorted(folder.iterdir()):
            if path.suffix in FILE_SUFFIXES and load_sessions(path)[0].format == format_name:
                return path
    raise AssertionError(f"no sample of {format_name}")


def _strings(value: Any) -> Iterator[str]:
    """Every string a value holds (a dict's keys and values, a list's items, nested)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _turn_fields(turn: Turn) -> dict[str, list[str]]:
    """The strings of each kind of field a turn holds: results, calls' arguments, a reply's text."""
    return {
        "result": [s for result in turn.tool_results for s in _strings(result.content)],
        "arguments": [
            s
            for call in turn.tool_calls
            for s in _strings(call.arguments if call.arguments is not None else call.arguments_raw)
        ],
        "text": [turn.text] if turn.role == "assistant" else [],
    }


def _turns_holding(path: Path, token: str) -> list[tuple[str, ...]]:
    """For each turn that holds the token anywhere, the kinds of field that hold it."""
    holding = []
    for session in load_sessions(path):
        for turn in session.turns:
            kinds = {where for where, strings in _turn_fields(turn).items() if any(token in s for s in strings)}
            if kinds or token in turn.text:
                holding.append(tuple(sorted(kinds)))
    return holding


def _in_tool_definitions(path: Path, token: str) -> bool:
    """Whether a tool the sessions define holds the token (its name, description or parameters):
    a definition is no turn, so no `secret` finding masks it."""
    return any(
        token in string
        for session in load_sessions(path)
        for tool in session.tools
        for string in (tool.name, tool.description, *_strings(tool.parameters))
    )


def _reaches_only(path: Path, token: str, where: str) -> bool:
    """Whether the file still reads and the token is in that kind of field of one turn, and nowhere else
    (nor in a field of a record the detector also reads, a working folder say: found once; nor in
    the tools the session defines)."""
    try:
        return (
            _turns_holding(path, token) == [(where,)]
            and _secrets_found(path).count(token) == 1
            and not _in_tool_definitions(path, token)
        )
    except InspectorError:
        return False


def _planted(source: Path, tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A copy of the sample with a token after a word of a field of each kind, in every place the
    file holds that word or, failing that, in one of them, chosen so that the token reaches that
    field of one turn and nothing else; and the tokens planted, by the kind of field."""
    text = source.read_text(encoding="utf-8")
    path = tmp_path / source.name
    planted: dict[str, str] = {}
    turns = [turn for session in load_sessions(source) for turn in session.turns]
    for where, token in TOKENS.items():
        words = dict.fromkeys(w for turn in turns for s in _turn_fields(turn)[where] for w in _WORD.findall(s))
        for trial in _trials(text, list(words)[:40], token):
            path.write_text(trial, encoding="utf-8")
            if _reaches_only(path, token, where):
                text = trial
                planted[where] = token
                break
    path.write_text(text, encoding="utf-8")
    held = {where for turn in turns for where, strings in _turn_fields(turn).items() if any(strings)}
    assert set(planted) == held, f"no place found for a token in the {held - set(planted)} of {source.name}"
    return path, planted


def _trials(text: str, words: list[str], token: str) -> Iterator[str]:
    """The text with the token after every place it holds a word, for each word; then after one
    place at a time."""
    patterns = [re.compile(rf"(?<![A-Za-z]){word}(?![A-Za-z])") for word in words]
    for pattern in patterns:
        yield pattern.sub(lambda match: f"{match.group()} {token}", text)
    for pattern in patterns:
        for match in list(pattern.finditer(text))[:20]:
            yield f"{text[: match.end()]} {token}{text[match.end() :]}"


def _secret_findings(path: Path) -> list:
    return [finding for result in scan_file(path) for finding in result.findings if finding.kind == "secret"]


def _secrets_found(path: Path) -> list[str]:
    """The secret each `secret` finding masks, one entry a finding."""
    return sorted(secret for finding in _secret_findings(path) for secret, _ in finding.fix.masks)


WRITABLE = sorted(name for name, file_format in FORMATS.items() if file_format.write is not None)
# an OpenHands conversation and an OpenCode storage session are folders of files, not one file to plant in:
# tests/sources/formats/test_openhands.py and test_opencode_storage.py
FOLDERS = ("openhands", "opencode-storage")
READ_ONLY = sorted(name for name, file_format in FORMATS.items() if file_format.write is None and name not in FOLDERS)


@pytest.mark.parametrize("format_name", WRITABLE)
def test_fix_accept_secret_masks_every_planted_secret_in_the_format(tmp_path, format_name):
    path, planted = _planted(_sample(format_name), tmp_path)
    assert planted
    assert _secrets_found(path) == sorted(planted.values())
    out = tmp_path / f"out{path.suffix}"
    assert main(["fix", str(path), "--accept", "secret", "-o", str(out)]) in (0, 1)
    written = out.read_bytes()
    for token in planted.values():
        assert token.encode() not in written
    assert format_of(read_document(out)).name == format_name
    turns = sum(len(session.turns) for session in load_sessions(out))
    assert turns == sum(len(session.turns) for session in load_sessions(path))
    assert _secret_findings(out) == []


@pytest.mark.parametrize("format_name", READ_ONLY)
def test_fix_to_openai_accept_secret_exports_no_secret_from_a_read_only_format(tmp_path, format_name):
    path, planted = _planted(_sample(format_name), tmp_path)
    assert planted
    assert _secrets_found(path) == sorted(planted.values())
    out = tmp_path / "out.json"
    assert main(["fix", str(path), "--to", "openai", "--accept", "secret", "-o", str(out)]) in (0, 1)
    written = out.read_bytes()
    for token in planted.values():
        assert token.encode() not in written
    assert _secret_findings(out) == []


DATABASES = SAMPLE_DATABASES


@pytest.mark.parametrize("source, table, column", DATABASES, ids=[p.name for p, _, _ in DATABASES])
def test_fix_accept_secret_masks_a_secret_planted_in_a_sample_database(tmp_path, source, table, column):
    path = tmp_path / source.name
    shutil.copy(source, path)
    token = TOKENS["result"]
    with closing(sqlite3.connect(path)) as connection, connection:
        (rowid,) = connection.execute(
            f"SELECT rowid FROM {table} WHERE {column} LIKE '%the%' ORDER BY rowid DESC LIMIT 1"
        ).fetchone()
        connection.execute(
            f"UPDATE {table} SET {column} = replace({column}, 'the', ?) WHERE rowid = ?", (f"the {token}", rowid)
        )
    assert len(_secret_findings(path)) == 1
    out = tmp_path / f"out-{source.name}"
    assert main(["fix", str(path), "--accept", "secret", "-o", str(out)]) in (0, 1)
    with closing(sqlite3.connect(out)) as connection:
        values = [row[0] for row in connection.execute(f"SELECT {column} FROM {table}")]
    assert not any(token in str(value) for value in values)
    assert _secret_findings(out) == []
