"""How a tool result says it failed, however the tool wrote it (for `claimed-success`): besides an
error flag or an error object (`tool_error.reported_error`),

- an object (or a JSON text of one) with `"status": "error"` (or `failed`, `failure`), `"ok":
  false`, `"success": false`, an HTTP status of 400 or more (`status`, `statusCode`, ...), a
  non-zero exit code (`exit_code`, `exitCode`, `returncode`, ...), or GraphQL's `"data": null`
  with `errors`;
- a text whose status lines say so: its first line, and for a tool that does not read data (a
  shell, an edit, a request) its last three lines, opening with `Error:`, `ERROR`, `fatal:`,
  `Failed to`, `npm ERR!`, a traceback or an exception (`FileNotFoundError: ...`), naming an
  HTTP status of 400 or more (`HTTP/1.1 404`, `500 Server Error`, `status code 502`), a non-zero
  exit code (`exit code 1`, `Exit code: 127`, `returncode: 2`), a test run's failures (`=== 1
  failed, 3 passed ===`, `Tests: 1 failed`), or ending in a system error (`: Permission denied`,
  `: No space left on device`, `: No such file or directory`, `: command not found`);
- a short text (one or two lines) saying `not found`, `timed out` or `deadline exceeded`.

Clean: a zero exit code among the status lines (`exit code 0`: what was printed before it is the
command's output), `"errors": []`, and an error mentioned anywhere else in a text (a log file's
lines, a search result about error handling): a result of a tool that reads data (`read_file`,
`grep`, `web_search`, ...) is judged on its first line alone. Every search runs on a bounded
window of the text (its first and last few hundred characters), so a result of any size costs
the same; a short result is first searched once for anything those searches need (an opener, a
word), which rules out most results at once.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_right
from functools import cache, lru_cache
from itertools import accumulate
from typing import Any

from inspector.detect.tool_error import reported_error
from inspector.model import ToolResult
from inspector.support.lazy_pattern import lazy_pattern

_DECODER = json.JSONDecoder()
_WINDOW = 300  # characters of a status line, and of a short text
_HEAD = 5  # the first lines read as status lines (a header such as Codex's `Process exited with code 1`)
_TAIL = 3  # the last lines read as status lines
_READS = lazy_pattern(
    r"(?:^|[_\W])(?:read|view|cat|open|search|grep|find|glob|fetch|get|list|ls|query|show|log|logs|tail|head)"
    r"(?:$|[_\W]|[A-Z])",
    re.I,
)
_STATUS_FAILED = frozenset({"error", "failed", "failure", "fail", "errored"})
_FLAG_KEYS = ("ok", "success", "succeeded")
_HTTP_KEYS = ("status", "statusCode", "status_code", "http_status", "httpStatus")
_EXIT_KEYS = ("exit_code", "exitCode", "returncode", "return_code", "exit_status", "exitStatus")

# At a line's start (after `<`, `[` or `(`, and "Process", "Command" ...): "exit code 1" in a
# command's output ("- exit code 1 means failure") is data.
_EXIT = lazy_pattern(
    r"[<\[(]?(?:(?:process|command|the\s+command|shell)\s+)?"
    r"(?:exit(?:ed)?(?:\s+with)?(?:\s+exit)?(?:\s+(?:code|status))|exit_?code|exit_status|return_?code|returncode)"
    r"\s*[:=]?\s*\(?(-?\d+)",
    re.I,
)
_OPENING = lazy_pattern(
    r"(?:[\w.+-]{1,40}:\s+)?"  # the program's name before its message: `createdb: error: ...`
    r"(?:(?:error|fatal|exception|failure)(?:\[[^\]\n]{0,40}\])?\s*:"
    r"|error\s+(?:\w+\s+)?from\s+[^:\n]{1,40}:"  # `Error response from daemon:`, `Error from server (NotFound):`
    r"|(?-i:ERROR|FATAL|FAILED|FAILURE)\b|(?-i:E):\s|(?-i:error\s+[A-Z])"  # apt's `E: `, yarn's `error Command ...`
    r"|failed\s+to\b|(?!(?:no|none|nothing|never|not)\b)(?:[A-Za-z][\w-]*\s+){1,2}failed\b"  # `Deployment failed`
    r"|npm\s+(?:ERR!|error)\s|curl:\s+\(\d+\)|mcp\s+error\s+-?\d+\s*:"
    r"|traceback\s+\(most\s+recent\s+call\s+last\)"
    r"|[A-Za-z_][\w.]{0,80}(?:Error|Exception):\s)",
    re.I,
)
# A line ending in a step that failed: `... version solving failed.` (not a count: `0 tests failed`).
_ENDS_FAILED = lazy_pattern(r"(?<!\d\s)\b(?!(?:no|none|nothing|never|not)\b)[A-Za-z][\w-]*\s+failed[.!]?$", re.I)
# The reason phrases of the HTTP statuses of 400 or more (RFC 9110 and the IANA registry).
_REASONS = (
    "Bad Request|Unauthorized|Payment Required|Forbidden|Not Found|Method Not Allowed|Not Acceptable"
    "|Proxy Authentication Required|Request Timeout|Conflict|Gone|Length Required|Precondition Failed"
    "|Payload Too Large|Content Too Large|URI Too Long|Unsupported Media Type|Range Not Satisfiable"
    "|Expectation Failed|Misdirected Request|Unprocessable Entity|Unprocessable Content|Locked"
    "|Failed Dependency|Too Early|Upgrade Required|Precondition Required|Too Many Requests"
    "|Request Header Fields Too Large|Unavailable For Legal Reasons|Internal Server Error|Not Implemented"
    "|Bad Gateway|Service Unavailable|Gateway Timeout|HTTP Version Not Supported|Variant Also Negotiates"
    "|Insufficient Storage|Loop Detected|Not Extended|Network Authentication Required"
)
_HTTP = lazy_pattern(
    r"(?:^HTTP(?:/\d(?:\.\d)?)?\s+|\bstatus(?:\s*code)?\s*[:=]?\s*|\breturned\s+error:\s*)([45]\d\d)\b"
    r"|\b([45]\d\d)\s+(?:Client|Server)\s+Error\b"
    rf"|^([45]\d\d)\s+(?:{_REASONS})(?=\s*(?:$|[:\-–—(,;.]))",  # a line opening `429 Too Many Requests`
    re.I,
)
_TESTS_FAILED = lazy_pattern(r"^=+ .{0,200}\b[1-9]\d* (?:failed|errors?)\b|^Tests?:\s+[1-9]\d* failed\b", re.I)
# The system errors (`strerror`'s texts) a line may end with, besides the first few of `_SYSTEM_ERROR`.
_SYSTEM_ERRORS = (
    "directory not empty", "file exists", "read-only file system", "is a directory", "not a directory",
    "device or resource busy", "resource temporarily unavailable", "connection timed out",
    "connection reset by peer", "network is unreachable", "no route to host", "too many open files",
    "input/output error", "broken pipe", "invalid argument",
)  # fmt: skip
_SYSTEM_ERROR = lazy_pattern(
    r"(?:^|:\s)(?:permission denied|no space left on device|no such file or directory|command not found"
    r"|operation not permitted|access denied|connection refused|disk quota exceeded|"
    + "|".join(re.escape(error) for error in _SYSTEM_ERRORS)
    + r")\.?\s*$",
    re.I,
)
# Every status line above opens with "HTTP", `E: `, `curl` or a status of 400 or more, holds one of
# these words (each form's necessary word), or ends with one of the system errors after them,
# whatever its case: looking for them tells most lines apart before the forms are tried.
_FAILURE_WORDS = (
    "exit", "return", "error", "fatal", "exception", "fail", "npm", "traceback", "status",
    "denied", "space", "such", "found", "permitted", "refused", "quota",
)  # fmt: skip
_OPENERS = ("http", "e: ", "curl", "4", "5")
_MAY_SAY_FAILURE = lazy_pattern(
    "^(?:http|e: |curl|[45])|" + "|".join(re.escape(word) for word in _FAILURE_WORDS + _SYSTEM_ERRORS), re.I
)
# The only characters a pattern ignoring case matches to ASCII letters (`İ` and `ı` to `i`, `ſ` to
# `s`, the Kelvin sign to `k`): a line without them is told apart by its lower case as an ASCII one.
_FOLDED_TO_ASCII = ("\u0130", "\u0131", "\u017f", "\u212a")
_STATUS_KEYS = frozenset({"status", *_FLAG_KEYS, *_HTTP_KEYS, *_EXIT_KEYS, "data", "errors", "errorMessages"})
# The keys of an object that reports errors and nothing else (`{"errors": [...]}`, Jira's `errorMessages`).
_ERROR_REPORT_KEYS = frozenset(
    {"errors", "errorMessages", "message", "code", "status", "documentation_url", "type", "title", "detail", "help"}
)
_SHORT_FAILURE = lazy_pattern(r"\bnot\s+found\b|\btimed?\s*out\b|\btimeout\b|\bdeadline\s+exceeded\b", re.I)
# What `str.splitlines` ends a line at, and what `str.strip` takes off its ends (a line's opener is
# looked for after them), as classes of RE2's syntax.
_LINE_ENDS = r"\n\r\x0b\x0c\x1c-\x1e\x{85}\x{2028}\x{2029}"
_SPACES = r"\t-\r\x1c-\x20\x{85}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}"
# What every text `status_line` finds a failure in holds (in the lines it reads), whatever its case:
# a status line's opener at a line's start, one of the status lines' words (`_FAILURE_WORDS`) or
# system errors, or a short failure's word (`found`, `time`, `deadline`).
_HINT = rf"(?i)(?:^|[{_LINE_ENDS}])[{_SPACES}]*(?:e: |[45])|" + "|".join(
    re.escape(word) for word in (*_FAILURE_WORDS, "http", "curl", "time", "deadline", *_SYSTEM_ERRORS)
)


def failure(result: ToolResult, tool: str | None = None, may_report_error: bool = True) -> Any:
    """What a result of `tool` (else the tool the result names) says of its failure (the error,
    the status or the line saying so), or None when it says none. `may_report_error` False tells
    that the result reports no error (`tool_error.may_report_error` is False for it): its error is
    not looked for again."""
    error = reported_error(result) if may_report_error else None
    if error is not None:
        return error
    content = result.content
    if isinstance(content, list):
        content = "".join(
            part["text"] for part in content if isinstance(part, dict) and isinstance(part.get("text"), str)
        )
    if isinstance(content, dict):
        return _object_failure(content)
    if not isinstance(content, str):
        return None
    text = content.strip()
    if text.startswith("{") and _has_object_hint(text):
        value = _whole_json(text)
        if isinstance(value, dict):
            return _object_failure(value)
    if len(text) <= _WINDOW and not may_say_failure(text):
        return None  # (most short results: `status_line` could find no failure in them)
    name = tool or result.name
    return status_line(text, reads=bool(name) and _reads(name))


def _whole_json(text: str) -> Any:
    """The JSON value `text` (stripped, opening with `{`) holds whole, or None: what `json.loads`
    reads of it, without its two searches for white space around the value (stripping took it off)."""
    try:
        value, end = _DECODER.raw_decode(text)
    except (ValueError, RecursionError):
        return None
    return value if end == len(text) else None


@lru_cache(maxsize=1024)
def _reads(name: str) -> bool:
    """Whether a tool of this name reads data (its results are judged on their first line)."""
    return _READS.search(name) is not None


def _has_object_hint(text: str) -> bool:
    """Whether a JSON text may hold a status key (its name, or a part of it, written in it): one
    search after another, without a generator's cost, as most results are read here (the key most
    results that hold one hold first: a search that finds it ends at it)."""
    return (
        '"success' in text
        or '"status' in text
        or '"ok"' in text
        or '"succeeded"' in text
        or '"exit' in text
        or "code" in text
        or '"errors"' in text
        or '"errorMessages"' in text
    )


def _object_failure(value: dict[str, Any]) -> Any:
    """The failure an object states in its status keys, or in the one object it wraps."""
    found = _stated(value)
    if found is None and len(value) == 1 and isinstance(inner := next(iter(value.values())), dict):
        found = _stated(inner)
    return found


def _stated(value: dict[str, Any]) -> Any:
    if value.keys().isdisjoint(_STATUS_KEYS):
        return None
    status = value.get("status")
    if isinstance(status, str) and status.lower() in _STATUS_FAILED:
        return _said(value) or f'"status": "{status}"'
    for key in _FLAG_KEYS:
        if value.get(key) is False:
            return _said(value) or f'"{key}": false'
    for key in _HTTP_KEYS:
        code = value.get(key)
        if isinstance(code, str) and len(code) == 3 and code.isdigit():  # GitHub's `"status": "422"`
            code = int(code)
        if type(code) is int and 400 <= code <= 599:
            said = _said(value)
            return f"HTTP {code}" + (f": {said}" if isinstance(said, str) else "")
    for key in _EXIT_KEYS:
        code = value.get(key)
        if type(code) is int and code != 0:
            said = _said(value)
            return f"exit code {code}" + (f": {said}" if isinstance(said, str) else "")
    errors = value.get("errors")
    if "data" in value and value["data"] is None and isinstance(errors, list) and errors:
        return errors[0]
    if ("errors" in value or "errorMessages" in value) and value.keys() <= _ERROR_REPORT_KEYS:
        reported = [found for key in ("errors", "errorMessages") if (found := value.get(key))]
        if reported and isinstance(reported[0], (list, dict)):
            first = reported[0]
            return first[0] if isinstance(first, list) else next(iter(first.values()))
    return None


def _said(value: dict[str, Any]) -> Any:
    """What an object that states its failure says of it: its first non-empty message key."""
    return next((value[key] for key in ("message", "detail", "stderr", "reason") if value.get(key)), None)


def status_line(text: str, reads: bool) -> str | None:
    """The status line of a text (stripped) saying it failed (see the module's docstring), or None;
    `reads` tells a tool that reads data (its first line alone is a status line)."""
    if not text:
        return None
    heads = 1 if reads else _HEAD  # (a tool that reads data: its first line alone is cut out)
    head = text[: _WINDOW * _HEAD]
    lines = [line.strip()[:_WINDOW] for line in head.split("\n", heads)[:heads]]
    # a header stating the exit status (Codex's) decides, as a status line below does
    if ("xit" in head or "eturn" in head) and (stated := _exit_status(lines)) is not None:
        return stated[0] if stated[1] else None
    if not reads:
        lines += [line.strip() for line in text[-_WINDOW * _TAIL :].splitlines()[-_TAIL:]]
    lines = [line for line in lines if line]
    block = "\n".join(lines)
    folded = not block.isascii() and any(char in block for char in _FOLDED_TO_ASCII)
    lowered = block.lower()  # (as long as the block, its lines where they were, unless `folded`)
    # (every line stating an exit status holds one of the two words)
    if (folded or "exit" in lowered or "return" in lowered) and (stated := _exit_status(lines)) is not None:
        return stated[0] if stated[1] else None
    for line in _lines_that_may_say_failure(lines, lowered, folded):
        if (
            _OPENING.match(line)
            or _HTTP.search(line)
            or _TESTS_FAILED.match(line)
            or _SYSTEM_ERROR.search(line)
            or (line.rstrip(" .!")[-6:].lower() == "failed" and _ENDS_FAILED.search(line))
        ):
            return line
    if len(text) <= _WINDOW and text.count("\n") <= 1 and _SHORT_FAILURE.search(text):
        return text
    return None


def may_say_failure(text: str) -> bool:
    """Whether `text` holds what any check of `status_line` needs (`_HINT`), so that False rules it
    out: one search by RE2, an automaton in C++, several times quicker on a short text (no longer
    than `_WINDOW`, a status line's window) than cutting it into lines and looking for each word.
    A longer text most often holds one of the words (`return`, `time`, `found`, ...) somewhere, so
    `failure` does not ask first. A text holding a character that a pattern ignoring case matches
    to an ASCII letter (`_FOLDED_TO_ASCII`), which RE2 may not, is let through."""
    if not text.isascii() and any(char in text for char in _FOLDED_TO_ASCII):
        return True
    # (UTF-8 a lone surrogate kept as its bytes, which no hint holds: model text may hold one)
    return _hint().search(text.encode("utf-8", "surrogatepass")) is not None


@cache
def _hint() -> Any:
    """`_HINT` compiled by RE2 at its first use (a process that reads no result does not load it),
    to search UTF-8 bytes."""
    import re2

    options = re2.Options()
    options.never_capture = True
    return re2.compile(_HINT.encode(), options)


def _exit_status(lines: list[str]) -> tuple[str, int] | None:
    """The first of `lines` stating an exit status, with the status; None when none does."""
    for line in lines:
        if (exit_code := _EXIT.match(line)) is not None:
            return line, int(exit_code.group(1))
    return None


def _lines_that_may_say_failure(lines: list[str], lowered: str, folded: bool) -> list[str]:
    """The lines (none empty; `lowered` is them joined at line ends and lowered) that open with
    "HTTP" (`_OPENERS`), hold one of `_FAILURE_WORDS` or end with one of `_SYSTEM_ERRORS` as the
    forms' patterns match them (ignoring case), in order. Each word is found in them all by a search
    of its own, which matches alike unless they hold a character the patterns match to an ASCII
    letter (`folded`): then each line is searched by the pattern of them all."""
    if folded:
        return [line for line in lines if _MAY_SAY_FAILURE.search(line)]
    ends = list(accumulate(len(line) + 1 for line in lines))  # where each line ends, its "\n" included
    holding: set[int] = set()  # the lines holding a word
    for word in _FAILURE_WORDS:
        at = lowered.find(word)
        while at != -1:
            line = bisect_right(ends, at)
            holding.add(line)
            at = lowered.find(word, ends[line])  # (at the next line: one word found a line is enough)
    return [
        line
        for index, (line, low) in enumerate(zip(lines, lowered.split("\n"), strict=True))
        if index in holding or low.startswith(_OPENERS) or low.rstrip(". \t").endswith(_SYSTEM_ERRORS)
    ]
