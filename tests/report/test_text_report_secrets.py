"""`inspector scan`'s text report never shows a secret it found: the secret's own finding, and any
other finding of the same turn whose preview would hold it, show its mask instead."""

from __future__ import annotations

from inspector.cli.main import main

GITHUB = "ghp_1234567890abcdefghijABCDEFGHIJ123456"


def test_the_text_report_shows_a_turns_secrets_masked(write_session, capsys):
    reply = '{"success": true, "saved": "' + GITHUB + '"}Saved your token: ' + GITHUB + " for later."
    save = {"type": "function", "function": {"name": "save_memory", "parameters": {"type": "object"}}}
    path = write_session(
        [{"role": "user", "content": f"Remember my token {GITHUB}"}, {"role": "assistant", "content": reply}],
        [save],
    )

    assert main(["scan", str(path)]) == 1
    out = capsys.readouterr().out
    assert "secret" in out and "result-prefix" in out  # the token's findings, and the fake result's
    assert "[REDACTED:" in out
    assert GITHUB not in out and GITHUB[:20] not in out
