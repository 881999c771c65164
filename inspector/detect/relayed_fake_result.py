"""Detector `relayed-fake-result`: a subagent's answer, handed back to the agent that delegated to
it, that opens with a fake tool result.

A subagent that wrote a tool's result instead of calling the tool (`{"file_path": "notes.txt",
"content": "..."}notes.txt says ...`) has that object flagged in its own transcript
(`result-prefix`); the agent above it sees only the answer, and tells the person what it holds as
if a tool had read or saved it. This flags the answer where the agent received it (each agent's
way of handing one back: `handed_back`), so that a scan of the main session alone shows it. No
fix: what the agent told the person from it is for the person to weigh.

Flagged: an answer whose text opens with an object (as `result-prefix` reads one, lenient JSON)
followed by other text. Not flagged: an answer that is only JSON (objects or a list after it), an
answer with text before the object, the notice of a subagent started in the background, and a
notification saying the subagent ran tools.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from inspector.detect.context import ScanContext
from inspector.detect.contract import Detector
from inspector.detect.handed_back import handed_back
from inspector.model import WARNING, Finding, Turn
from inspector.support.lenient_json import parse_object_at

KIND = "relayed-fake-result"
_KEYS_SHOWN = 4


def detect(context: ScanContext) -> Iterator[Finding]:
    """Findings for every subagent's answer handed back that opens with a fake tool result."""
    for handed in handed_back(context):
        fake = _fake_at_start(handed.answer)
        if fake is not None:
            place = handed.place
            span = None if place is None else (place(fake[0]), place(fake[1]))
            yield _finding(handed.turn, handed.tool, fake[2], span, handed.tools_ran)


def _fake_at_start(answer: str) -> tuple[int, int, dict[str, Any]] | None:
    """Where the object an answer opens with starts and ends, and the object, when other text
    follows it; None for anything else."""
    start = len(answer) - len(answer.lstrip())
    if not answer.startswith("{", start):
        return None
    parsed = parse_object_at(answer, start)
    if parsed is None or not isinstance(parsed.value, dict) or not parsed.value:
        return None
    rest = answer[parsed.end :].lstrip()
    if not rest or rest.startswith(("{", "[")):
        return None  # a JSON answer (or objects run together)
    return start, parsed.end, parsed.value


def _finding(turn: Turn, tool: str, obj: dict[str, Any], span: tuple[int, int] | None, known: str) -> Finding:
    keys = list(obj)
    shown = ", ".join(map(str, keys[:_KEYS_SHOWN])) + (", ..." if len(keys) > _KEYS_SHOWN else "")
    message = (
        f"The answer the {tool} subagent handed back opens with an object that looks like a fake tool result "
        f"({shown}) before its text; {known}. A subagent that wrote a result instead of calling the tool made "
        "its data up, and what the agent tells the person from it rests on nothing."
    )
    return Finding.at(turn, KIND, WARNING, message, span, tool, payload=obj)


DETECTOR = Detector(KIND, WARNING, detect)
