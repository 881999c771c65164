"""Where a text, or JSON-like data, holds a secret: what the `secret` detector flags.

Three rules, in this order (a place one rule claims is not looked at by the next):

- the named patterns `report --redact` masks (`support.secret_patterns`), e-mail addresses aside:
  an address is personal, not a secret that opens anything;
- the value of a key named like a secret (`api_key`, `token`, `password`, `secret`,
  `authorization`, `private_key`, `client_secret`, `GITHUB_TOKEN`, ...): `KEY: value`, `KEY=value`,
  `"KEY": "value"` in a text, or the string under such a key in an object; a value that is only
  digits, only lower-case letters, a word such as `null`, a placeholder (`$VAR`, `***`, `xxxx`) or
  a dotted name (`settings.SECRET_KEY`) is not one;
- a random-looking token: 32 to 100 characters of letters, digits, `_`, `-` and `+` (and up to
  two `=` of padding), standing alone or after a `=` (no `.` or `/` touching it: not a path, a domain or a version), mixing lower case, upper
  case and digits, with an entropy of 4.2 bits a character or more and no more than 60% of it in
  words (`getUserAccountSettings2024` is a name); ids by their shape (`call_...`, `toolu_...`,
  `msg_...`, ...), UUIDs, hexadecimal digests and the lines of a block of encoded data (base64
  wrapped at a fixed width: a certificate, an attachment) are not.

Ids and a record's own fields (paths, a working folder) are looked at with the first two rules
only (`random=False`): an id is random by nature.

Every rule is one pass of a regular expression that reads each run of characters once
(possessive quantifiers, a look-behind refusing a start inside a run), so a hostile text is read
in linear time.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterator
from typing import Any, NamedTuple

from inspector.support.lazy_pattern import lazy_pattern
from inspector.support.secret_patterns import EMAIL, any_secret, may_hold_secret, name_of

KEYED = "secret-value"
RANDOM = "random-token"

_KEY_CHARS = r"A-Za-z0-9_\-"
_KEYED_TEXT = lazy_pattern(
    rf"(?<![{_KEY_CHARS}])(?P<key>[{_KEY_CHARS}]{{1,64}}+)[\"']?[ \t]{{0,3}}[:=][ \t]{{0,3}}[\"']?"
    r"(?:(?:Basic|Token|Bearer)[ \t]{1,3})?(?P<value>[^\s\"'`,;{}()<>\[\]]{8,200}+)"
)
_SECRET_KEY = lazy_pattern(
    r"(?:^|[_-])(?:api[_-]?key|apikey|access[_-]?key|secret[_-]?key|client[_-]?secret|secret|"
    r"(?:access|auth|refresh|bearer|api|session)?[_-]?token|password|passwd|pwd|authorization|"
    r"private[_-]?key|credentials?)$",
    re.IGNORECASE,
)
_SCHEME = lazy_pattern(r"(?:Basic|Token|Bearer)[ \t]{1,3}")  # before an `Authorization` header's credentials
KEY_WORDS = ("key", "secret", "token", "pass", "pwd", "auth", "credential")  # one is in every such ASCII key
# What every `KEY: value` or `KEY=value` with a key named like a secret holds, lowered: an ASCII key
# ends with one of these words (`_SECRET_KEY` is anchored at its end), then its separator follows.
SEPARATOR_AFTER_KEY = r"[\"']?[ \t]{0,3}[:=]"  # what follows a key's last word: a quote, spaces, `:` or `=`
KEY_BEFORE_SEPARATOR = rf"(?:key|secret|token|password|passwd|pwd|authorization|credentials?){SEPARATOR_AFTER_KEY}"
_KEY_BEFORE_SEPARATOR = lazy_pattern(KEY_BEFORE_SEPARATOR)
_PLACEHOLDERS = frozenset(
    {"null", "none", "true", "false", "undefined", "required", "optional", "redacted", "changeme"}
)
_DOTTED_NAME = lazy_pattern(r"[A-Za-z_][A-Za-z0-9_]*+(?:\.[A-Za-z_][A-Za-z0-9_]*+)++")

TOKEN_CHARS = r"A-Za-z0-9_+\-"  # what a random-looking token is made of (a class of a pattern)
_TOKEN = lazy_pattern(rf"(?<![{TOKEN_CHARS}./])[{TOKEN_CHARS}]{{32,100}}+={{0,2}}(?![{TOKEN_CHARS}./=])")
_TOKEN_CHAR = lazy_pattern(f"[{TOKEN_CHARS}]")
# Each latin-1 byte mapped to 1 when it is a token's character, else to 0 (a text's other
# characters become `?` as latin-1): runs of token characters are found by a `translate` and a `find`.
RUN_BYTES = bytes(0 if _TOKEN_CHAR.fullmatch(chr(code)) is None else 1 for code in range(256))
_TOKEN_RUN = b"\x01" * 32  # the shortest random-looking token's run
SHORTEST = 8  # characters: no secret any rule finds is shorter (an e-mail address aside)
_ID_SHAPE = lazy_pattern(
    r"(?:call|toolu|srvtoolu|tooluse|msg|chatcmpl|resp|fc|rs|run|req|file|item|thread|asst|ctc|batch|step|span|trace)[_-]"
)
_HEX = lazy_pattern(r"[0-9a-fA-F-]++")
_WORDS = lazy_pattern(r"[a-z]{3,}+|[A-Z][a-z]{2,}+|[A-Z]{4,}+")
_ENCODED_LINE = lazy_pattern(r"[A-Za-z0-9+/=_-]++")
MIN_ENTROPY = 4.2  # bits a character
MAX_WORDS = 0.6  # of the token's characters


class Found(NamedTuple):
    """A secret: the rule or pattern that found it, and where it is in the text searched."""

    name: str
    start: int
    end: int


def secrets_in_text(text: str, random: bool = True) -> Iterator[Found]:
    """The secrets in `text`, in order, none overlapping another (random-looking tokens only if `random`)."""
    if len(text) < SHORTEST:
        return
    taken: list[Found] = []
    if may_hold_secret(text, emails=False):
        named = (Found(name_of(match), *match.span()) for match in any_secret().finditer(text))
        taken = [found for found in named if found.name != EMAIL]
    if may_key_a_secret(text):  # `KEY: value` or `KEY=value`
        keyed = (
            Found(KEYED, *match.span("value"))
            for match in _KEYED_TEXT.finditer(text)
            if names_a_secret(match["key"]) and is_secret_value(match["value"])
        )
        taken += _free(taken, keyed)
    if random and may_hold_a_token(text):
        tokens = (
            Found(RANDOM, *match.span())
            for match in _TOKEN.finditer(text)
            if looks_random(match[0]) and not _in_block(text, *match.span())
        )
        taken += _free(taken, tokens)
    yield from sorted(taken, key=lambda found: found.start) if len(taken) > 1 else taken


def secrets_in_value(value: Any, random: bool = True) -> Iterator[tuple[str, str]]:
    """The secrets in JSON-like data, as (name, secret): those in every string it holds (keys
    too; random-looking tokens only if `random`), and each string under a key named like a
    secret; read without recursion."""
    stack: list[tuple[str, Any]] = [("", value)]
    while stack:
        key, item = stack.pop()
        if isinstance(item, str):
            if len(item) < SHORTEST:
                continue
            found = [(found.name, item[found.start : found.end]) for found in secrets_in_text(item, random)]
            value = item[scheme.end() :] if (scheme := _SCHEME.match(item)) else item
            named = any(name != RANDOM for name, _ in found)
            if not named and key and names_a_secret(key) and is_secret_value(value):
                yield KEYED, value
            else:
                yield from found
        elif isinstance(item, dict):
            for inner_key, inner in reversed(item.items()):
                name = inner_key if isinstance(inner_key, str) else ""
                stack.append(("", name))
                stack.append((name, inner))
        elif isinstance(item, (list, tuple)):
            stack.extend(("", inner) for inner in reversed(item))


def may_hold_a_named_secret(fields: dict[str, object]) -> bool:
    """False when no named pattern or key named like a secret can find anything in `fields` (string
    values, or lists of strings, by their keys): one look at them all joined, for the many records
    that hold none."""
    joined = "\n".join(
        text
        for key, value in fields.items()
        for text in (key, *(value if isinstance(value, list) else (value,)))
        if isinstance(text, str)
    )
    return may_hold_secret(joined, emails=False) or may_name_a_secret(joined)


def names_a_secret(key: str) -> bool:
    """Whether `key` is named like a secret (`api_key`, `token`, `password`, ...)."""
    return _SECRET_KEY.search(key) is not None


def may_name_a_secret(text: str) -> bool:
    """False when `text` holds no key named like a secret (a few substring searches, quicker than
    the pattern)."""
    lowered = text.lower()
    return any(word in lowered for word in KEY_WORDS)


def may_key_a_secret(text: str) -> bool:
    """False when `text` holds no `KEY: value` or `KEY=value` whose key is named like a secret: no
    such key's last word right before a separator (one search of the lowered text, far quicker than
    the pattern that finds the keys, which tries every position)."""
    return ("=" in text or ":" in text) and _KEY_BEFORE_SEPARATOR.search(text.lower()) is not None


def may_hold_a_token(text: str) -> bool:
    """False when `text` holds no run of a random-looking token's characters long enough to be one
    (a `translate` and a `find` in C, far quicker than the token pattern on a long text)."""
    return text.encode("latin-1", "replace").translate(RUN_BYTES).find(_TOKEN_RUN) != -1


def is_secret_value(value: str) -> bool:
    """Whether the value of a key named like a secret is one (not a placeholder, a word or a name)."""
    return (
        8 <= len(value) <= 200
        and not value.isdigit()
        and not (value.isalpha() and value.islower())
        and value.lower() not in _PLACEHOLDERS
        and not value.startswith(("$", "%", "<", "{", "[REDACTED"))
        and len(set(value)) >= 4
        and _DOTTED_NAME.fullmatch(value) is None
        and not any(char.isspace() for char in value)
    )


def looks_random(token: str) -> bool:
    """Whether a token standing alone is random enough to be a key (see the module's docstring)."""
    if _ID_SHAPE.match(token) or _HEX.fullmatch(token):
        return False
    if not (any(c.islower() for c in token) and any(c.isupper() for c in token) and any(c.isdigit() for c in token)):
        return False
    in_words = sum(len(word) for word in _WORDS.findall(token))
    return in_words <= MAX_WORDS * len(token) and _entropy(token) >= MIN_ENTROPY


def _in_block(text: str, start: int, end: int) -> bool:
    """Whether the token at [start, end) is a whole line of a block of encoded data (base64 wrapped
    at a fixed width: a certificate, an attachment), its line above or below one too; reads at
    most one line's width on each side."""
    if not (start == 0 or text[start - 1] == "\n") or text[end : end + 1] not in ("\n", ""):
        return False
    width = end - start
    below = text[end + 1 : end + 2 + width].split("\n", 1)[0]
    above = text[max(0, start - 2 - width) : max(0, start - 1)].rsplit("\n", 1)[-1]
    return any(len(line) >= 16 and _ENCODED_LINE.fullmatch(line) for line in (above, below))


def _entropy(token: str) -> float:
    counts = Counter(token).values()
    return -sum(count / len(token) * math.log2(count / len(token)) for count in counts)


def _free(taken: list[Found], candidates: Iterator[Found]) -> list[Found]:
    """The candidates that overlap none of `taken` (both in text order)."""
    spans = sorted((found.start, found.end) for found in taken)
    kept: list[Found] = []
    index = 0
    for found in candidates:
        while index < len(spans) and spans[index][1] <= found.start:
            index += 1
        if index < len(spans) and spans[index][0] < found.end:
            continue
        kept.append(found)
    return kept
