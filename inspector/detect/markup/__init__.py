"""Parsers for the tool-call markup families that leak into assistant text (FORMATS.md §2).

`find_blocks(text, catalogue)` returns every leaked block in `text`, in order, each with its
extent and the calls it holds. The families live by kind: `json_tags` (JSON between markers),
`xml_tags` (one element per parameter), `special_tokens` (DeepSeek, Kimi K2, Harmony, Gemma),
`pythonic` (Python call syntax, read with `ast`: nothing is evaluated) and `fences` (Markdown
fences and a bare call object). Each family module maps its literal start markers to a reader;
one regular expression finds every start marker. A marker inside inline code or a code fence (other
than a ```` ```tool_call ```` fence) is an example, not a call.
"""

from __future__ import annotations

import re

from inspector.catalogue import Catalogue
from inspector.detect.markup import json_tags, pythonic, special_tokens, xml_tags
from inspector.detect.markup.blocks import Block, Call, Reader, is_example, type_by_schema
from inspector.detect.markup.fences import CALL_FENCE_LANGUAGES, bare_block, fence_block, find_fences

__all__ = ["Block", "Call", "START_PATTERN", "find_blocks", "type_by_schema"]

_READERS: dict[str, Reader] = {**json_tags.READERS, **xml_tags.READERS, **special_tokens.READERS,
                               **pythonic.READERS}
# Every family's start marker, longest first; also the detector's prefilter.
START_PATTERN = "|".join(re.escape(marker) for marker in sorted(_READERS, key=len, reverse=True))
_START = re.compile(START_PATTERN)


def find_blocks(text: str, catalogue: Catalogue) -> list[Block]:
    """Every leaked tool-call block in `text`, in order, overlapping finds resolved by first start."""
    fences = find_fences(text) if "```" in text else []
    blocks = [block for fence in fences if (block := fence_block(fence, catalogue)) is not None]
    examples = [(f.start, f.end) for f in fences if f.lang not in CALL_FENCE_LANGUAGES]
    read_until = 0  # the end of the last block a marker opened: markers inside it are its own
    for match in _START.finditer(text):
        start = match.start()
        if start < read_until or is_example(text, start, examples):
            continue
        block = _READERS[match.group()](text, start, match.end(), catalogue)
        if block is not None:
            blocks.append(block)
            read_until = block.end
    if "[" in text:
        blocks.extend(pythonic.bare_lists(text, catalogue, examples))
    if not blocks:
        bare = bare_block(text, catalogue)
        return [bare] if bare else []
    blocks.sort(key=lambda b: (b.start, -b.end))
    kept: list[Block] = []
    for block in blocks:
        if not kept or block.start >= kept[-1].end:
            kept.append(block)
    return kept
