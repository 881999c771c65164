"""What each tool of the MCP server answers, as JSON values (the tools' structured content): plain
functions over the library, so they are the same whatever the transport. Each reads, none writes;
bad input is an `InspectorError` whose one line the server sends back as the tool's error."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from inspector.errors import InspectorError
from inspector.guard.reply_check import check_reply as checked_reply
from inspector.report.json_report import build_report, finding_to_json
from inspector.scan.scanner import iter_scan
from inspector.scan.summary import SessionSummary, summarise
from inspector.sources import folder_sessions, no_sessions_in, open_source
from inspector.sources.discovery import discover
from inspector.support.safe_text import shown_name

LATEST = "latest"  # the session path that means the person's newest session, of any agent
_LISTED_AT_MOST = 200  # sessions `list_sessions` returns, newest first


def check_reply(
    text: str,
    tools: Sequence[dict[str, Any]] | None = None,
    calls: Sequence[dict[str, Any]] | None = None,
    results: Sequence[dict[str, Any] | str] | None = None,
) -> dict[str, Any]:
    """The check of one reply: whether it is ok, its findings, the reply repaired, the calls
    recovered from its text (never run) and what to tell the model."""
    check = checked_reply(text, tools=tools, calls=calls, results=results)
    return {
        "ok": check.ok,
        "findings": [finding_to_json(finding, None) for finding in check.findings],
        "repaired_text": check.text,
        "recovered_calls": [{"name": call.name, "arguments": call.arguments} for call in check.calls],
        "reason": check.reason,
    }


def list_sessions(agent: str | None = None, since: str | None = None) -> dict[str, Any]:
    """The person's own sessions where each agent keeps them, newest first (at most 200): those of
    `agent` (its name, any case) and modified at or after `since` (ISO 8601, UTC unless it says)."""
    found = discover()
    if agent:
        found = [session for session in found if session.tool.casefold() == agent.casefold()]
    if since:
        after = _moment(since)
        found = [session for session in found if session.modified >= after]
    return {
        "sessions": [
            {
                "agent": session.tool,
                "path": str(session.path),
                "project": session.project,
                "modified": datetime.fromtimestamp(session.modified, UTC).isoformat(timespec="seconds"),
                "size": session.size,
            }
            for session in found[:_LISTED_AT_MOST]
        ],
        "more": max(0, len(found) - _LISTED_AT_MOST),
    }


def scan_session(path: str) -> dict[str, Any]:
    """The scan report of a session file, a folder of them or a history database (`latest`: the
    person's newest session), as `inspector scan --json` writes it."""
    summaries: list[SessionSummary] = []
    errors: list[str] = []
    for file in _files(path):
        try:
            summaries.extend(summarise(result) for result in iter_scan(open_source(file)))
        except InspectorError as error:
            errors.append(str(error))
    return build_report(summaries, errors)


def findings(session: str, kind: str | None = None) -> dict[str, Any]:
    """The findings of a session (its path, or `latest`), each with its proposed fix; only those of
    `kind` when given."""
    report = scan_session(session)
    for entry in report["sessions"]:
        entry["findings"] = [finding for finding in entry["findings"] if kind in (None, finding["kind"])]
    return {"sessions": report["sessions"], "errors": report["errors"]}


def _files(path: str) -> list[Path]:
    if path == LATEST:
        found = discover()
        if not found:
            raise InspectorError("no sessions of your own found: give a session's path")
        return [found[0].path]
    named = Path(path).expanduser()
    if named.is_dir():
        files = folder_sessions(named)
        if not files:
            raise InspectorError(no_sessions_in(named))
        return files
    if not named.exists():
        raise InspectorError(f"{shown_name(named)}: no such file or directory")
    if not named.is_file():  # a pipe would wait for a writer, or read the server's own input
        raise InspectorError(f"{shown_name(named)}: not a regular file or folder, which are all the server reads")
    return [named]


def _moment(text: str) -> float:
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise InspectorError(f"since: not a date and time in ISO 8601 ({text!r})") from None
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).timestamp()
