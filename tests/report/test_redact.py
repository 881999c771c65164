"""`inspector report --redact`: secrets and e-mail addresses masked everywhere the report shows
text (the turns, the calls, the results, the findings' messages), the marks moved onto the masked
text, every pattern listed in `--help` and `docs/cli.md`, and a hostile text redacted in linear time."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from inspector.cli.main import main
from tests.helpers.report_pages import fences, marked_runs, side_text
from tests.helpers.samples import DOCS
from tests.helpers.timing import cpu_time
from tests.helpers.tools import SAVE_MEMORY

CLI_PAGE = DOCS / "cli.md"

SECRETS = {
    "openai-key": "sk-proj-Abc123def456GHI789jkl012MNO345pqr678",
    "anthropic-key": "sk-ant-api03-Zx9_Yw8-Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe",
    "aws-access-key": "AKIAIOSFODNN7EXAMPLE",
    "github-token": "ghp_1234567890abcdefghijABCDEFGHIJ123456",
    "slack-token": "xoxb-123456789012-abcdefABCDEF",
    "google-api-key": "AIzaSyD-1234567890abcdefghijklmnopqrstu",
    "jwt": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
    "bearer-token": "Bearer 9f8e7d6c5b4a39281706f5e4d3c2b1a0",
    "email": "sam.taylor+runs@example.co.uk",
    "private-key": "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmU=\n-----END OPENSSH PRIVATE KEY-----",
}
FAKE = '{success: true, memory_type: "fact", content: "my key is ' + SECRETS["openai-key"] + '"}'
PROSE = (
    f"Saved. I will mail {SECRETS['email']} with token {SECRETS['github-token']}; "
    f"AWS {SECRETS['aws-access-key']}, Slack {SECRETS['slack-token']}, Google {SECRETS['google-api-key']}, "
    f"JWT {SECRETS['jwt']}, {SECRETS['anthropic-key']}, header {SECRETS['bearer-token']}.\n"
    f"{SECRETS['private-key']}\nDone."
)


def _session(tmp_path: Path) -> Path:
    path = tmp_path / "secrets.json"
    path.write_text(
        json.dumps(
            {
                "messages": [
                    {"role": "user", "content": "Remember my key"},
                    {"role": "assistant", "content": FAKE + PROSE},
                    {
                        "role": "assistant",
                        "content": "",
                        "tool_calls": [
                            {
                                "id": "c1",
                                "type": "function",
                                "function": {
                                    "name": "save_memory",
                                    "arguments": '{"memory_type": "fact", "content": "' + SECRETS["email"] + '"}}',
                                },
                            }
                        ],
                    },
                    {
                        "role": "tool",
                        "tool_call_id": "c1",
                        "content": json.dumps({"error": "denied for " + SECRETS["aws-access-key"]}),
                    },
                ],
                "tools": [SAVE_MEMORY],
            }
        )
    )
    return path


def _reports(tmp_path: Path, *options: str) -> tuple[str, str]:
    path = _session(tmp_path)
    html, markdown = tmp_path / "r.html", tmp_path / "r.md"
    assert main(["report", str(path), "--html", str(html), "--markdown", str(markdown), "--force", *options]) == 0
    return html.read_text(encoding="utf-8"), markdown.read_text(encoding="utf-8")


def _unescaped(page: str) -> str:
    return page.replace("&quot;", '"').replace("&#x27;", "'").replace("&amp;", "&")


def test_without_redact_the_secrets_are_shown(tmp_path):
    page, markdown = _reports(tmp_path)
    # the `secret` findings mark each one: shown with the marks taken out
    shown = _unescaped(re.sub(r"<[^>]*>", "", page))
    fenced = re.sub(r"\[-|-\]|\[!|!\]", "", markdown)
    for secret in SECRETS.values():
        assert secret.splitlines()[0] in shown and secret.splitlines()[0] in fenced


def test_redact_masks_every_secret_and_email_everywhere(tmp_path):
    page, markdown = _reports(tmp_path, "--redact")
    for name, secret in SECRETS.items():
        for part in (secret.splitlines()[1] if name == "private-key" else secret.removeprefix("Bearer "),):
            assert part not in _unescaped(page), name
            assert part not in markdown, name
        assert f"[REDACTED:{name}]" in page and f"[REDACTED:{name}]" in markdown
    assert "example.co.uk" not in page  # not in the recovered call's arguments either
    assert "redacted" in page.split("</header>")[0]


def test_marks_are_moved_onto_the_masked_text(tmp_path):
    page, markdown = _reports(tmp_path, "--redact")
    shown_fake = FAKE.replace(SECRETS["openai-key"], "[REDACTED:openai-key]")
    flagged = ["github-token", "aws-access-key", "slack-token", "google-api-key", "jwt", "anthropic-key"]
    flagged += ["bearer-token", "private-key"]  # each a `secret` finding (an e-mail address is none)
    assert marked_runs(page, 1, "original", "fault") == [shown_fake, *(f"[REDACTED:{name}]" for name in flagged)]
    assert marked_runs(page, 1, "original", "removed") == [shown_fake]
    original = side_text(page, 1, "original")
    assert original.startswith(shown_fake + "Saved. I will mail [REDACTED:email] with token [REDACTED:github-token];")
    assert original.endswith("header [REDACTED:bearer-token].\n[REDACTED:private-key]\nDone.")
    assert "[REDACTED:email]" in marked_runs(page, 1, "original", "redacted")
    # the recovered call shows the masked key; the prose after the fake result is unchanged
    assert (
        marked_runs(page, 1, "repaired", "added")[0]
        == 'save_memory({"memory_type": "fact", "content": "my key is [REDACTED:openai-key]"})'
    )
    assert f"[-{shown_fake}-]Saved. I will mail [REDACTED:email]" in "\n".join(fences(markdown))
    # the broken call's repair: the arguments compared after masking
    assert marked_runs(page, 2, "original", "removed") == ["}"]


def test_names_masked_alike_keep_their_own_rates(tmp_path):
    path = tmp_path / "mailers.json"
    calls = [
        {"id": f"c{i}", "type": "function", "function": {"name": name, "arguments": "{}"}}
        for i, name in enumerate(["ann@example.com", "bob@example.com", "bob@example.com"])
    ]
    path.write_text(
        json.dumps(
            {
                "tools": [{"type": "function", "function": {"name": "send", "parameters": {"type": "object"}}}],
                "messages": [
                    {"role": "user", "content": "go"},
                    {"role": "assistant", "content": "", "tool_calls": calls},
                    *({"role": "tool", "tool_call_id": call["id"], "content": "sent"} for call in calls),
                ],
            }
        )
    )
    out = tmp_path / "r.md"
    assert main(["report", str(path), "--redact", "--markdown", str(out)]) == 0
    rates = [
        row.strip("| ").split(" | ")
        for row in out.read_text(encoding="utf-8").splitlines()
        if row.startswith("| tool ")
    ]
    assert [row[:2] for row in rates] == [[r"tool \[REDACTED:email\]", "1"], [r"tool \[REDACTED:email\] \#2", "2"]]
    assert [row[2:] for row in rates] == [["1 (100.00)"], ["2 (100.00)"]]  # one column: the kind found


HOSTILE = {  # about 100 KB each of what starts a secret and never ends one
    "sk": "sk-" * 40_000,
    "jwt": "eyJa." * 25_000,
    "at": "a@" * 60_000,
    "domain": "a@b." * 30_000,
    "labels": ("x" * 63 + ".") * 2_000,
    "begin": "-----BEGIN PRIVATE KEY-----" * 4_000,
    "bearer": "Bearer " * 20_000,
    "ghp": "ghp_" * 30_000,
    "local": "x" * 120_000 + "@",
}


@pytest.mark.parametrize("hostile", HOSTILE.values(), ids=HOSTILE.keys())
def test_hostile_text_is_redacted_in_linear_time(tmp_path, hostile):
    path = tmp_path / "hostile.json"
    path.write_text(
        json.dumps(
            {
                "messages": [
                    {"role": "user", "content": "go"},
                    {
                        "role": "assistant",
                        "content": '{success: true, memory_type: "fact", content: "' + hostile[:2000] + '"}' + hostile,
                    },
                ],
                "tools": [SAVE_MEMORY],
            }
        )
    )
    started = cpu_time()
    assert main(["report", str(path), "--redact", "--html", str(tmp_path / "r.html")]) == 0
    assert cpu_time() - started < 5


def test_every_pattern_is_listed_in_help_and_docs(capsys):
    with pytest.raises(SystemExit):
        main(["report", "--help"])
    help_text = capsys.readouterr().out
    section = CLI_PAGE.read_text(encoding="utf-8").split("## inspector report")[1].split("\n## ")[0]
    for name in SECRETS:
        assert re.search(rf"^\s+{name}: ", help_text, re.M), name
        assert f"`{name}`" in section, name
