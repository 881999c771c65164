"""The one place a shared report's text is redacted (`report --redact`): every string a report
view holds, whatever field it sits in, goes through `redacted`, so a field added later cannot
forget it; `refuse_unmasked` then checks the page as written, and refuses it whole if anything
there still matches a pattern.

The blocks of a turn arrive already masked (`turn_blocks`, which needs each mask's place to mark
it and to move the flagged spans onto the masked text); masking them again changes nothing.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable
from html import unescape
from typing import Any, TypeVar

from inspector.errors import InspectorError
from inspector.report.redact import redacted
from inspector.support.secret_patterns import first_secret

_View = TypeVar("_View")
_MARKDOWN_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")  # a backslash before ASCII punctuation


def masked(view: _View) -> _View:
    """`view` (a dataclass, and everything in it) with every string redacted: dataclass fields,
    tuples, lists, dictionaries' keys and values; two keys masked alike are kept apart (`NAME #2`)."""
    return _masked(view)  # type: ignore[no-any-return]


def _masked(value: Any) -> Any:
    if isinstance(value, str):
        return redacted(value)
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
    """Fail with one line if `page`, read as written or with its HTML or Markdown escapes undone,
    still holds anything a redaction pattern matches (nothing is written then)."""
    for reading in (page, unescape(page), _MARKDOWN_ESCAPE.sub(r"\1", page)):
        name = first_secret(reading)
        if name is not None:
            raise InspectorError(f"{out}: the redacted report would still show a {name}; nothing was written")
