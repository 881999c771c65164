"""Detector `tool-markup`: tool-call markup that leaked into an assistant's visible text.

When a server has no parser for a model's call format, or the model writes it slightly wrong, the
raw call stays in the text and nothing runs. For each leaked block the
detector names the tool, parses the arguments, and proposes a fix that removes the block (with a
`TOOL CALL:` marker line before it and the white space after it) and recovers each call as a
structured call marked not executed, as the result-prefix fix does (a warning that says the repair
guessed when the end of the reply cut the call off and it was completed). Placeholder or unparseable
arguments give a strip-only fix that says so, as long as something of the reply remains: a reply
that is nothing but such markup (no prose, no call of its own, no call recovered from another
block) keeps its finding without a fix, since stripping would leave an empty message (which the
Anthropic and Gemini APIs reject) and lose what the person saw; it is for a person to edit. At
most `MAX_FINDINGS` blocks a reply are read and reported (a bound against hostile text): when there
are more, stripping those leaves the unread rest, so the reply is never left empty by them. Markup
inside the model's thinking left in the text (`<think>...</think>`) is a draft, never a call:
when the reply makes no call at all (no structured call since the user's message), the first draft
gets a note (info, no fix), since a server may have left a real call unparsed there. A leaked call
that the reply also makes as a structured call with the same arguments (repaired, when its stored
JSON is broken, as `malformed-arguments` repairs it) is stripped, not recovered: it would be
recorded twice. The family parsers live in the `markup` package.

Only assistant turns are read, and only those holding a literal marker (or that open or end with an
object, or are one list):
a test for the characters every marker holds, then one compiled regular expression search,
before anything is parsed.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from itertools import compress
from operator import attrgetter
from typing import Any, NamedTuple

from inspector.detect.context import ScanContext
from inspector.detect.contract import Detector
from inspector.detect.made_calls import Made, is_made, structured_calls
from inspector.detect.markup import START_PATTERN, Block, drafted_block, find_blocks, thinking_in
from inspector.detect.markup.fences import ARRAY_START, may_name_a_tool
from inspector.detect.markup.glm_first import FENCE_CALL
from inspector.detect.markup.pythonic import LIST_START
from inspector.detect.markup.schema_values import Coercion, coercions_note, typed_by_schema, typed_text_values
from inspector.detect.markup.xlam import may_be_call_list
from inspector.model import ERROR, INFO, RECOVERED, WARNING, Finding, Fix, ToolCall, Turn, remove_spans
from inspector.support.lazy_pattern import lazy_pattern
from inspector.support.leading_space import SPACE, content_start

KIND = "tool-markup"

# Every family's start marker, a fence whose language may hold a call, a pythonic list's `[name(`,
# or `[{"name":`.
_MARKERS = lazy_pattern(START_PATTERN + r"|```[ \t]*(?:tool_c|json|tool\b)|" + LIST_START + "|" + ARRAY_START)
# A line that opens or closes a plain fence, and what a text holding one needs for any block to be
# read in it that no other part of the prefilter lets through (an object, a call named by its keys,
# ChatGLM3's `tool_call(`): a fence of prose or code without them, as coding agents' replies
# hold, is passed over.
_PLAIN_FENCE = lazy_pattern(r"```[ \t]*\n")
_CALL_HINTS = ("{", "arguments", "parameters", FENCE_CALL)
_MARKER_LINE = lazy_pattern(r"(?:^|\n)[ \t]*(?:\*\*)?TOOL CALL:(?:\*\*)?[ \t]*\n[ \t]*\Z")
# What every closing tag of thinking left in the text ends with.
_THINKING_ENDS = ("think>", "THINK]", "think▷")
# Findings per reply at most: each carries the reply's text as its fix leaves it, so 80,000 blocks
# made a report of 80,000 copies of the reply, and reading them all took seconds. Reading stops at
# the block after these; the last finding says that there are more.
MAX_FINDINGS = 20
_TEXT = attrgetter("text")


def detect(context: ScanContext) -> Iterator[Finding]:
    """A finding for each leaked tool-call block in each assistant turn, in order."""
    for turn in _replies_that_may_hold_markup(context).values():
        blocks = _blocks(context, turn)
        if blocks:
            yield from _turn_findings(context, turn, blocks)
        elif (note := _draft_note(context, turn)) is not None:
            yield note


def recovered_calls(context: ScanContext, turn: Turn) -> tuple[ToolCall, ...]:
    """The calls this detector's fixes recover from `turn`'s text, in order (none when it leaks
    no call): what `result-prefix` compares a fake result in the same reply with."""
    if _replies_that_may_hold_markup(context).get(id(turn)) is not turn:
        return ()
    blocks = _blocks(context, turn)[:MAX_FINDINGS]
    made = _made(turn, blocks)
    return tuple(
        call for number, block in enumerate(blocks) for call in _recovered(context, turn, number, block, made).calls
    )


def _replies_that_may_hold_markup(context: ScanContext) -> dict[int, Turn]:
    """The assistant's replies `_may_hold_markup` lets through, by id, in order: one pass over every
    reply a scan, shared with `result-prefix` (which asks first, for the replies opening with objects)."""

    def passing() -> dict[int, Turn]:
        turns = context.assistant_turns
        return {id(turn): turn for turn in compress(turns, map(_may_hold_markup, map(_TEXT, turns)))}

    return context.memo("replies that may hold tool-call markup", passing)


def _blocks(context: ScanContext, turn: Turn) -> list[Block]:
    """The blocks `find_blocks` reads in the turn's text, read once a scan: `result-prefix` asks
    for a reply's recovered calls before this detector runs over the same reply."""
    read: dict[int, tuple[Turn, list[Block]]] = context.memo("tool-markup blocks", dict)
    kept = read.get(id(turn))
    if kept is not None and kept[0] is turn:  # (the turn is kept too: its id is never another's)
        return kept[1]
    blocks = find_blocks(turn.text, context.catalogue, MAX_FINDINGS)
    read[id(turn)] = (turn, blocks)
    return blocks


def _may_hold_markup(text: str) -> bool:
    """The prefilter: a literal marker (the characters every marker holds, then one search), a
    plain fence with what a call needs (`_CALL_HINTS`), an object opening the text that may be a
    call, or a list that may be the whole reply (neither parsed here, nor the reply copied)."""
    # Every marker, fence, list and object below holds one of these characters, which prose seldom
    # does: five one-character searches rule out most replies before any other test.
    if not ("<" in text or "[" in text or "`" in text or "{" in text or ">" in text):
        return False
    # (`{` and `>` first: a one-character search is far quicker, and prose seldom holds either.)
    if (
        "<" in text
        or "[" in text
        or "`" in text
        or ("{" in text and "functools{" in text)
        or (">" in text and ">>>" in text)
    ) and _MARKERS.search(text):
        return True
    if "```" in text and _PLAIN_FENCE.search(text) and any(hint in text for hint in _CALL_HINTS):
        return True
    # A list that fills the reply ends with `]` (or white space after it), an object opening it
    # starts with `{` (or white space before it): two characters rule both out for most replies.
    first, last = text[0], text[-1]
    return (
        ((last == "]" or last.isspace()) and may_be_call_list(text))
        or ((first == "{" or first.isspace()) and _opens_with_call_object(text))
        or ("{" in text and _opens_with_call_object_after_thinking(text))
        or ((last == "}" or last.isspace()) and _may_end_with_call_object(text))
        or ((last == "`" or last.isspace()) and _may_end_with_call_fence(text))
    )


def _turn_findings(context: ScanContext, turn: Turn, blocks: list[Block]) -> Iterator[Finding]:
    """The findings of the blocks read in one reply (`MAX_FINDINGS` + 1 at most: the last only
    says that there are more)."""
    text = turn.text
    more = len(blocks) > MAX_FINDINGS
    blocks = blocks[:MAX_FINDINGS]
    ending = _ending_blocks(text, blocks)
    spans = [removal_span(text, block, number >= ending) for number, block in enumerate(blocks)]
    made = _made(turn, blocks)
    recovered = [_recovered(context, turn, number, block, made) for number, block in enumerate(blocks)]
    nothing_left = not (turn.tool_calls or any(r.calls for r in recovered) or remove_spans(text, spans).strip())
    for number, block in enumerate(blocks):
        finding = _finding(turn, block, spans[number], recovered[number], nothing_left)
        if more and number == MAX_FINDINGS - 1:
            finding = replace(
                finding,
                message=f"{finding.message} The reply holds more than {MAX_FINDINGS} leaked "
                f"blocks: only the first {MAX_FINDINGS} are reported, and the rest of the reply is "
                "not read (a bound against hostile text).",
            )
        yield finding


def _ending_blocks(text: str, blocks: list[Block]) -> int:
    """The index of the first of the blocks that end the text (only white space between them)."""
    tail = len(text)
    for index in range(len(blocks) - 1, -1, -1):
        if text[blocks[index].end : tail].strip():
            return index + 1
        tail = blocks[index].start
    return 0


def removal_span(text: str, block: Block, ends_text: bool) -> tuple[int, int]:
    """What removing `block` cuts: a `TOOL CALL:` marker line before it, the block, and the white
    space after it; for a block that ends the text, alone or with other blocks after it, the white
    space before it instead (and, for the last, the white space after it)."""
    start = block.start
    marker = _MARKER_LINE.search(text, max(0, start - 40), start)
    if marker is not None:
        start = marker.start() + (1 if text.startswith("\n", marker.start()) else 0)
    end = SPACE.match(text, block.end).end()
    if ends_text:
        start = len(text[:start].rstrip())
        if end < len(text):  # another block follows: the white space before it is its own
            end = block.end
    return start, end


def _typed(
    name: str, arguments: dict[str, Any], text_values: bool, context: ScanContext
) -> tuple[dict[str, Any], list[Coercion]]:
    """A recovered call's arguments typed by the tool's schema, in the one place markup values are,
    with the changes made; kept as written when the tool is not known (`schema_values`)."""
    if text_values:
        return typed_text_values(name, arguments, context.catalogue)
    spec = context.catalogue.get(name)
    return typed_by_schema(arguments, spec.properties) if spec is not None else (arguments, [])


class Recovery(NamedTuple):
    """What a block's fix recovers: its calls, the names of those it leaves out because the
    reply already makes them as structured calls (recovering them would record the call twice),
    and the values the tool's schema changed."""

    calls: tuple[ToolCall, ...]
    repeated: tuple[str, ...] = ()
    coercions: tuple[Coercion, ...] = ()


def _made(turn: Turn, blocks: list[Block]) -> Made:
    """The reply's own structured calls of the tools `blocks` name."""
    return structured_calls(turn, {call.name for block in blocks for call in block.calls}) if turn.tool_calls else []


def _recovered(context: ScanContext, turn: Turn, number: int, block: Block, made: Made) -> Recovery:
    """The block's calls as structured calls marked recovered, less those the reply already makes
    (`made`); none when one of them has no name or no arguments that parse."""
    if not block.calls:
        return Recovery(())
    calls: list[ToolCall] = []
    repeated: list[str] = []
    coercions: list[Coercion] = []
    for index, call in enumerate(block.calls):
        name, written = call.name, call.arguments
        if name is None or written is None:
            return Recovery(())
        arguments, changes = _typed(name, written, call.text_values, context)
        if is_made(name, arguments, made):
            repeated.append(name)
            continue
        coercions.extend(changes)
        call_id = f"call_inspector_{turn.position}_{number}" + (f"_{index}" if index else "")
        calls.append(ToolCall(call_id, name, arguments, arguments, RECOVERED))
    return Recovery(tuple(calls), tuple(repeated), tuple(coercions))


def _finding(turn: Turn, block: Block, span: tuple[int, int], recovery: Recovery, nothing_left: bool) -> Finding:
    """The finding for one block: recover its calls, strip it alone, or, when stripping would
    leave the reply empty with no call, no fix and a message saying why."""
    first = block.calls[0] if block.calls else None
    tool = first.name if first else None
    payload = [{"name": c.name, "arguments": c.arguments} for c in block.calls]
    names = ", ".join(c.name or "an unnamed tool" for c in block.calls) or "an unnamed tool"
    where = f"Leaked {block.family} tool-call markup for {names}; nothing ran."
    recovered = recovery.calls
    if recovery.repeated and not recovered:
        message = (
            f"Leaked {block.family} tool-call markup for {names}, a call the reply already makes as a "
            "structured call with the same arguments: only the text is cleaned (recovering it would "
            "record the call twice)."
        )
        fix = Fix(remove=(span,), summary="strip the markup only: the reply already makes that call")
        return Finding.at(turn, KIND, WARNING, message, span, tool, None, payload, None, fix)
    if recovered:
        listed = ", ".join(f"{c.name}({', '.join(c.arguments or ()) or 'no arguments'})" for c in recovered)
        fix = Fix(
            remove=(span,), add_calls=recovered, summary=f"strip the markup and recover {listed}, marked not executed"
        )
        if block.guessed:
            where = f"{where} It holds {block.note}: the repair GUESSED, check it."
        elif block.note:
            where = f"{where} It holds {block.note}."
        if recovery.coercions:
            where = f"{where} {coercions_note(list(recovery.coercions))}"
        if recovery.repeated:
            where = (
                f"{where} Not recovered, as the reply already makes it as a structured call: "
                f"{', '.join(recovery.repeated)}."
            )
        return Finding.at(
            turn,
            KIND,
            WARNING if block.guessed else ERROR,
            where,
            span,
            tool,
            recovered[0].arguments,
            payload,
            False,
            fix,
        )
    reason = block.note or "arguments that do not parse"
    if nothing_left:
        message = (
            f"{where} It holds {reason}, and the reply is nothing but leaked markup: stripping it would "
            "leave an empty reply with no call, so no automatic fix is offered. "
            "Edit the turn by hand in the app (open the file with `inspector`, key e)."
        )
        return Finding.at(turn, KIND, WARNING, message, span, tool, None, payload)
    fix = Fix(remove=(span,), summary=f"strip the markup only: it holds {reason}, so there is no call to recover")
    message = f"{where} It holds {reason}, so only the text can be cleaned."
    return Finding.at(turn, KIND, WARNING, message, span, tool, None, payload, None, fix)


def _opens_with_call_object(text: str) -> bool:
    """Whether `text` opens with an object that may be a call (it names a tool: a fake result,
    more often there, does not), known without parsing it."""
    start = content_start(text)
    return text.startswith("{", start) and may_name_a_tool(text, start)


def _opens_with_call_object_after_thinking(text: str) -> bool:
    """Whether the model's thinking opens `text` and an object that may be a call comes right after
    it, whatever follows the object (read as `find_blocks` reads a reply's opening call). Thinking is
    looked for only when a closing tag's end is there (`think>`, `THINK]`, `think▷`): prose says
    "think" often."""
    if not any(tail in text for tail in _THINKING_ENDS):
        return False
    spans = thinking_in(text)
    if not spans or spans[0].start != content_start(text):
        return False
    start = content_start(text, spans[0].end)
    return text.startswith("{", start) and may_name_a_tool(text, start)


def _may_end_with_call_object(text: str) -> bool:
    """Whether `text` may end with a call object on its own lines (after prose or thinking): it
    ends with `}` and an object opens a line or follows a tag."""
    return text.rstrip().endswith("}") and ("\n{" in text or ">{" in text)


def _may_end_with_call_fence(text: str) -> bool:
    """Whether `text` may end with ChatGLM3's call fence (`tool_call(..)` in it): it ends with a
    fence's closing line and holds `tool_call(` (only its tail copied, as a rule)."""
    tail = text[-64:].rstrip()
    if not tail and len(text) > 64:  # a tail of white space only: look further back
        tail = text.rstrip()
    return tail.endswith("```") and FENCE_CALL in text


def _draft_note(context: ScanContext, turn: Turn) -> Finding | None:
    """A note, with no fix, for call markup drafted in the model's thinking of a reply that makes no
    call (none since the user's message): thinking is not a call, but the call the model meant may
    have been lost in it. None when the reply calls a tool or its thinking drafts no call."""
    if context.called_in_exchange(turn.position):
        return None
    block = drafted_block(turn.text, context.catalogue)
    if block is None:
        return None
    names = ", ".join(c.name or "an unnamed tool" for c in block.calls) or "an unnamed tool"
    message = (
        f"The model's thinking holds {block.family} tool-call markup for {names}, and the reply makes no "
        "call. Thinking is not a call, so nothing is recovered; if the model meant to call it, the call "
        "was lost (some servers leave a call written before the end of the thinking unparsed)."
    )
    payload = [{"name": c.name, "arguments": c.arguments} for c in block.calls]
    tool = block.calls[0].name if block.calls else None
    return Finding.at(turn, KIND, INFO, message, (block.start, block.end), tool, None, payload)


DETECTOR = Detector(KIND, ERROR, detect)
