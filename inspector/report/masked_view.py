"""The one place a shared report's text is redacted (`report --redact`): every string a report
view holds, whatever field it sits in, goes through `redacted`, so a field added later cannot
forget it; `refuse_unmasked` then checks the page as written, and refuses it whole if anything
there still matches a pattern.

The pieces of a turn's blocks arrive already masked (`turn_blocks`, which needs each mask's place
to mark it and to move the flagged spans onto the masked text), so they are not masked again;
every other string of a block, as of the whole view, is.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from html import unescape
from typing import Any, TypeVar

from inspector.errors import InspectorError
from inspector.report.pieces import Piece
from inspector.report.redact import redacted
from inspector.support.lazy_pattern import lazy_pattern
from inspector.support.safe_text import shown_name
from inspector.support.secret_patterns import first_secret

_View = TypeVar("_View")
_MARKDOWN_ESCAPE = lazy_pattern(r"\\([!-/:-@\[-`{-~])")  # a backslash before ASCII punctuation


def masked(view: _View) -> _View:
    """`view` (a dataclass, and everything in it) with every string redacted: dataclass fields,
    tuples, lists, dictionaries' keys and values; two keys masked alike are kept apart (`NAME #2`)."""
    return _masked(view)  # type: ignore[no-any-return]


def _masked(value: Any) -> Any:
    if isinstance(value, str):
        return redacted(value)
    if isinstance(value, Piece):  # cut from a text masked whole (`turn_blocks`): masking it again changes nothing
        return value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {field.name: _masked(getattr(value, field.name)) for field in dataclasses.fields(value)}
        return dataclasses.replace(value, **changes)
    if isinstance(value, dict):
        return _apart((_masked(key), _masked(entry)) for key, entry in value.items())
    if isinstance(value, (tuple, list, frozenset)):
        return type(value)(map(_masked, value))
    return value


def _apart(entries: Iterable[tuple[Any, Any]]) -> dict[Any, Any]:
    named: dict[Any, Any] = {}
    for name, entry in entries:
        shown_name, count = name, 1
        while shown_name in named:
            count += 1
            shown_name = f"{name} #{count}"
        named[shown_name] = entry
    return named


def refuse_unmasked(page: str, out: str) -> None:
    """Fail with one line if `page`, read with its Markdown and HTML escapes undone (which only
    joins what they split), still holds anything a redaction pattern matches (nothing is written
    then)."""
    name = first_secret(unescape(_MARKDOWN_ESCAPE.sub(r"\1", page)))
    if name is not None:
        raise InspectorError(f"{shown_name(out)}: the redacted report would still show a {name}; nothing was written")
