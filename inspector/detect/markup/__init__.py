"""Parsers for the tool-call markup families that leak into assistant text.

`find_blocks(text, catalogue)` returns every leaked block in `text`, in order, each with its
extent and the calls it holds. The families live by kind: `json_tags` (JSON between markers),
`xml_tags` (one element per parameter), `special_tokens` (DeepSeek, Kimi K2, Harmony, Gemma) and
`leaked_tokens` (what is left of DeepSeek's and Kimi's sections when those cannot read them),
`pythonic` (Python call syntax, read with `ast`: nothing is evaluated) and `fences` (Markdown
fences and call objects that open the reply). Each family module maps its literal start markers to a reader;
one regular expression finds every start marker. A marker inside inline code or a code fence (other
than a ```` ```tool_call ```` fence) is an example, not a call; one inside the model's thinking
(`thinking`: `<think>...</think>` left in the text) is a draft, not a call. Step3 lives in
`step3`, MiniMax-M3 in `minimax_m3`, a reply that is a list of call objects (xLAM) in `xlam`,
the first GLM generations (a tool's name on its own line, then its arguments) in `glm_first`, and
MiniCPM 5's `<function name=..>` in `minicpm`, Command R's `Action:` fence in `command_r`, and
LongCat-Flash's `<longcat_tool_call>` in `longcat`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import replace
from functools import partial

from inspector.catalogue import Catalogue
from inspector.detect.markup import (
    command_r,
    glm_first,
    json_tags,
    leaked_tokens,
    longcat,
    minicpm,
    minimax_m3,
    pythonic,
    special_tokens,
    step3,
    xlam,
    xml_tags,
)
from inspector.detect.markup.blocks import Block, Call, Reader, inside, is_example
from inspector.detect.markup.fences import (
    CALL_FENCE_LANGUAGES,
    Fence,
    call_arrays,
    fence_block,
    find_fences,
    leading_calls,
    trailing_call,
)
from inspector.detect.markup.schema_values import type_by_schema
from inspector.detect.markup.thinking import HINTS, Thinking, thinking_spans
from inspector.support.lazy_pattern import lazy_pattern
from inspector.support.leading_space import SPACE

__all__ = [
    "START_PATTERN",
    "Block",
    "Call",
    "Thinking",
    "drafted_block",
    "find_blocks",
    "thinking_in",
    "type_by_schema",
]

_READERS: dict[str, Reader] = {
    **json_tags.READERS,
    **xml_tags.READERS,
    **special_tokens.READERS,
    **pythonic.READERS,
    **step3.READERS,
    **minimax_m3.READERS,
    **leaked_tokens.READERS,
    **glm_first.READERS,
    **minicpm.READERS,
    **command_r.READERS,
    **longcat.READERS,
}
# Every family's start marker, longest first; also the detector's prefilter.
START_PATTERN = "|".join(re.escape(marker) for marker in sorted(_READERS, key=len, reverse=True))
_START = lazy_pattern(START_PATTERN)


def find_blocks(text: str, catalogue: Catalogue, limit: int | None = None) -> list[Block]:
    """Every leaked tool-call block in `text`, in order, overlapping finds resolved by first start.
    With `limit`, reading stops at the block after the first `limit`: at most `limit` + 1 come
    back, the last only saying that there are more (a bound: hostile text can hold 80,000 blocks).

    Candidates (call fences, start markers, bare pythonic lists, JSON arrays of calls) are read in the order of their
    start, and one that starts inside the last block kept is not read at all."""
    listed = xlam.call_list_block(text, catalogue)  # a reply that is nothing but a list of calls
    if listed is not None:
        return [listed]
    fences = find_fences(text) if "```" in text else []
    examples = [(f.start, f.end) for f in fences if f.lang not in CALL_FENCE_LANGUAGES]
    thinking = [(span.start, span.end) for span in _thinking(text, examples)]
    candidates = _in_start_order(
        _leading_candidates(text, catalogue, thinking)
        + _trailing_candidates(text, catalogue, examples)
        + _fence_candidates(fences, catalogue),
        _marker_candidates(text, catalogue, examples),
        _list_candidates(text, catalogue, examples) + _array_candidates(text, catalogue, examples),
    )
    kept: list[Block] = []
    for start, read in candidates:
        if (kept and start < kept[-1].end) or (thinking and inside(thinking, start)):
            continue
        block = read()
        if block is not None and not (kept and block.start < kept[-1].end):  # a block may begin before its marker
            kept.append(block)
            if limit is not None and len(kept) > limit:
                break
    return kept


def drafted_block(text: str, catalogue: Catalogue) -> Block | None:
    """The first block of markup written inside the model's thinking (a draft, never a call), its
    place in `text`; None when the thinking holds none."""
    for span in thinking_in(text):
        blocks = find_blocks(text[span.inner_start : span.inner_end], catalogue, 0)
        if blocks:
            return replace(blocks[0], start=blocks[0].start + span.inner_start, end=blocks[0].end + span.inner_start)
    return None


def thinking_in(text: str) -> list[Thinking]:
    """The spans of `text` that are the model thinking, in order; a tag in a code example (a fence
    that holds no call) or in inline code is not one."""
    if not any(hint in text for hint in HINTS):  # no tag: neither the fences nor the tags searched
        return []
    fences = find_fences(text) if "```" in text else []
    return thinking_spans(text, [(f.start, f.end) for f in fences if f.lang not in CALL_FENCE_LANGUAGES])


def _thinking(text: str, examples: list[tuple[int, int]]) -> list[Thinking]:
    """The spans of `text` that are the model thinking (none without a hint of a tag: no search)."""
    return thinking_spans(text, examples) if any(hint in text for hint in HINTS) else []


# A candidate block: where it would start, and how to read it (None when it is not a block).
Candidate = tuple[int, Callable[[], "Block | None"]]


def _in_start_order(
    before: list[Candidate], markers: Iterator[Candidate], after: list[Candidate]
) -> Iterator[Candidate]:
    """The candidates in the order of their start: those found at once (each list in order) and
    the family markers, searched one at a time, between them. At the same start, one of `before`
    comes before a marker, and a marker before one of `after`."""
    found = sorted(
        [(start, 0, read) for start, read in before] + [(start, 2, read) for start, read in after],
        key=lambda candidate: candidate[:2],
    )
    index = 0
    for start, read in markers:
        while index < len(found) and found[index][:2] < (start, 1):
            yield found[index][0], found[index][2]
            index += 1
        yield start, read
    for start, _, read in found[index:]:
        yield start, read


def _leading_candidates(text: str, catalogue: Catalogue, thinking: list[tuple[int, int]]) -> list[Candidate]:
    """Call objects that open the text (a reply that starts with `{`, or whose thinking opening it
    is followed by `{`), or a first-generation GLM call (a tool's name alone on the first line)."""
    start = SPACE.match(text).end()
    if thinking and thinking[0][0] == start:
        start = SPACE.match(text, thinking[0][1]).end()
    if text.startswith("{", start):
        return [(start, partial(leading_calls, text, catalogue, start))]
    return [(start, partial(glm_first.opening_call, text, start, catalogue))]


def _trailing_candidates(text: str, catalogue: Catalogue, examples: list[tuple[int, int]]) -> list[Candidate]:
    """A call object on its own lines that ends the text after prose (`}` ends it: no search else)."""
    if text.rstrip().endswith("}") and (block := trailing_call(text, catalogue, examples)) is not None:
        return [(block.start, partial(_found, block))]
    return []


def _fence_candidates(fences: list[Fence], catalogue: Catalogue) -> list[Candidate]:
    """Each code fence, read as a block of calls."""
    return [(fence.start, partial(fence_block, fence, catalogue)) for fence in fences]


def _marker_candidates(text: str, catalogue: Catalogue, examples: list[tuple[int, int]]) -> Iterator[Candidate]:
    """Each family's start marker that is not an example, read by its family's reader."""
    for match in _START.finditer(text):
        start = match.start()
        if not is_example(text, start, examples):
            yield start, partial(_READERS[match.group()], text, start, match.end(), catalogue)


def _array_candidates(text: str, catalogue: Catalogue, examples: list[tuple[int, int]]) -> list[Candidate]:
    """Each JSON array of call objects in the prose (a bounded search)."""
    if "[" in text and "{" in text:
        return [(block.start, partial(_found, block)) for block in call_arrays(text, catalogue, examples)]
    return []


def _list_candidates(text: str, catalogue: Catalogue, examples: list[tuple[int, int]]) -> list[Candidate]:
    """Each bare pythonic call list (a bounded search)."""
    if "[" in text:
        return [(block.start, partial(_found, block)) for block in pythonic.bare_lists(text, catalogue, examples)]
    return []


def _found(block: Block) -> Block:
    """A block a search found already, as a candidate's reader gives it."""
    return block
