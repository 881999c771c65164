"""`scan --output-format junit`: the scan as a JUnit XML report, which CI systems show as test
results. A test suite per file (its sessions grouped), a test case per session that fails when
the session holds a finding of severity error or warning (each finding a line of the failure's
text; notes alone pass), and a suite `unreadable` whose cases are the files that could not be
read, each an `error`. The shape is the Ant JUnit schema's, which the CI systems read.

Every text is neutralised first (`support.safe_text`): what the model wrote becomes visible
escapes, so the XML holds no character XML cannot hold."""

from __future__ import annotations

import platform
import xml.etree.ElementTree as ElementTree
from collections.abc import Sequence
from datetime import datetime

from inspector.model import ERROR, WARNING, Finding
from inspector.report.file_places import shown_path
from inspector.scan.summary import SessionSummary
from inspector.support.safe_text import neutralise

_FAILING = (ERROR, WARNING)


def render_junit(summaries: Sequence[SessionSummary], errors: Sequence[str] = (), now: datetime | None = None) -> str:
    """The JUnit XML report of the scanned sessions (and of the files that could not be read)."""
    stamp = (now or datetime.now()).replace(microsecond=0, tzinfo=None).isoformat()
    root = ElementTree.Element("testsuites")
    by_file: dict[str, list[SessionSummary]] = {}
    for summary in summaries:
        by_file.setdefault(shown_path(summary.path), []).append(summary)
    for path, sessions in by_file.items():
        cases = [_session_case(path, summary) for summary in sessions]
        _suite(root, path, cases, stamp)
    if errors:
        cases = [_case(_text(error), "unreadable", "error", "unreadable", _text(error)) for error in errors]
        _suite(root, "unreadable", cases, stamp)
    ElementTree.indent(root)
    return ElementTree.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def _suite(root: ElementTree.Element, name: str, cases: list[ElementTree.Element], stamp: str) -> None:
    suite = ElementTree.SubElement(
        root,
        "testsuite",
        package="inspector",
        id=str(len(root)),
        name=_text(name),
        timestamp=stamp,
        hostname=_text(platform.node() or "localhost"),
        tests=str(len(cases)),
        failures=str(sum(case.find("failure") is not None for case in cases)),
        errors=str(sum(case.find("error") is not None for case in cases)),
        time="0",
    )
    ElementTree.SubElement(suite, "properties")
    suite.extend(cases)
    ElementTree.SubElement(suite, "system-out")
    ElementTree.SubElement(suite, "system-err")


def _session_case(path: str, summary: SessionSummary) -> ElementTree.Element:
    name = _text(summary.session_id or path)
    failing = [finding for finding in summary.findings if finding.severity in _FAILING]
    if not failing:
        return _case(name, summary.format)
    kinds = ", ".join(sorted({finding.kind for finding in failing}))
    count = f"{len(failing)} finding{'s' if len(failing) != 1 else ''}"
    return _case(name, summary.format, "failure", kinds, f"{count}: {kinds}", "\n".join(map(_line, failing)))


def _case(
    name: str, classname: str, outcome: str = "", kind: str = "", message: str = "", text: str = ""
) -> ElementTree.Element:
    case = ElementTree.Element("testcase", name=name or "session", classname=_text(classname), time="0")
    if outcome:
        ElementTree.SubElement(case, outcome, type=kind, message=_text(message)).text = text
    return case


def _line(finding: Finding) -> str:
    return _text(f"turn {finding.turn}: {finding.severity} {finding.kind}: {finding.message}")


def _text(text: str) -> str:
    """`text` with nothing XML cannot hold (controls, lone surrogates, U+FFFE and U+FFFF escaped)."""
    return neutralise(text).replace("\ufffe", "\\ufffe").replace("\uffff", "\\uffff")
