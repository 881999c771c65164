"""Rates of the schema kinds per 100 tool calls: in the `--json` report, by model and by tool, and
in the text report."""

import json
import subprocess
import sys

from inspector.cli.main import main
from inspector.report.rates import compute_rates
from inspector.scan.scanner import scan_file
from inspector.scan.summary import summarise
from tests.helpers.samples import SESSIONS, TOOL_SAMPLES, copied
from tests.helpers.tools import REFUSED_SEARCH, SAVE_MEMORY, WEB_SEARCH, WHITEBOARD


def summaries_of(path):
    return [summarise(result) for result in scan_file(path)]


def _fifty_calls_one_phantom(write_session):
    messages = [{"role": "user", "content": "Save all of these."}]
    for i in range(50):
        name = "save_memories" if i == 7 else ("whiteboard" if i % 5 == 0 else "save_memory")
        args = {"action": "get"} if name == "whiteboard" else {"memory_type": "fact", "content": f"n{i}"}
        messages.append(
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {"id": f"c{i}", "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}
                ],
            }
        )
        messages.append({"role": "tool", "tool_call_id": f"c{i}", "content": "ok"})
    path = write_session(messages, [SAVE_MEMORY, WHITEBOARD])
    document = json.loads(path.read_text())
    document["model"] = "gpt-4.1"
    path.write_text(json.dumps(document))
    return path


def test_one_phantom_in_fifty_calls_is_two_per_hundred(write_session, capsys):
    path = _fifty_calls_one_phantom(write_session)
    assert main(["scan", "--json", str(path)]) == 1
    report = json.loads(capsys.readouterr().out)
    assert "summary" in report and report["summary"]["by_kind"] == {"unknown-tool": 1}
    total = report["rates"]["total"]
    assert total["calls"] == 50
    assert total["kinds"]["unknown-tool"] == {"count": 1, "per_100_calls": 2.0}
    assert total["kinds"]["wrong-type"] == {"count": 0, "per_100_calls": 0.0}
    assert total["by_model"]["gpt-4.1"]["calls"] == 50
    assert total["by_tool"]["save_memories"]["kinds"]["unknown-tool"]["per_100_calls"] == 100.0
    assert total["by_tool"]["whiteboard"]["calls"] == 10
    (session,) = report["rates"]["sessions"]
    assert session["path"] == str(path) and session["calls"] == 50


def test_recovered_calls_count_and_the_model_is_unknown_when_not_recorded(write_session):
    path = write_session(
        [
            {"role": "user", "content": "Journal it."},
            {"role": "assistant", "content": '{success: true, memory_type: "Journal", content: "Lost the plan"}Saved!'},
        ],
        [SAVE_MEMORY],
    )
    rates = compute_rates(summaries_of(path))["total"]
    assert rates["calls"] == 1  # the call the result-prefix fix recovers
    assert rates["kinds"]["invalid-argument"] == {"count": 1, "per_100_calls": 100.0}
    assert list(rates["by_model"]) == ["unknown"]


def test_no_calls_gives_no_rate():
    rates = compute_rates([])["total"]
    assert rates["calls"] == 0 and rates["kinds"]["unknown-tool"]["per_100_calls"] is None


def test_text_report_ends_with_a_rates_block(write_session, capsys):
    main(["scan", str(_fifty_calls_one_phantom(write_session))])
    out = capsys.readouterr().out
    block = out[out.index("Rates of the kinds about tool calls (count, per 100 tool calls)") :]
    assert "all sessions" in block and "50 calls" in block and "unknown-tool 1 (2.00)" in block
    assert "model gpt-4.1" in block


def _sample_with_a_phantom(tmp_path):
    """The bundled memory-agent sample with its web_search call renamed to a tool it does not define."""
    document = json.loads((SESSIONS / "memory-agent.openai.json").read_text(encoding="utf-8"))
    (call,) = [
        c for m in document["messages"] for c in m.get("tool_calls") or () if c["function"]["name"] == "web_search"
    ]
    call["function"]["name"] = "web_searches"
    path = tmp_path / "memory-agent.openai.json"
    path.write_text(json.dumps(document, indent=2), encoding="utf-8")
    structured = sum(len(m.get("tool_calls") or ()) for m in document["messages"])
    return path, structured


def test_rates_on_a_sample_session_count_its_calls_and_the_planted_phantom(tmp_path):
    path, structured = _sample_with_a_phantom(tmp_path)
    (result,) = scan_file(path)
    recovered = sum(len(f.fix.add_calls) for f in result.findings if f.fix is not None)
    assert (structured, recovered) == (4, 5)  # 4 structured calls, 5 unexecuted save_memory calls in prose
    rates = compute_rates([summarise(result)])["total"]
    assert rates["calls"] == 9
    assert rates["kinds"]["unknown-tool"] == {"count": 1, "per_100_calls": 11.11}
    assert rates["by_model"]["gemini-2.5-flash"]["calls"] == 9
    assert rates["by_tool"]["web_searches"]["kinds"]["unknown-tool"] == {"count": 1, "per_100_calls": 100.0}
    assert rates["by_tool"]["save_memory"]["calls"] == 6


def test_rates_after_the_rename_fix_keep_the_calls_and_drop_the_phantom(tmp_path, capsys):
    path, _ = _sample_with_a_phantom(tmp_path)
    out = tmp_path / "fixed.json"
    assert main(["fix", str(path), "--accept", "unknown-tool", "-o", str(out)]) == 1
    rates = compute_rates(summaries_of(out))["total"]
    assert rates["calls"] == 9 and rates["kinds"]["unknown-tool"]["count"] == 0
    assert "web_searches" not in rates["by_tool"] and rates["by_tool"]["web_search"]["calls"] == 1


def test_rates_of_the_analyst_sample_and_of_its_fixed_copy(tmp_path):
    sample = SESSIONS / "analyst-agent.openai.json"
    document = json.loads(sample.read_text(encoding="utf-8"))
    structured = sum(len(m.get("tool_calls") or ()) for m in document["messages"])
    rates = compute_rates(summaries_of(sample))["total"]
    assert rates["calls"] == structured + 1 == 7  # and the create_chart call leaked as markup
    assert {kind: v["count"] for kind, v in rates["kinds"].items() if v["count"]} == {
        "malformed-arguments": 1,
        "orphan-call": 1,
        "tool-markup": 1,
        "unknown-tool": 1,
        "invalid-argument": 2,
        "unknown-parameter": 1,
        "wrong-type": 1,
        "claimed-success": 1,
    }  # its 2 tool errors are notes of a tool's failure, not rated
    assert rates["kinds"]["invalid-argument"]["per_100_calls"] == 28.57
    assert rates["by_model"]["qwen2.5-72b-instruct"]["calls"] == 7
    assert rates["by_tool"]["send_mail"]["kinds"]["unknown-tool"]["count"] == 1
    out = tmp_path / "fixed.json"
    assert main(["fix", str(sample), "--accept", "all", "-o", str(out)]) == 1
    fixed = compute_rates(summaries_of(out))["total"]
    assert fixed["calls"] == 7  # the claim after the failed email has no fix; every fixed kind is gone
    assert {kind: v["count"] for kind, v in fixed["kinds"].items() if v["count"]} == {"claimed-success": 1}
    assert "send_mail" not in fixed["by_tool"] and fixed["by_tool"]["send_email"]["calls"] == 2


def test_each_name_of_calls_or_findings_has_an_entry_and_those_without_findings_count_zero():
    from inspector.scan.rates import KINDS, Rates

    rates = Rates()
    rates.add("m", "read", None)
    rates.add("m", "read", None)
    rates.add("m", "write", None)
    rates.add("m", "read", "unknown-tool")
    rates.add("other", None, "narrated-action")  # a finding that names no tool, by a model without calls
    report = rates.to_json()
    assert report["calls"] == 3 and list(report["kinds"]) == list(KINDS)
    assert report["kinds"]["unknown-tool"] == {"count": 1, "per_100_calls": 33.33}
    assert report["kinds"]["narrated-action"] == {"count": 1, "per_100_calls": 33.33}
    assert list(report["by_model"]) == ["m", "other"] and list(report["by_tool"]) == ["read", "write"]
    assert report["by_tool"]["read"]["kinds"]["unknown-tool"] == {"count": 1, "per_100_calls": 50.0}
    assert report["by_tool"]["write"] == {
        "calls": 1,
        "kinds": {kind: {"count": 0, "per_100_calls": 0.0} for kind in KINDS},
    }
    other = report["by_model"]["other"]
    assert other["calls"] == 0 and other["kinds"]["narrated-action"] == {"count": 1, "per_100_calls": None}
    assert other["kinds"]["unknown-tool"] == {"count": 0, "per_100_calls": None}
    assert Rates().to_json() == {
        "calls": 0,
        "kinds": {kind: {"count": 0, "per_100_calls": None} for kind in KINDS},
        "by_model": {},
        "by_tool": {},
    }


def test_the_text_report_rates_what_the_agents_got_wrong_and_leaves_out_zero_rates(tmp_path, capsys):
    """The files Claude Code, Codex and Gemini CLI wrote: 13 findings, 10 of them rated (fake results,
    malformed arguments, leaked markup; the 3 tool errors are a tool's failures), each row's kinds
    wrapped between kinds under 100 characters."""
    copied(("claude-code.jsonl", "codex.rollout.jsonl", "gemini-cli.session.jsonl"), TOOL_SAMPLES, tmp_path)
    assert main(["scan", str(tmp_path)]) == 1
    block = capsys.readouterr().out.split("Rates of the kinds about tool calls (count, per 100 tool calls)\n")[1]
    lines = block.splitlines()
    assert lines[:3] == [
        "  all sessions             14 calls: result-prefix 3 (21.43), malformed-arguments 4 (28.57),",
        "                           tool-markup 3 (21.43)",
        "  model claude-sonnet-4-5  5 calls: result-prefix 1 (20.00), malformed-arguments 2 (40.00),",
    ]
    assert "  model gemini-2.5-flash   4 calls: result-prefix 1 (25.00), tool-markup 1 (25.00)" in lines
    assert "(0.00)" not in block and "tool-error" not in block and max(map(len, lines)) <= 100


def test_the_text_report_says_when_no_finding_is_rated(write_session, capsys):
    """A session whose only finding is a tool's error has no finding of a rated kind: its rates
    line says so, not "0 findings"."""
    path = write_session(REFUSED_SEARCH, [WEB_SEARCH])
    assert main(["scan", str(path)]) == 1
    out = capsys.readouterr().out
    assert "(openai, 4 turns, 1 finding)" in out and "info     tool-error  web_search" in out
    block = out.split("Rates of the kinds about tool calls (count, per 100 tool calls)\n")[1]
    assert block.splitlines() == ["  all sessions             1 call: no finding of a kind about tool calls"]


def test_the_reports_leave_out_the_kinds_and_rows_without_a_finding(tmp_path, capsys):
    sample = SESSIONS / "analyst-agent.openai.json"
    main(["scan", str(sample)])
    block = capsys.readouterr().out.split("(count, per 100 tool calls)\n")[1]
    assert "(0.00)" not in block and "mismatched-result" not in block
    assert main(["report", str(sample), "--markdown", str(tmp_path / "r.md")]) == 0
    markdown = (tmp_path / "r.md").read_text(encoding="utf-8")
    table = markdown.split("### Rates of the kinds about tool calls")[1].split("\n\n")[2].splitlines()
    assert table[0] == (
        "|  | calls | malformed-arguments | orphan-call | tool-markup | unknown-tool | invalid-argument "
        "| unknown-parameter | wrong-type | claimed-success |"
    )
    assert [row.split(" | ")[0] for row in table[2:]] == [
        "| all sessions",
        "| model qwen2.5-72b-instruct",
        "| tool create\\_chart",
        "| tool query\\_db",
        "| tool send\\_email",
        "| tool send\\_mail",
    ]
    assert main(["report", str(sample), "--html", str(tmp_path / "r.html")]) == 0
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "unknown-tool</th>" in page and "repeated-call" not in page


def test_the_rated_kinds_are_detectors_kinds_named_without_loading_a_detector():
    from inspector.detect import kinds
    from inspector.scan.rates import KINDS, NOT_RATED

    assert set(NOT_RATED) <= set(kinds()) and tuple(kind for kind in kinds() if kind not in NOT_RATED) == KINDS
    code = "import sys, inspector.scan.rates\nprint(sorted(m for m in sys.modules if m.startswith('inspector.detect')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
