"""The secrets `report --redact` masks and the `secret` detector finds: one pattern per kind of
secret (API keys, tokens, private key blocks, bearer tokens) and e-mail addresses, each named.

Each pattern starts only where a token starts (a look-behind refuses a start inside a run of the
characters the token is made of) and reads each run of characters once (possessive quantifiers,
bounded repeats), so one pass over any text, hostile or huge, takes linear time. A secret is
replaced by its mask, `[REDACTED:name]`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from functools import cache

from inspector.support.lazy_pattern import lazy_pattern

EMAIL = "email"

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

# What every match of a pattern holds (the last one only an e-mail address's): a text holding none
# is passed over by a few substring searches, far quicker than the patterns on most texts.
ANCHORS = (
    "-----BEGIN",
    "sk-",
    "ghp_",
    "gho_",
    "ghu_",
    "ghs_",
    "ghr_",
    "github_pat_",
    "xox",
    "AKIA",
    "ASIA",
    "ABIA",
    "ACCA",
    "AIza",
    "eyJ",
    "earer",
)

_ANCHOR = lazy_pattern("|".join(re.escape(anchor) for anchor in ANCHORS))  # one search in C

_NAMES = {name.replace("-", "_"): name for name, _, _ in PATTERNS}


@cache
def any_secret() -> re.Pattern[str]:
    """Every pattern in one, each a named group; compiled on first use: every command line's help lists
    the patterns (`pattern_lines`), only a redacted report or a scan matches them."""
    return re.compile("|".join(f"(?P<{name.replace('-', '_')}>{pattern})" for name, _, pattern in PATTERNS))


def may_hold_secret(text: str, emails: bool = True) -> bool:
    """False when no pattern can match in `text` (with `emails`, an e-mail address's included):
    it holds none of what every match holds."""
    return _ANCHOR.search(text) is not None or (emails and "@" in text)


def name_of(match: re.Match[str]) -> str:
    """The name of the pattern `any_secret` matched."""
    return _NAMES[match.lastgroup or ""]


def mask(name: str) -> str:
    """What a secret of the pattern `name` is replaced by."""
    return f"[REDACTED:{name}]"


def first_secret(text: str) -> str | None:
    """The name of the first pattern that matches in `text`, or None when none does."""
    match = any_secret().search(text) if may_hold_secret(text) else None
    return None if match is None else name_of(match)


def pattern_lines() -> list[str]:
    """One line per pattern, naming it and what it masks (for `--help` and the README)."""
    return [f"{name}: {what}" for name, what, _ in PATTERNS]


def masked_everywhere(text: str, masks: Iterable[tuple[str, str]]) -> str:
    """A file's `text` with every secret of `masks` replaced by its mask wherever it appears: as
    it is, and as a JSON string holds it, once or twice escaped (a call's arguments kept as a JSON
    text inside a JSON record). A mask needs no escaping, so the file stays valid JSON."""
    for secret, shown in sorted(set(masks), key=lambda pair: -len(pair[0])):
        once = json.dumps(secret, ensure_ascii=False)[1:-1]
        for form in dict.fromkeys((secret, once, json.dumps(once, ensure_ascii=False)[1:-1])):
            text = text.replace(form, shown)
    return text
