"""`inspector fix`: the repaired file, the audit record, backups, and a clean re-scan."""

import json
import os
import shutil
import stat
from pathlib import Path

from inspector.cli.main import main
from inspector.scan.scanner import scan_file
from inspector.sources import load_sessions
from tests.helpers.rubyllm import build_rubyllm
from tests.helpers.samples import SESSIONS, TOOL_SAMPLES
from tests.helpers.tools import SAVE_MEMORY

MESSAGES = [
    {"role": "system", "content": "You are Ada, a journaling companion."},
    {"role": "user", "content": "Journal this: I finally called my sister after two years."},
    {
        "role": "assistant",
        "content": '{success: true, memory_type: "journal", content: "Called my sister after two years"}'
        "That took courage. How did it feel?",
        "id": "msg_7",
    },
    {"role": "user", "content": "Also remember I'm vegetarian, and that I said so."},
    {
        "role": "assistant",
        "content": "{success: true, memory_type: 'core', content: 'Vegetarian'}\n"
        "{success: true, memory_type: 'fact', content: 'Said so'}\nGot it, both saved.",
    },
]


def test_fix_writes_repaired_session_and_audit_and_leaves_input_alone(write_session, tmp_path, capsys):
    path = write_session(MESSAGES, [SAVE_MEMORY])
    before = path.read_bytes()
    out = tmp_path / "fixed.json"
    assert main(["fix", str(path), "--accept", "all", "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "3 fixes applied" in printed and str(out) in printed
    assert path.read_bytes() == before

    messages = json.loads(out.read_text())["messages"]
    assert [m["role"] for m in messages] == [
        "system",
        "user",
        "assistant",
        "tool",
        "assistant",
        "user",
        "assistant",
        "tool",
        "tool",
        "assistant",
    ]
    recovered = messages[2]["tool_calls"][0]
    assert recovered["function"]["name"] == "save_memory"
    assert json.loads(recovered["function"]["arguments"]) == {
        "memory_type": "journal",
        "content": "Called my sister after two years",
    }
    assert messages[3]["tool_call_id"] == recovered["id"] and "not executed" in messages[3]["content"]
    assert messages[4] == {"role": "assistant", "content": "That took courage. How did it feel?", "id": "msg_7"}
    assert [json.loads(c["function"]["arguments"])["content"] for c in messages[6]["tool_calls"]] == [
        "Vegetarian",
        "Said so",
    ]
    assert messages[9]["content"] == "Got it, both saved."

    (result,) = scan_file(out)
    assert result.findings == []
    calls = [c for t in result.session.turns for c in t.tool_calls]
    assert [c.name for c in calls] == ["save_memory"] * 3

    audit = [json.loads(line) for line in (tmp_path / "fixed.json.audit.ndjson").read_text().splitlines()]
    assert [(a["turn"], a["kind"], a["tool"]) for a in audit] == [
        (2, "result-prefix", "save_memory"),
        (4, "result-prefix", "save_memory"),
        (4, "result-prefix", "save_memory"),
    ]
    assert audit[0]["turn_id"] == "msg_7"
    assert audit[0]["before"] == MESSAGES[2]["content"] and audit[0]["after"] == "That took courage. How did it feel?"
    assert audit[0]["payload"] == {
        "success": True,
        "memory_type": "journal",
        "content": "Called my sister after two years",
    }
    assert audit[0]["recovered_calls"][0]["arguments"]["memory_type"] == "journal"


def test_in_place_keeps_a_backup_and_never_overwrites_an_earlier_one(write_session, capsys):
    path = write_session(MESSAGES, [SAVE_MEMORY])
    original = path.read_bytes()
    assert main(["fix", str(path), "--accept", "result-prefix", "--in-place"]) == 0
    assert path.with_name(path.name + ".bak").read_bytes() == original
    assert scan_file(path)[0].findings == []
    document = json.loads(path.read_text(encoding="utf-8"))  # the agent carries on, and fakes a result again
    document["messages"] += [
        {"role": "user", "content": "And note that I start on Monday."},
        {"role": "assistant", "content": '{success: true, memory_type: "journal", content: "Monday"}Noted.'},
    ]
    path.write_text(json.dumps(document, indent=2), encoding="utf-8")
    carried_on = path.read_bytes()
    assert main(["fix", str(path), "--accept", "all", "--in-place"]) == 0
    assert path.with_name(path.name + ".bak").read_bytes() == original
    assert path.with_name(path.name + ".bak.1").read_bytes() == carried_on
    assert "backup:" in capsys.readouterr().out


def test_in_place_with_nothing_to_fix_leaves_the_file_and_writes_no_backup_nor_audit(write_session, capsys):
    path = write_session(MESSAGES, [SAVE_MEMORY])
    assert main(["fix", str(path), "--accept", "result-prefix", "--in-place"]) == 0
    capsys.readouterr()
    fixed, stamp = path.read_bytes(), path.stat().st_mtime_ns
    beside = sorted(p.name for p in path.parent.iterdir())
    assert main(["fix", str(path), "--accept", "all", "--in-place"]) == 0
    assert path.read_bytes() == fixed and path.stat().st_mtime_ns == stamp
    assert sorted(p.name for p in path.parent.iterdir()) == beside  # no second backup, the audit as it was
    out = capsys.readouterr().out
    assert f"nothing to fix: {path} left as it was (no backup or audit written), no finding left" in out
    assert "backup:" not in out and "wrote" not in out


def test_nothing_to_fix_writes_an_identical_session_and_an_empty_audit(write_session, tmp_path, capsys):
    path = write_session(MESSAGES[:2])
    out = tmp_path / "same.json"
    assert main(["fix", str(path), "--accept", "all", "-o", str(out)]) == 0
    assert json.loads(out.read_text()) == json.loads(path.read_text())
    assert (tmp_path / "same.json.audit.ndjson").read_text() == ""


def test_fix_of_a_kind_not_accepted_changes_nothing(write_session, tmp_path, monkeypatch, capsys):
    import inspector.cli.fix_command as fix_command

    monkeypatch.setattr(fix_command, "kinds", lambda: ["result-prefix", "other-kind"])
    path = write_session(MESSAGES, [SAVE_MEMORY])
    out = tmp_path / "out.json"
    assert main(["fix", str(path), "--accept", "other-kind", "-o", str(out)]) == 1
    assert json.loads(out.read_text()) == json.loads(path.read_text())
    assert len(load_sessions(out)[0].turns) == len(MESSAGES)


def test_written_files_keep_the_usual_permissions(tmp_path):
    source = tmp_path / "memory.json"
    shutil.copy(SESSIONS / "memory-agent.openai.json", source)
    source.chmod(0o640)
    out = tmp_path / "fixed.json"
    assert main(["fix", str(source), "--accept", "all", "-o", str(out)]) == 0
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(out.stat().st_mode) == 0o666 & ~umask
    assert main(["fix", str(source), "--accept", "all", "--in-place"]) == 0
    assert stat.S_IMODE(source.stat().st_mode) == 0o640


def test_fix_says_which_findings_it_left_for_a_person(write_session, tmp_path, capsys):
    messages = [
        *MESSAGES,
        {"role": "user", "content": "And the weather?"},
        {"role": "assistant", "content": "<tool_call>{...}</tool_call>"},
    ]  # nothing to recover, nothing left
    path = write_session(messages, [SAVE_MEMORY])
    assert main(["fix", str(path), "--accept", "all", "-o", str(tmp_path / "fixed.json")]) == 1
    printed = capsys.readouterr().out
    assert (
        f"{path}: 4 findings\n" in printed
        and "3 fixes applied, 1 finding left (no automatic fix: tool-markup 1)" in printed
    )
    assert f"1 finding of the accepted kinds has no automatic fix: review it in the app (inspector {path})" in printed
    assert main(["fix", str(path), "--accept", "result-prefix", "-o", str(tmp_path / "other.json")]) == 1
    assert "no automatic fix" not in capsys.readouterr().out  # the one without a fix is of a kind not accepted


def test_fix_exits_0_once_nothing_is_left_and_1_naming_the_kinds_it_left(tmp_path, capsys):
    source = build_rubyllm(tmp_path / "app.db")  # result-prefix, malformed-arguments and tool-markup, one each
    everything, some = tmp_path / "all.db", tmp_path / "some.db"
    assert main(["fix", str(source), "--accept", "all", "-o", str(everything)]) == 0
    assert f"wrote {everything}: 3 fixes applied, no finding left\n" in capsys.readouterr().out
    assert main(["scan", str(everything)]) == 0
    capsys.readouterr()
    assert main(["fix", str(source), "--accept", "result-prefix", "-o", str(some)]) == 1
    assert (
        f"wrote {some}: 1 fix applied, 2 findings left (not accepted: malformed-arguments 1, tool-markup 1)\n"
        in capsys.readouterr().out
    )


def test_all_leaves_secrets_unmasked_until_they_are_named(write_session, tmp_path, capsys):
    """Masking a secret changes what the agent reads back when it resumes: `--accept all` repairs
    every other kind and names the secret it left; `--accept all,secret` masks it too."""
    token = "ghp_1234567890abcdefghijABCDEFGHIJ123456"
    reply = '{"success": true, "memory_type": "note"}Saved. Your token is ' + token + "."
    path = write_session(
        [{"role": "user", "content": "Note it."}, {"role": "assistant", "content": reply}], [SAVE_MEMORY]
    )
    repaired, shared = tmp_path / "repaired.json", tmp_path / "shared.json"

    assert main(["fix", str(path), "--accept", "all", "-o", str(repaired)]) == 1
    assert "1 fix applied, 1 finding left (not accepted: secret 1)" in capsys.readouterr().out
    assert token in repaired.read_text(encoding="utf-8")

    assert main(["fix", str(path), "--accept", "all,secret", "-o", str(shared)]) == 0
    assert "2 fixes applied, no finding left" in capsys.readouterr().out
    written = shared.read_text(encoding="utf-8")
    assert token not in written and "[REDACTED:github-token]" in written


def test_fix_says_how_many_of_the_fixes_it_applied_are_for_warnings(tmp_path, capsys):
    """Claude Code's cut-off Read call is completed by a guess (a warning), the other malformed call
    repaired for sure: fix applies both and says one was for a warning, where it said nothing."""
    path = Path(shutil.copy(TOOL_SAMPLES / "claude-code.jsonl", tmp_path / "session.jsonl"))
    assert main(["fix", str(path), "--accept", "malformed-arguments", "-o", str(tmp_path / "fixed.jsonl")]) == 1
    printed = capsys.readouterr().out
    assert "2 fixes applied" in printed
    assert (
        "1 of the fixes applied is for a warning (a repair that guessed, such as cut-off arguments completed, "
        "or a finding less sure): check its turn (the audit names each, with its message)\n"
    ) in printed
    assert main(["fix", str(path), "--accept", "tool-markup", "-o", str(tmp_path / "other.jsonl")]) == 1
    assert "for a warning" not in capsys.readouterr().out  # its one fix, a call recovered for sure, is an error's
