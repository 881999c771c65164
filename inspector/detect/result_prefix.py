"""Detector `result-prefix`: an assistant reply that begins with a fake tool result.

Seen with Gemini (seed 000): `{success: true, memory_type: "journal", content: "..."}You saw right
through me.` No tool ran, so stripping the object alone would lose what the user asked to save.
For each leading object the detector infers the tool, decides whether a real call of it ran, and
proposes a fix that strips the object and, when the call did not run, recovers it as a structured
call so the data survives.

Not flagged: a reply that is only objects (a JSON answer), an object later in the text, a brace
that does not open an object (`{1, 2, 3} is a set`), a call object naming a known tool (`{"name":
"get_weather", "parameters": {...}}`: a leaked call, which `tool-markup` recovers), and turns
that are not the assistant's. At
most `MAX_FINDINGS` + 1 leading objects are parsed (a bound against hostile text); past them, a
reply is only objects when the rest is balanced braces to its end (matched, not parsed).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, Iterator

from inspector.detect.context import ScanContext
from inspector.detect.markup.fences import is_leaked_call
from inspector.support.lenient_json import Parsed, only_objects, parse_object_at
from inspector.model import ERROR, RECOVERED, WARNING, Finding, Fix, ToolCall, Turn
from inspector.detect.tool_inference import infer_tool

KIND = "result-prefix"

_SPACE = re.compile(r"\s*")
# Findings per reply at most: each carries the reply's text as its fix leaves it, so 20,000 objects
# run together made a report of 20,000 copies of the reply. The last one says how many were left out.
MAX_FINDINGS = 20


def detect(context: ScanContext) -> Iterator[Finding]:
    """Findings for every assistant turn whose text starts with objects followed by prose."""
    for turn in context.assistant_turns:
        text = turn.text
        if not text.lstrip().startswith("{"):  # the common case: two C calls, no regular expression
            continue
        objects = leading_objects(text, MAX_FINDINGS + 1)
        if not objects or _only_objects(text, objects[-1][1]):
            continue
        results = [found for found in objects[:MAX_FINDINGS] if not is_leaked_call(found[2].value, context.catalogue)]
        for number, (start, removal_end, parsed) in enumerate(results):
            finding = _finding(context, turn, number, start, removal_end, parsed, start == objects[0][0])
            if number == MAX_FINDINGS - 1 and len(objects) > MAX_FINDINGS:
                finding = replace(finding, message=f"{finding.message} The reply starts with more than {MAX_FINDINGS} "
                                  f"objects: only the first {MAX_FINDINGS} are reported (a bound against hostile text).")
            yield finding


def leading_objects(text: str, limit: int) -> list[tuple[int, int, Parsed]]:
    """The objects at the start of `text`, `limit` at most: each with its start, the end of what
    its removal cuts (the object and the white space after it), and the parse."""
    objects: list[tuple[int, int, Parsed]] = []
    position = _SPACE.match(text).end()
    while len(objects) < limit and text.startswith("{", position):
        parsed = parse_object_at(text, position)
        if parsed is None:
            break
        after = _SPACE.match(text, parsed.end).end()
        objects.append((position, after, parsed))
        position = after
    return objects


def _only_objects(text: str, position: int) -> bool:
    """Whether `text` from `position` (just after the objects read) holds nothing but objects run
    together. Past the objects read, their braces are matched in one pass, not parsed (some 15 µs
    an object: 200,000 took 3 s), and only when the text ends with `}`."""
    if position == len(text):
        return True
    return text.rstrip().endswith("}") and only_objects(text, position)


def _finding(context: ScanContext, turn: Turn, number: int, start: int, removal_end: int, parsed: Parsed,
             opens_reply: bool) -> Finding:
    """The finding for one leading object; its removal cuts the white space before it too when it
    opens the reply."""
    obj: dict[str, Any] = parsed.value
    inference = infer_tool(context, obj, turn.position)
    removal = (0 if opens_reply else start, removal_end)
    span = (start, parsed.end)
    syntax = f" It is written with {', '.join(parsed.repairs)}." if parsed.repairs else ""
    if inference.tool is None:
        message = f"Reply starts with an object that looks like a fake tool result; no known tool matches it{inference.note}.{syntax}"
        return Finding(turn.position, turn.id, turn.role, KIND, WARNING, message, span,
                       payload=obj, fix=Fix(remove=(removal,), summary="strip the object (no tool to recover)"))
    if inference.executed:
        message = (f"Reply starts with a copy of a real {inference.tool} result (the call ran at turn "
                   f"{inference.ran_at}); the user sees it as text.{syntax}")
        return Finding(turn.position, turn.id, turn.role, KIND, WARNING, message, span, inference.tool,
                       inference.arguments, obj, True, Fix(remove=(removal,), summary="strip the object; the call already ran"))
    keys = ", ".join(inference.arguments) or "no arguments"
    message = (f"Reply starts with a fake {inference.tool} result; no {inference.tool} call ran, "
               f"so its data ({keys}) would be lost.{syntax}")
    call = ToolCall(f"call_inspector_{turn.position}_{number}", inference.tool, inference.arguments,
                    inference.arguments, RECOVERED)
    fix = Fix(remove=(removal,), add_calls=(call,),
              summary=f"strip the object and recover the call {inference.tool}({keys}), marked not executed")
    return Finding(turn.position, turn.id, turn.role, KIND, ERROR, message, span, inference.tool,
                   inference.arguments, obj, False, fix)
