"""The dates `--since` and `--until` take: a day (`2026-11-21`), a moment (`2026-11-21T14:30`,
UTC unless it names its offset), or a time back from now (`7d`, `12h`, `30m`)."""

from __future__ import annotations

import time
from datetime import UTC, datetime

from inspector.errors import InspectorError
from inspector.support.lazy_pattern import lazy_pattern
from inspector.support.safe_text import shown_name

_AGO = lazy_pattern(r"(\d{1,6})([dhm])")
_SECONDS = {"d": 86_400, "h": 3_600, "m": 60}


def parse_date(text: str, now: float | None = None) -> float:
    """`text` as seconds since the epoch; a text that is no date is refused in one line."""
    ago = _AGO.fullmatch(text.strip())
    if ago is not None:
        return (time.time() if now is None else now) - int(ago.group(1)) * _SECONDS[ago.group(2)]
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        raise InspectorError(
            f"{shown_name(text)}: not a date (give 2026-11-21, 2026-11-21T14:30, or 7d, 12h, 30m back from now)"
        ) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.timestamp()


def shown_date(seconds: float) -> str:
    """A session's date for the output: ISO 8601 in UTC, to the second."""
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
