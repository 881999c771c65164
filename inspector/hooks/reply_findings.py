"""The findings of the last reply: the new lines of a Claude Code transcript read by the
`claude-code` format's reader (or a session another agent's hook read), and the detectors of
the kinds checked run on the thread.

Only that reader and those detectors are imported (each kind's detector is the module of
`inspector.detect` named after it), not the registries of every format and every detector: the
hook runs at the end of every reply.

Only the findings in the turns after the last prompt a person wrote (the reply, with its calls
and their results) are kept: what came before was the previous replies', checked then.
"""

from __future__ import annotations

from importlib import import_module

from inspector.catalogue import build_catalogue
from inspector.detect.context import ScanContext
from inspector.detect.contract import Detector
from inspector.hooks.screen import is_notification
from inspector.model import USER, Finding, Session
from inspector.sources.files.document import parse_document
from inspector.sources.formats import claude_code


def reply_findings(path: str, lines: bytes, kinds: tuple[str, ...], agent_id: str | None) -> list[Finding]:
    """The findings of `kinds` in the last reply of the thread these transcript lines hold: the
    main thread, or the subagent `agent_id`'s."""
    session = _thread(claude_code.read(parse_document(path, lines)), agent_id)
    return [] if session is None else last_reply_findings(session, kinds)


def last_reply_findings(session: Session, kinds: tuple[str, ...]) -> list[Finding]:
    """The findings of `kinds` in the session's turns after the last prompt a person wrote."""
    reply_start = _reply_start(session)
    context = ScanContext(session, build_catalogue(session))
    return [
        finding
        for detector in detectors_of(kinds)
        for finding in detector.detect(context)
        if finding.turn >= reply_start
    ]


def detectors_of(kinds: tuple[str, ...]) -> list[Detector]:
    """The detector of each kind, imported alone from the module named after it."""
    return [import_module(f"inspector.detect.{kind.replace('-', '_')}").DETECTOR for kind in kinds]


def _thread(sessions: list[Session], agent_id: str | None) -> Session | None:
    """The main thread's session, or the subagent's (the last one when none is named after it)."""
    if agent_id is None:
        return next((session for session in sessions if "/" not in (session.session_id or "")), None)
    named = [session for session in sessions if (session.session_id or "").endswith(f"/agent-{agent_id}")]
    chosen = named or sessions
    return chosen[-1] if chosen else None


def _reply_start(session: Session) -> int:
    """The position just after the last prompt a person wrote (a user turn with text and no
    results, not Claude Code's notice of a subagent's answer, which the reply goes on from); 0
    when the lines hold none."""
    prompts = [
        turn.position
        for turn in session.turns
        if turn.role == USER and turn.text and not turn.tool_results and not is_notification(turn.text)
    ]
    return prompts[-1] + 1 if prompts else 0
