"""Detector `secret` on real session files: a secret in a reply's text and thinking, in a call's
arguments, in a result, in a user's prompt; the look-alikes that stay clean (ids, UUIDs, digests,
names, placeholders, e-mail addresses); no finding on any bundled sample; its message never
holds the secret; hostile text scanned in linear time."""

from __future__ import annotations

import json
import random
import string
from pathlib import Path

import pytest

from inspector.model import WARNING
from tests.helpers.files import write_json
from tests.helpers.samples import SESSIONS, TOOL_SAMPLES
from tests.helpers.scanning import findings_of
from tests.helpers.timing import cpu_time

KIND = "secret"
GITHUB = "ghp_1234567890abcdefghijABCDEFGHIJ123456"
OPENAI = "sk-proj-Abc123def456GHI789jkl012MNO345pqr678"
RANDOM = "x9ZqP2mL7vK4nR8sT1wY6bH3cF5gJ0dA"
PASSWORD = "s3cr3t-Pass!"


def _session(tmp_path: Path, messages: list) -> Path:
    return write_json(tmp_path / "session.json", {"messages": messages})


def _call(call_id: str, name: str, arguments: dict) -> dict:
    return {
        "role": "assistant",
        "content": "",
        "tool_calls": [
            {"id": call_id, "type": "function", "function": {"name": name, "arguments": json.dumps(arguments)}}
        ],
    }


def _secrets(path: Path) -> list[tuple[int, str | None, str]]:
    return [(f.turn, f.tool, f.fix.masks[0][1]) for f in findings_of(path, KIND) if f.fix is not None]


def test_a_secret_is_found_in_every_field_of_every_turn(tmp_path):
    path = _session(
        tmp_path,
        [
            {"role": "user", "content": f"Use my key {OPENAI} please"},
            {"role": "assistant", "content": f"<think>the token is {GITHUB}</think>Sure."},
            _call(
                "c1", "http_get", {"url": "https://api.example.com", "headers": {"Authorization": f"Basic {PASSWORD}"}}
            ),
            {"role": "tool", "tool_call_id": "c1", "content": f"DEPLOY_KEY={RANDOM}\nok"},
            _call("c2", "login", {"user": "sam", "password": PASSWORD}),
        ],
    )
    assert _secrets(path) == [
        (0, None, "[REDACTED:openai-key]"),
        (1, None, "[REDACTED:github-token]"),
        (2, "http_get", "[REDACTED:secret-value]"),
        (3, "http_get", "[REDACTED:random-token]"),
        (4, "login", "[REDACTED:secret-value]"),
    ]
    findings = findings_of(path, KIND)
    assert {finding.severity for finding in findings} == {WARNING}
    assert [finding.fix.masks[0][0] for finding in findings if finding.fix] == [
        OPENAI,
        GITHUB,
        PASSWORD,
        RANDOM,
        PASSWORD,
    ]
    thinking = findings[1]
    assert thinking.span is not None and thinking.span[0] == len("<think>the token is ")
    for finding in findings:  # the message says what and where, never the secret
        for secret in (OPENAI, GITHUB, RANDOM, PASSWORD):
            assert secret not in finding.message and secret not in json.dumps(finding.payload)
    assert findings[1].message.startswith("A GitHub token (40 characters) in the turn's text")


def test_a_random_token_standing_alone_is_found(tmp_path):
    path = _session(tmp_path, [{"role": "user", "content": f"here: {RANDOM}"}])
    assert _secrets(path) == [(0, None, "[REDACTED:random-token]")]


LOOK_ALIKES = [
    "call_AbC123dEf456GhI789jKl012MnO345pQ",  # a call id
    "toolu_01AbCdEfGhIjKlMnOpQrStUvWx",
    "6f1c2b7e-4d3a-4e8b-9c1d-2a3b4c5d6e7f",  # a UUID
    "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",  # a SHA-256 digest
    "TestHandleRequestWithTimeout2Seconds",  # a name
    "getUserAccountSettingsForTenant2024",
    "src/components/AbcDef123GhiJkl456MnoPqr789StuVwx.tsx",  # a path
    "max_tokens=4096 total_tokens: 123456789",
    "password: required",
    "token: undefined",
    "api_key = $OPENAI_API_KEY",
    "SECRET_KEY=settings.SECRET_KEY",
    "password: ********",
    "sam.taylor@example.co.uk",  # personal, but no secret
    "sk-short",
]


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_look_alikes_stay_clean(tmp_path, text):
    path = _session(
        tmp_path,
        [
            {"role": "user", "content": text},
            _call("c1", "note", {"text": text}),
            {"role": "tool", "tool_call_id": "c1", "content": text},
        ],
    )
    assert _secrets(path) == []


def test_the_lines_of_a_block_of_encoded_data_stay_clean(tmp_path):
    lines = [f"MIIB{n}kTCCATegAwIBAgIUQx7Zq9Lm3Vb8Nc4Rt2Yw5Ks1Hp6JfAoGCCqGSM49BAMCMBQxEjAQBgNV{n}Q" for n in range(4)]
    block = "-----BEGIN CERTIFICATE-----\n" + "\n".join(lines) + "\n-----END CERTIFICATE-----"
    path = _session(tmp_path, [{"role": "user", "content": block}])
    assert _secrets(path) == []
    alone = _session(tmp_path, [{"role": "user", "content": f"key:\n{lines[0]}\nthanks"}])
    assert _secrets(alone) == [(0, None, "[REDACTED:random-token]")]  # one such line alone is flagged


def test_keys_not_named_like_secrets_stay_clean(tmp_path):
    path = _session(
        tmp_path,
        [_call("c1", "search", {"query": "Zx9Yw8Vu7Ts6", "max_tokens": "4096abcd", "token_count": "12ab34cd"})],
    )
    assert _secrets(path) == []


@pytest.mark.parametrize("path", sorted([*SESSIONS.glob("*.*"), *TOOL_SAMPLES.glob("*.*")]), ids=lambda path: path.name)
def test_no_bundled_or_real_tool_sample_holds_a_secret(path):
    from inspector.scan.scanner import scan_file

    assert [finding for result in scan_file(path) for finding in result.findings if finding.kind == KIND] == []


_RANDOM = random.Random(0)
_ALPHABET = string.ascii_letters + string.digits
HOSTILE = {
    "lines": "\n".join("".join(_RANDOM.choices(_ALPHABET, k=64)) for _ in range(2_000)),  # a block, line by line
    "keys": "api_key=" * 20_000,
    "names": "a_" * 60_000,
    "token": ("Ab1" * 40 + " ") * 1_000,
    "equals": "token:" + "=" * 120_000,
    "run": "Ab1_" * 30_000,
}


@pytest.mark.parametrize("hostile", HOSTILE.values(), ids=HOSTILE.keys())
def test_hostile_text_is_scanned_in_linear_time(tmp_path, hostile):
    path = _session(
        tmp_path,
        [{"role": "user", "content": hostile}, _call("c1", "note", {"password": hostile, "text": hostile})],
    )
    started = cpu_time()
    findings_of(path, KIND)
    assert cpu_time() - started < 5
