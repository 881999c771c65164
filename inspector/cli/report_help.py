"""The help of `inspector report`, apart from the command itself so that building the command
line's parser does not load the report's renderers (every `scan` builds it)."""

from __future__ import annotations

import textwrap

from inspector.support.secret_patterns import pattern_lines

REPORT_HELP = (
    textwrap.fill(
        "Write what scan finds as a report to share: the summary, the findings by kind with a bar each, the rates (by kind, model and tool), "
        "and each flagged turn with its original and its repair side by side, the flagged span and the change "
        "marked. --html OUT writes one self-contained page (inline style and SVG, no script, nothing fetched); "
        "--markdown OUT writes the same as Markdown. OUT - writes to stdout. It reads what scan reads, with the "
        "same options. Once the report is written it exits 0, findings or not (scan is the check); an error is one "
        "line and exit 2.",
        78,
    )
    + "\n\n--redact replaces each of these with [REDACTED:name] in everything the report shows:\n"
    + "\n".join(textwrap.fill(line, 78, initial_indent="  ", subsequent_indent="      ") for line in pattern_lines())
)
