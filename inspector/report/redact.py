"""`report --redact`: secrets and e-mail addresses masked in what a shared report shows.

Each pattern starts only where a token starts (a look-behind refuses a start inside a run of the
characters the token is made of) and reads each run of characters once (possessive quantifiers,
bounded repeats), so one pass over any text, hostile or huge, takes linear time. A match is
replaced by `[REDACTED:name]`; `redact_text` also says where each replacement landed, so that
spans found in the original text can be moved onto the redacted one (`Redacted.moved`).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from functools import cache

from inspector.model import Span

_KEY = r"A-Za-z0-9_\-"  # the characters of most API keys (URL-safe base64 and separators)

# (name, what it masks, pattern); the first that matches at a position wins, so the specific
# shapes come before the general ones (Anthropic's `sk-ant-` before OpenAI's `sk-`).
PATTERNS: tuple[tuple[str, str, str], ...] = (
    (
        "private-key",
        "private key blocks (-----BEGIN ... PRIVATE KEY----- up to its END line, or to the end when cut off)",
        r"-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----[^-]*+(?:-(?!----)[^-]*+)*+"
        r"(?:-----END[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----)?",
    ),
    ("anthropic-key", "Anthropic API keys (sk-ant-...)", rf"(?<![{_KEY}])sk-ant-[{_KEY}]{{16,}}+"),
    ("openai-key", "OpenAI API keys (sk-..., sk-proj-...)", rf"(?<![{_KEY}])sk-[{_KEY}]{{20,}}+"),
    (
        "github-token",
        "GitHub tokens (ghp_, gho_, ghu_, ghs_, ghr_, github_pat_)",
        r"(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{30,}+|github_pat_[A-Za-z0-9_]{22,}+)",
    ),
    ("slack-token", "Slack tokens (xoxb-, xoxp-, xoxa-, ...)", r"(?<![A-Za-z0-9_-])xox[a-z]-[A-Za-z0-9-]{10,}+"),
    (
        "aws-access-key",
        "AWS access key ids (AKIA..., ASIA...)",
        r"(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])",
    ),
    ("google-api-key", "Google API keys (AIza...)", rf"(?<![{_KEY}])AIza[{_KEY}]{{35}}(?![{_KEY}])"),
    (
        "jwt",
        "JSON Web Tokens (eyJ....eyJ....signature)",
        rf"(?<![{_KEY}.])eyJ[{_KEY}]{{4,}}+\.eyJ[{_KEY}]{{4,}}+\.[{_KEY}]*+",
    ),
    (
        "bearer-token",
        "bearer tokens (Bearer followed by a token of 16 characters or more)",
        r"(?<![A-Za-z0-9])[Bb]earer[ \t]++(?=[A-Za-z0-9._~+/=-]{16})[A-Za-z0-9_~+/-]++(?:\.[A-Za-z0-9_~+/-]++)*+=*+",
    ),
    (
        "email",
        "e-mail addresses",
        r"(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]{1,64}+@(?:[A-Za-z0-9-]{1,63}\.){1,8}[A-Za-z]{2,24}(?![A-Za-z0-9-])",
    ),
)

_NAMES = {name.replace("-", "_"): name for name, _, _ in PATTERNS}


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


@cache
def _any_secret() -> re.Pattern[str]:
    """Every pattern in one, each a named group; compiled on first use: every command line's help lists
    the patterns (`pattern_lines`), only a redacted report matches them."""
    return re.compile("|".join(f"(?P<{name.replace('-', '_')}>{pattern})" for name, _, pattern in PATTERNS))


def mask(name: str) -> str:
    """What a secret of the pattern `name` is replaced by."""
    return f"[REDACTED:{name}]"


def redact_text(text: str) -> Redacted:
    """`text` with every secret and e-mail address replaced by its mask, in one linear pass."""
    pieces: list[str] = []
    replaced: list[Span] = []
    masks: list[Span] = []
    cursor = length = 0
    for match in _any_secret().finditer(text):
        start, end = match.span()
        pieces.append(text[cursor:start])
        length += start - cursor
        shown = mask(_NAMES[match.lastgroup or ""])
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


def first_secret(text: str) -> str | None:
    """The name of the first pattern that matches in `text`, or None when none does."""
    match = _any_secret().search(text)
    return None if match is None else _NAMES[match.lastgroup or ""]


def pattern_lines() -> list[str]:
    """One line per pattern, naming it and what it masks (for `--help` and the README)."""
    return [f"{name}: {what}" for name, what, _ in PATTERNS]
