"""Detector `fake-result-block`: a tool result the model wrote as markup in its own reply.

A model that leaks a call as text often goes on to write the call's answer too (`<tool_call>...
</tool_call><tool_response>{"temperature": 21}</tool_response>It is 21 degrees.`), so the person
sees invented output as if a tool had run. The families are in `result_markup`. The fix strips
each block (with the white space after it, or before it when it ends the reply) and keeps the
prose; a call leaked beside it is `tool-markup`'s to recover, and approving both gives the reply
with neither (`repair.apply` cuts their spans together). A reply that is nothing but such results
keeps its finding without a fix: stripping would leave an empty message, for a person to edit.

Only assistant turns are read (a user quoting markup, a real tool message are not replies); a
block in a code fence or inline code is an example. At most `MAX_FINDINGS` blocks a reply.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from inspector.detect.context import ScanContext
from inspector.detect.contract import Detector
from inspector.detect.result_markup import ResultBlock, find_result_blocks
from inspector.model import ERROR, Finding, Fix, Span, Turn, remove_spans
from inspector.support.leading_space import SPACE
from inspector.support.safe_text import preview

KIND = "fake-result-block"
MAX_FINDINGS = 20


def detect(context: ScanContext) -> Iterator[Finding]:
    """A finding for each tool-result block written in an assistant reply, in order."""
    for turn in context.assistant_turns:
        text = turn.text
        # What every start marker holds; a one-character test (a memchr) is fastest, so a longer
        # marker is looked for only when its first character is there.
        if not text or not (
            "<" in text
            or "`" in text
            or ("O" in text and "Observation:" in text)
            or ("[" in text and "[TOOL_RESULTS]" in text)
        ):
            continue
        blocks = find_result_blocks(text, MAX_FINDINGS)
        if not blocks:
            continue
        more = len(blocks) > MAX_FINDINGS
        blocks = blocks[:MAX_FINDINGS]
        spans = removal_spans(text, blocks)
        nothing_left = not (turn.tool_calls or remove_spans(text, spans).strip())
        for number, (block, span) in enumerate(zip(blocks, spans)):
            finding = _finding(turn, block, span, nothing_left)
            if more and number == MAX_FINDINGS - 1:
                finding = replace(
                    finding,
                    message=f"{finding.message} The reply holds more than {MAX_FINDINGS} such "
                    f"blocks: only the first {MAX_FINDINGS} are reported (a bound against hostile text).",
                )
            yield finding


def removal_spans(text: str, blocks: list[ResultBlock]) -> list[Span]:
    """What removing each block cuts: the block and the white space after it; for the blocks
    that end the text (only white space between them), the white space before each instead, and
    for the last also the white space after it."""
    ending = len(blocks)
    tail = len(text)
    while ending > 0 and not text[blocks[ending - 1].end : tail].strip():
        ending -= 1
        tail = blocks[ending].start
    spans = []
    for number, block in enumerate(blocks):
        if number < ending:
            spans.append((block.start, SPACE.match(text, block.end).end()))
        else:
            last = number == len(blocks) - 1
            spans.append((len(text[: block.start].rstrip()), len(text) if last else block.end))
    return spans


def _finding(turn: Turn, block: ResultBlock, span: Span, nothing_left: bool) -> Finding:
    """The finding for one block: strip it, or, when the reply is nothing but results, no fix."""
    source = f"the {block.tool} tool" if block.tool else "a tool"
    message = (
        f"The reply writes a result of {source} as {block.family} markup in its own text: no tool returned "
        "it, so the person sees invented output as if a tool had run."
    )
    body = turn.text[block.body[0] : min(block.body[1], block.body[0] + 2000)]  # a preview needs no more
    payload = {"family": block.family, "result": preview(body.strip(), 300)}
    where = (block.start, block.end)
    if nothing_left:
        message += (
            " The reply is nothing but such results: stripping them would leave an empty reply, so no "
            "automatic fix is offered. Edit the turn by hand in the app (open the file with `inspector`, key e)."
        )
        return Finding.at(turn, KIND, ERROR, message, where, block.tool, payload=payload)
    fix = Fix(remove=(span,), summary="strip the tool result the model wrote itself and keep the prose")
    return Finding.at(turn, KIND, ERROR, message, where, block.tool, payload=payload, fix=fix)


DETECTOR = Detector(KIND, ERROR, detect)
