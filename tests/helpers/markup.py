"""What the `tool-markup` tests share: the tools their sessions declare, the one finding of a reply,
a fix re-scanned clean, what a recovered call must be, and a hostile-size reply scanned within a
time limit."""

from __future__ import annotations

import json
import threading
from pathlib import Path

from inspector.cli.main import main
from inspector.detect import detect_findings
from inspector.model import ERROR, Finding
from inspector.sources import load_sessions
from tests.helpers.scanning import findings_of, fix_exit_code

KIND = "tool-markup"


def _tool(name: str, **properties: str) -> dict:
    """An OpenAI function tool `name` whose parameters have the JSON types `properties`."""
    return {
        "type": "function",
        "function": {
            "name": name,
            "parameters": {"type": "object", "properties": {key: {"type": kind} for key, kind in properties.items()}},
        },
    }


TOOLS = [
    _tool("get_weather", city="string", days="integer"),
    _tool("run_code", code="string"),
    _tool("search_files", pattern="string", recursive="boolean", paths="array"),
]
EDIT_FILE = _tool(
    "edit_file", path="string", old_string="string", new_string="string", indent="integer", enabled="boolean"
)
HOSTILE_SCAN_SECONDS = 10  # for a hostile input: quadratic or worse takes minutes


# The fields of a table of single-call leaks: the family named in the message, the reply, the tool
# and arguments recovered, the text removed, and the reply once fixed.
CASE_FIELDS = "family, reply, tool, arguments, removed, cleaned"


def markup_findings(path: Path) -> list[Finding]:
    """The tool-markup findings of the one session in `path`."""
    return findings_of(path, KIND)


def one_finding(write_session, reply, tools=TOOLS, family=None):
    """The one tool-markup finding of a user question then `reply`; its family when `family` is given."""
    path = write_session(
        [
            {"role": "user", "content": "What's the weather in Paris for the next 3 days?"},
            {"role": "assistant", "content": reply},
        ],
        tools,
    )
    findings = markup_findings(path)
    assert len(findings) == 1, findings
    if family is not None:
        assert findings[0].message.startswith(f"Leaked {family} tool-call markup"), findings[0].message
    return findings[0]


def recovered(write_session, reply, family):
    """The calls (name, arguments) the one finding of `reply` (a leak of `family`) recovers, and
    the reply as its fix leaves it."""
    finding = one_finding(write_session, reply, family=family)
    return [(call.name, call.arguments) for call in finding.fix.add_calls], finding.fix.apply_to_text(reply)


def fixed_calls_and_texts(path, tmp_path):
    """`inspector fix --accept tool-markup` on `path`, its output re-scanned clean: the structured
    calls (name, arguments) and the assistant texts of the output."""
    out = tmp_path / "fixed.json"
    assert main(["fix", str(path), "--accept", KIND, "-o", str(out)]) == fix_exit_code(path, [KIND])
    assert markup_findings(out) == []
    messages = json.loads(out.read_text())["messages"]
    calls = [
        (c["function"]["name"], json.loads(c["function"]["arguments"]))
        for m in messages
        for c in m.get("tool_calls") or []
    ]
    return calls, [m["content"] for m in messages if m["role"] == "assistant" and m.get("content")]


def assert_recovered(finding, reply, tool, arguments, span_text, cleaned):
    """One call of `tool` recovered with `arguments`, `span_text` removed, `cleaned` left."""
    assert (finding.turn, finding.severity, finding.executed) == (1, ERROR, False)
    assert (finding.tool, finding.arguments) == (tool, arguments)
    assert reply[slice(*finding.span)] == span_text
    assert finding.fix.apply_to_text(reply) == cleaned
    (call,) = finding.fix.add_calls
    assert (call.name, call.arguments, call.origin) == (tool, arguments, "recovered")


def calls_of(finding):
    """The calls (name, arguments) the finding's fix recovers."""
    return [(call.name, call.arguments) for call in finding.fix.add_calls]


def repeat(unit, size):
    """`unit` repeated to exactly `size` characters."""
    return (unit * (size // len(unit) + 1))[:size]


def assert_scans_fast(tmp_path, reply):
    """The reply, in a session, is scanned within `HOSTILE_SCAN_SECONDS` (in a thread: a regression
    fails clearly instead of hanging); its findings."""
    path = tmp_path / "hostile.json"
    path.write_text(
        json.dumps(
            {"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": reply}], "tools": TOOLS}
        )
    )
    (session,) = load_sessions(path)
    found = []
    worker = threading.Thread(target=lambda: found.append(detect_findings(session)), daemon=True)
    worker.start()
    worker.join(HOSTILE_SCAN_SECONDS)
    assert not worker.is_alive(), f"scanning {len(reply):,} characters took over {HOSTILE_SCAN_SECONDS} s"
    return found[0]
