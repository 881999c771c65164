"""The quick look `claimed-success` takes at a short tool result before reading its lines
(`failure_forms.may_say_failure`) rules out only results whose lines say no failure: on texts made
of every form a status line takes, its openers and words in any case, line breaks of every kind,
Unicode spaces, the characters a pattern ignoring case matches to ASCII letters and lone surrogates
(model text may hold one), wherever the full reading (`status_line`) finds a failure the look lets
the text through."""

from __future__ import annotations

from hypothesis import given
from hypothesis.strategies import booleans, lists, sampled_from

from inspector.detect.failure_forms import may_say_failure, status_line
from tests.helpers.properties import examples, replay

STATUS_LINES = (
    "Error: no such table",
    "ERROR",
    "fatal: not a git repository",
    "Failed to fetch",
    "Deployment failed",
    "npm ERR! code E404",
    "curl: (7) Failed to connect",
    "Traceback (most recent call last):",
    "ValueError: bad input",
    "HTTP/1.1 404 Not Found",
    "429 Too Many Requests",
    "500 Server Error",
    "status code 502",
    "returned error: 403",
    "exit code 1",
    "Exit code: 0",
    "Process exited with code 2",
    "returncode: 127",
    "=== 1 failed, 3 passed ===",
    "Tests: 2 failed",
    "E: Unable to locate package",
    "rm: cannot remove 'x': Permission denied",
    "mkdir: out: File exists",
    "cd: src: Is a directory.",
    "bash: foo: command not found",
    "not found",
    "timed out",
    "Timeout",
    "deadline exceeded",
)
PIECES = (
    *STATUS_LINES,
    *(line.upper() for line in STATUS_LINES[:8]),
    *("ok", "done", "4", "5", "45", "e:", "E: ", "x" * 120, "=", "(", ")", ":", ".", "!"),
    *("\n", "\r", "\r\n", "\x0b", "\x0c", "\x1c", "\x1e", "\x85", "\u2028", "\u2029"),
    *(" ", "\t", "\xa0", "\u2003", "\u3000", "\x1f"),
    *(
        "\u0130",
        "\u0131",
        "\u017f",
        "\u212a",
        "é",
        "中",
        "\ud800",
    ),  # İ, ı, ſ, Kelvin: ASCII letters, folded; a lone surrogate
    *("ST\u212aTUS", "\u017fuch", "FA\u0130L", "exıt"),
)
SHORT = 300  # characters: the texts `failure` looks at first (a status line's window)


@replay
@examples("INSPECTOR_FAILURE_LOOK_EXAMPLES", 300)
@given(lists(sampled_from(PIECES), max_size=8).map("".join), booleans())
def test_every_short_text_saying_it_failed_is_let_through(text, reads):
    text = text.strip()[:SHORT]
    if status_line(text, reads) is not None:
        assert may_say_failure(text)


def test_the_look_rules_out_results_that_say_no_failure():
    """What most results are: the look rules them out, so the lines of none are read."""
    for text in ("ok", "Wrote 3 files.", "hi\n", "1→import os\n2→print(1)", "Meeting moved to Thursday.", "[]"):
        assert not may_say_failure(text)


def test_each_form_of_failure_is_let_through_as_the_full_reading_finds_it():
    """Each status line alone, as written and upper-cased, and after each kind of line break and
    space: the full reading finds a failure (the exit code 0 aside) and the look lets it through."""
    for line in STATUS_LINES:
        for text in (line, line.upper(), f"ok\r{line}", f"ok\u2028\u3000{line}", f"ok\x85 {line}"):
            assert (status_line(text, False) is not None) == ("code: 0" not in text.lower())
            assert may_say_failure(text)
