"""`report --redact` masks a secret wherever the report would print it: the turns' text and
thinking, the calls' names, ids and arguments, the results' names, ids and content, the turns'
ids, the session's path and file name, the findings' messages; and a report that would still
print one is refused, whole, before anything is written."""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path

from inspector.cli.main import main
from tests.helpers.tools import SAVE_MEMORY

TOKEN = "ghp_1234567890abcdefghijABCDEFGHIJ123456"
OTHER_TOKEN = "ghp_ZYXWVUTSRQPONMLKJIHGzyxwvutsrqponmlk99"
EMAIL = "sam.taylor@example.co.uk"
KEY = "sk-proj-Abc123def456GHI789jkl012MNO345pqr678"
AWS = "AKIAIOSFODNN7EXAMPLE"
SECRETS = (TOKEN, OTHER_TOKEN, EMAIL, KEY, AWS)


def _planted(tmp_path: Path) -> Path:
    """A session with a secret in every field a report prints, under a folder and a file name holding one."""
    folder = tmp_path / EMAIL
    folder.mkdir()
    path = folder / f"{AWS}.json"
    messages = [
        {"role": "user", "content": f"my key is {KEY}"},
        {
            "role": "assistant",
            "id": f"msg-{EMAIL}",
            "content": f"<think>use {KEY}</think>",
            "tool_calls": [
                {
                    "id": TOKEN,
                    "type": "function",
                    "function": {"name": f"mail_{EMAIL}", "arguments": json.dumps({"to": EMAIL, "key": KEY})},
                }
            ],
        },
        {"role": "tool", "tool_call_id": OTHER_TOKEN, "name": None, "content": f"sent with {KEY}"},
        {"role": "tool", "tool_call_id": "c9", "name": f"from {EMAIL}", "content": f"sent with {AWS}"},
    ]
    path.write_text(json.dumps({"messages": messages, "tools": [SAVE_MEMORY]}), encoding="utf-8")
    return path


def _pages(tmp_path: Path, *options: str) -> tuple[int, Path, Path]:
    path = _planted(tmp_path)
    html, markdown = tmp_path / "r.html", tmp_path / "r.md"
    code = main(["report", str(path), "--html", str(html), "--markdown", str(markdown), *options])
    return code, html, markdown


def test_without_redact_every_planted_secret_is_printed(tmp_path):
    code, html, markdown = _pages(tmp_path)
    assert code == 0
    shown = unescape(re.sub(r"<[^>]*>", "", html.read_text(encoding="utf-8")))  # `secret` findings mark them
    fenced = re.sub(r"\[-|-\]|\[!|!\]", "", markdown.read_text(encoding="utf-8").replace("\\", ""))
    for page in (shown, fenced):
        for secret in SECRETS:
            assert secret in page, secret


def test_redact_masks_a_secret_in_every_field_the_report_prints(tmp_path):
    code, html, markdown = _pages(tmp_path, "--redact")
    assert code == 0
    for page in (unescape(html.read_text(encoding="utf-8")), markdown.read_text(encoding="utf-8").replace("\\", "")):
        for secret in SECRETS:
            assert secret not in page, secret
        assert "example.co.uk" not in page
        assert "result of [REDACTED:github-token]" in page
        assert "result of from [REDACTED:email]" in page


def test_a_report_that_would_still_show_a_secret_is_refused_whole(tmp_path, capsys):
    # a result named across two lines: each line alone is no bearer token, but Markdown shows the
    # name on one line, where it is
    path = tmp_path / "folded.json"
    messages = [
        {"role": "user", "content": "go"},
        {"role": "tool", "tool_call_id": "c9", "name": "Bearer\n9f8e7d6c5b4a39281706f5e4d3c2b1a0", "content": "ok"},
    ]
    path.write_text(json.dumps({"messages": messages}), encoding="utf-8")
    html, markdown = tmp_path / "r.html", tmp_path / "r.md"
    arguments = ["report", str(path), "--html", str(html), "--markdown", str(markdown)]
    assert main(arguments) == 0 and "Bearer 9f8e7d6c5b4a39281706f5e4d3c2b1a0" in markdown.read_text(encoding="utf-8")
    html.unlink()
    markdown.unlink()
    capsys.readouterr()
    assert main([*arguments, "--redact"]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "bearer-token" in error and "nothing was written" in error
    assert "9f8e7d6c" not in error
    assert not html.exists() and not markdown.exists()
