"""The blocks of an Aider LLM history whose lines all end in a plain line feed, found a block at a
time instead of a line at a time: a log of millions of lines (each request repeats the whole
prompt) is read in the time its searches take, not one Python step a line.

What it gives is what the line-by-line reading of `aider_llm_history` gives (each block's last
message, the count of stray lines): a header is found by one search, a block's stray lines are
counted by one search over the block, and only the block's last message is walked, from its end
back to where it begins. A text with any other line break (`\\r`, `\\x0c`, U+2028...) is left to
the line-by-line reading, which splits lines as `str.splitlines` does.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from inspector.support.lazy_pattern import lazy_pattern

_TIME = r"(TO LLM|LLM RESPONSE) (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?=\n|\Z)"
FIRST_HEADER = lazy_pattern(_TIME)  # on line 1
HEADERS = lazy_pattern(rf"\n{_TIME}")  # on a later line: each search starts at a line feed, found fast
_ROLE_LINE = r"(?:SYSTEM|USER|ASSISTANT|TOOL)(?: |\n|\Z)"
_NOT_BLANK = r"(?=[^\n]*\S)"
STRAY_IN_ANSWER = lazy_pattern(rf"\n(?!{_ROLE_LINE}){_NOT_BLANK}")  # a line after a line feed
STRAY_IN_REQUEST = lazy_pattern(rf"\n(?!{_ROLE_LINE}|-------(?:\n|\Z)){_NOT_BLANK}")

Message = tuple[str, int, list[str]]  # a message's role, first line (or offset) and lines
Block = tuple[str, str, Message | None]  # a block's kind, time and last message with a role


def plain_blocks(text: str, roles: frozenset[str], request: str) -> tuple[list[Block], int]:
    """The blocks of `text` (lines ending in `\\n` only), each with its last message, and the
    count of lines outside any message that are not blank."""
    blocks: list[Block] = []
    opening = FIRST_HEADER.match(text)
    headers = ([opening] if opening else []) + list(HEADERS.finditer(text))
    before = text[: headers[0].start(1)] if headers else text
    stray = sum(1 for line in before.splitlines() if line.strip())
    line, counted = 1, 0  # the number of the line at offset `counted`
    for index, header in enumerate(headers):
        line += text.count("\n", counted, header.start(1))
        counted = header.start(1)
        feed = header.end()  # the line feed that ends the header (or the text's end)
        stop = headers[index + 1].start(1) if index + 1 < len(headers) else len(text)  # where the block ends
        is_request = header.group(1) == request
        # each of the block's lines follows a line feed, from the header's to the one before `stop`
        stray += _count(STRAY_IN_REQUEST if is_request else STRAY_IN_ANSWER, text, feed, stop)
        message = _last_message(text, min(feed + 1, stop), stop, roles, is_request)
        if message is not None:
            role, first, lines = message
            message = (role, line + text.count("\n", counted, first), lines)
        blocks.append((header.group(1), header.group(2), message))
    return blocks, stray


def _count(pattern: re.Pattern[str], text: str, start: int, end: int) -> int:
    """How many times `pattern` matches in `text[start:end]`."""
    return sum(1 for _ in pattern.finditer(text, start, end))


def _last_message(text: str, start: int, end: int, roles: frozenset[str], is_request: bool) -> Message | None:
    """The last message with a role among the lines of `text[start:end]`: its role, the offset of
    its first line, its lines without the role. A message ends where the role changes or, in a
    request, at a `-------` line, after which the next message starts on the next line."""
    role: str | None = None
    parts: list[str] = []
    first = start
    for line_start, line in _lines_backwards(text, start, end):
        if is_request and line == "-------":
            if role is not None:
                first = line_start + len(line) + 1
                break
            continue  # a message with no role line: not read
        name, _, rest = line.partition(" ")
        if name not in roles:
            continue
        if role is None:
            role = name
        elif name != role:
            break
        parts.append(rest)
        first = line_start
    if role is None:
        return None
    parts.reverse()
    return role, first, parts


def _lines_backwards(text: str, start: int, end: int) -> Iterator[tuple[int, str]]:
    """The lines of `text[start:end]` (each ending in `\\n`, the last maybe not), last first, each
    with the offset it starts at."""
    if end > start and text[end - 1] == "\n":
        end -= 1
    elif end == start:
        return
    while True:
        cut = text.rfind("\n", start, end)
        line_start = cut + 1 if cut >= 0 else start
        yield line_start, text[line_start:end]
        if cut < 0:
            return
        end = cut
