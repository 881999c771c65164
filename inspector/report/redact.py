"""`report --redact`: secrets and e-mail addresses masked in what a shared report shows.

The patterns are `support.secret_patterns`' (the `secret` detector finds the same ones), one
linear pass over any text, hostile or huge. A match is replaced by `[REDACTED:name]`;
`redact_text` also says where each replacement landed, so that spans found in the original text
can be moved onto the redacted one (`Redacted.moved`).
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass

from inspector.model import Span
from inspector.support.secret_patterns import any_secret, mask, may_hold_secret, name_of


@dataclass(frozen=True)
class Redacted:
    """A text with its secrets masked, and where each mask is: `replaced` holds, in order, the
    (start, end) of each secret in the original text and `masks` the (start, end) of its mask in
    `text`."""

    text: str
    replaced: tuple[Span, ...] = ()
    masks: tuple[Span, ...] = ()

    def moved(self, span: Span) -> Span:
        """`span` of the original text as a span of the redacted one; an end inside a secret goes
        to its mask's end, a start inside one to its mask's start."""
        return self._offset(span[0], start=True), self._offset(span[1], start=False)

    def _offset(self, offset: int, start: bool) -> int:
        index = bisect_right(self.replaced, (offset, float("inf"))) - 1  # the last secret starting at or before it
        if index < 0:
            return offset
        (old_start, old_end), (new_start, new_end) = self.replaced[index], self.masks[index]
        if offset >= old_end:
            return offset - old_end + new_end
        if offset == old_start:
            return new_start
        return new_start if start else new_end


def redact_text(text: str) -> Redacted:
    """`text` with every secret and e-mail address replaced by its mask, in one linear pass."""
    pieces: list[str] = []
    replaced: list[Span] = []
    masks: list[Span] = []
    cursor = length = 0
    for match in any_secret().finditer(text) if may_hold_secret(text) else ():
        start, end = match.span()
        pieces.append(text[cursor:start])
        length += start - cursor
        shown = mask(name_of(match))
        pieces.append(shown)
        replaced.append((start, end))
        masks.append((length, length + len(shown)))
        length += len(shown)
        cursor = end
    if not replaced:
        return Redacted(text)
    pieces.append(text[cursor:])
    return Redacted("".join(pieces), tuple(replaced), tuple(masks))


def redacted(text: str) -> str:
    """`text` with every secret and e-mail address masked."""
    return redact_text(text).text
