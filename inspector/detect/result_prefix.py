"""Detector `result-prefix`: an assistant reply that begins with a fake tool result.

Seen with Gemini: `{success: true, memory_type: "journal", content: "..."}You saw right
through me.` No tool ran, so stripping the object alone would lose what the user asked to save.
For each leading object the detector infers the tool, decides whether a real call of it ran, and
proposes a fix that strips the object and, when the call did not run, recovers it as a structured
call so the data survives. One recovery per call the model meant: when the same reply leaks that
call as markup and `tool-markup` recovers it holding every argument the object holds, the object is
only stripped (recovering it too would record the call twice: `inspector fix --accept all` applies
both fixes, and identical or not, two calls cannot be told apart later); a result holding anything
that call lacks is another call, and is recovered, under an id apart from tool-markup's. This is
decided here rather than by dropping identical calls when fixes are applied, since a fake result
rarely repeats every argument of its call (so identical calls would miss most repeats), and two
identical calls leaked in one reply may be two calls the model meant.

Not flagged: a reply that is only objects (a JSON answer), an object later in the text, a brace
that does not open an object (`{1, 2, 3} is a set`), a call object naming a known tool (`{"name":
"get_weather", "parameters": {...}}`: a leaked call, which `tool-markup` recovers), and turns
that are not the assistant's. Objects in thinking that began in the prompt (the reply's text
opens in it, and a `</think>` with no opening tag ends it, as `markup.thinking` reads it) are the
model thinking, not a result the user sees: when the reply makes no call, the first that looks like
a result of a call that did not run gets a note (info, no fix), as `tool-markup` notes a drafted
call, since the call the model meant may have been lost. At
most `MAX_FINDINGS` + 1 leading objects are parsed (a bound against hostile text); past them, a
reply is only objects when the rest is balanced braces to its end (matched, not parsed).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from itertools import compress
from operator import attrgetter, methodcaller
from typing import Any

from inspector.detect.context import ScanContext
from inspector.detect.contract import Detector
from inspector.detect.made_calls import holds
from inspector.detect.markup import thinking_in, type_by_schema
from inspector.detect.markup.fences import is_leaked_call
from inspector.detect.tool_inference import infer_tool
from inspector.detect.tool_markup import recovered_calls
from inspector.model import ERROR, INFO, RECOVERED, WARNING, Finding, Fix, ToolCall, Turn
from inspector.support.leading_space import SPACE
from inspector.support.lenient_json import Parsed, only_objects, parse_object_at

KIND = "result-prefix"

# Findings per reply at most: each carries the reply's text as its fix leaves it, so 20,000 objects
# run together made a report of 20,000 copies of the reply. The last one says how many were left out.
MAX_FINDINGS = 20
_TEXT = attrgetter("text")
_OPENS_OBJECT = methodcaller("startswith", "{")


def detect(context: ScanContext) -> Iterator[Finding]:
    """Findings for every assistant turn whose text starts with objects followed by prose."""
    turns = context.assistant_turns
    # The replies opening with `{` (after white space), told apart in C with no Python step a reply.
    for turn in compress(turns, map(_OPENS_OBJECT, map(str.lstrip, map(_TEXT, turns)))):
        text = turn.text
        objects = leading_objects(text, MAX_FINDINGS + 1)
        if not objects or _only_objects(text, objects[-1][1]):
            continue
        results = [found for found in objects[:MAX_FINDINGS] if not is_leaked_call(found[2].value, context.catalogue)]
        thought = _prompt_thinking_end(text) if results else 0
        if thought:
            note = _thinking_note(context, turn, [found for found in results if found[0] < thought])
            if note is not None:
                yield note
            results = [found for found in results if found[0] >= thought]
        markup = recovered_calls(context, turn) if results else ()
        for number, (start, removal_end, parsed) in enumerate(results):
            finding = _finding(context, turn, number, (start, removal_end), parsed, start == objects[0][0], markup)
            if number == MAX_FINDINGS - 1 and len(objects) > MAX_FINDINGS:
                finding = replace(
                    finding,
                    message=f"{finding.message} The reply starts with more than {MAX_FINDINGS} "
                    f"objects: only the first {MAX_FINDINGS} are reported (a bound against hostile text).",
                )
            yield finding


def _prompt_thinking_end(text: str) -> int:
    """Where thinking that began in the prompt ends in `text` (the first closing tag, with no
    opening one before it: the chat template opened it); 0 when the text does not start thinking."""
    spans = thinking_in(text)
    return spans[0].inner_end if spans and spans[0].inner_start == 0 else 0


def _thinking_note(context: ScanContext, turn: Turn, thought: list[tuple[int, int, Parsed]]) -> Finding | None:
    """A note, with no fix, for the first of the objects that open thinking begun in the prompt
    that looks like a result of a call that did not run, when the reply makes no call (none since
    the user's message): thinking is not a fake result shown to the user, but the call the model
    meant may have been lost. None otherwise."""
    if not thought or context.called_in_exchange(turn.position):
        return None
    for start, _, parsed in thought:
        inference = infer_tool(context, parsed.value, turn.position)
        if inference.tool is not None and not inference.executed:
            message = (
                f"The model's thinking (begun in the prompt: the reply's closing tag ends it) opens with an "
                f"object that looks like a {inference.tool} result, and the reply makes no call. Thinking is "
                "not the reply, so nothing is stripped or recovered; if the model meant to call "
                f"{inference.tool}, the call was lost."
            )
            return Finding.at(
                turn, KIND, INFO, message, (start, parsed.end), inference.tool, inference.arguments, parsed.value
            )
    return None


def leading_objects(text: str, limit: int) -> list[tuple[int, int, Parsed]]:
    """The objects at the start of `text`, `limit` at most: each with its start, the end of what
    its removal cuts (the object and the white space after it), and the parse."""
    objects: list[tuple[int, int, Parsed]] = []
    position = SPACE.match(text).end()
    while len(objects) < limit and text.startswith("{", position):
        parsed = parse_object_at(text, position)
        if parsed is None:
            break
        after = SPACE.match(text, parsed.end).end()
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


def _finding(
    context: ScanContext,
    turn: Turn,
    number: int,
    removed: tuple[int, int],
    parsed: Parsed,
    opens_reply: bool,
    markup: tuple[ToolCall, ...],
) -> Finding:
    """The finding for one leading object, `removed` what its removal cuts (the white space before
    it too when it opens the reply). `markup`: the calls `tool-markup` recovers from the same reply;
    a fake result of one of them recovers nothing more (the call would be recorded twice)."""
    obj: dict[str, Any] = parsed.value
    inference = infer_tool(context, obj, turn.position)
    removal = (0 if opens_reply else removed[0], removed[1])
    span = (removed[0], parsed.end)
    syntax = f" It is written with {', '.join(parsed.repairs)}." if parsed.repairs else ""
    if inference.tool is None:
        which = f"which tool's is not certain{inference.note}" if inference.note else "no known tool matches it"
        message = f"Reply starts with an object that looks like a fake tool result; {which}.{syntax}"
        return Finding.at(
            turn,
            KIND,
            WARNING,
            message,
            span,
            payload=obj,
            fix=Fix(remove=(removal,), summary="strip the object (no tool to recover)"),
        )
    if inference.executed:
        message = (
            f"Reply starts with a copy of a real {inference.tool} result (the call ran at turn "
            f"{inference.ran_at}); the user sees it as text.{syntax}"
        )
        return Finding.at(
            turn,
            KIND,
            WARNING,
            message,
            span,
            inference.tool,
            inference.arguments,
            obj,
            True,
            Fix(remove=(removal,), summary="strip the object; the call already ran"),
        )
    keys = ", ".join(inference.arguments) or "no arguments"
    if _answers_leaked_call(context, inference.tool, inference.arguments, markup):
        message = (
            f"Reply starts with a fake {inference.tool} result; no {inference.tool} call ran, but the same "
            f"reply leaks that call as markup, which tool-markup recovers with these arguments ({keys}): "
            f"only the object is stripped, so the call is not recorded twice.{syntax}"
        )
        fix = Fix(remove=(removal,), summary=f"strip the object; tool-markup recovers the {inference.tool} call")
        return Finding.at(turn, KIND, WARNING, message, span, inference.tool, inference.arguments, obj, False, fix)
    message = (
        f"Reply starts with a fake {inference.tool} result; no {inference.tool} call ran, "
        f"so its data ({keys}) would be lost.{syntax}"
    )
    # Apart from tool-markup's ids (`call_inspector_<turn>_<block>`) when the reply leaks calls too.
    call_id = f"call_inspector_{turn.position}_{'result_' if markup else ''}{number}"
    call = ToolCall(call_id, inference.tool, inference.arguments, inference.arguments, RECOVERED)
    fix = Fix(
        remove=(removal,),
        add_calls=(call,),
        summary=f"strip the object and recover the call {inference.tool}({keys}), marked not executed",
    )
    return Finding.at(turn, KIND, ERROR, message, span, inference.tool, inference.arguments, obj, False, fix)


def _answers_leaked_call(
    context: ScanContext, tool: str, arguments: dict[str, Any], markup: tuple[ToolCall, ...]
) -> bool:
    """Whether a fake result of `tool` with `arguments` answers a call leaked in the same reply:
    one of `markup` of that tool holding every one of those arguments (typed by the tool's schema,
    as markup values are), so recovering the result's call would add nothing but a second call. A
    result holding an argument that call lacks or gives another value is another call, recovered."""
    leaked = [call for call in markup if call.name == tool]
    if not leaked:
        return False  # (most often: the reply leaks no call, so the arguments need no typing)
    spec = context.catalogue.get(tool)
    typed = type_by_schema(arguments, spec.properties) if spec is not None else arguments
    return any(holds(call, typed) for call in leaked)


DETECTOR = Detector(KIND, ERROR, detect)
