"""`scan --output-format github`: one workflow command per finding, which GitHub Actions shows as
an annotation on the file and line (`file_places`) in the run and in a pull request's changes:
`::error file=...,line=...,title=...::message`, a `warning` or a `notice` by the finding's
severity; a file that could not be read is an `error` annotation without a line.

What a command's values hold is escaped as the runner reads it (`%`, line breaks, and in the
properties `:` and `,`), after the model's text is neutralised: no value can end its command or
start another one."""

from __future__ import annotations

from collections.abc import Sequence

from inspector.report.file_places import shown_path, turn_lines
from inspector.scan.summary import SessionSummary
from inspector.support.counted_words import counted
from inspector.support.safe_text import neutralise

COMMANDS = {"error": "error", "warning": "warning", "info": "notice"}


def render_github(summaries: Sequence[SessionSummary], errors: Sequence[str] = ()) -> str:
    """The annotations of the scanned sessions, one line each (and a last line counting them)."""
    lines = []
    for summary in summaries:
        path = shown_path(summary.path)
        at = turn_lines(summary.path, [f.turn_id for f in summary.findings if f.turn_id])
        for finding in summary.findings:
            where = (
                f"session {summary.session_id}, turn {finding.turn}" if summary.session_id else f"turn {finding.turn}"
            )
            properties = {
                "file": path,
                "line": str(at.get(finding.turn_id or "", 1)),
                "title": f"inspector: {finding.kind}",
            }
            lines.append(_command(COMMANDS[finding.severity], properties, f"{finding.message} ({where})"))
    lines.extend(_command("error", {"title": "inspector: unreadable"}, error) for error in errors)
    count = sum(len(summary.findings) for summary in summaries)
    lines.append(
        f"inspector: {counted(count, 'finding', 'findings')} in {counted(len(summaries), 'session', 'sessions')}"
    )
    return "\n".join(lines) + "\n"


def _command(name: str, properties: dict[str, str], message: str) -> str:
    shown = ",".join(f"{key}={_property(value)}" for key, value in properties.items())
    return f"::{name} {shown}::{_data(message)}"


def _data(text: str) -> str:
    return neutralise(text).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")
