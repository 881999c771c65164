"""The words a reply about a call would use (for `claimed-success`): the words of its tool's name
with their inflections (`send_email`: send, sends, sent, email, emailed, ...), a request's verb,
and a shell command's program and subcommand (`git push`: git, push, pushed; `cp`: copy, copied;
a test run: test, tests, pass, passed, ...)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from inspector.model import ToolCall
from inspector.support.lazy_pattern import lazy_pattern

_IRREGULAR: dict[str, str] = {
    "send": "sent",
    "write": "wrote written",
    "make": "made",
    "build": "built",
    "get": "got gotten",
    "find": "found",
    "run": "ran",
    "take": "took taken",
    "give": "gave given",
    "buy": "bought",
    "pay": "paid",
    "put": "put",
    "set": "set",
    "read": "read",
    "draw": "drew drawn",
    "do": "did done",
    "go": "went gone",
    "begin": "began begun",
    "tell": "told",
    "keep": "kept",
    "leave": "left",
    "hold": "held",
    "speak": "spoke spoken",
    "shut": "shut",
    "lay": "laid",
}
# The past forms of the irregular verbs, and those that are no present or imperative too ("sent", not
# "set" or "read").
IRREGULAR_PAST = frozenset(form for forms in _IRREGULAR.values() for form in forms.split())
ONLY_PAST = IRREGULAR_PAST - _IRREGULAR.keys()
# Words of tool names that say nothing about which tool a reply means.
_GENERIC = frozenset(
    {
        "get",
        "set",
        "run",
        "use",
        "call",
        "tool",
        "tools",
        "api",
        "func",
        "function",
        "the",
        "and",
        "for",
        "with",
        "new",
        "data",
        "info",
        "from",
        "into",
        "list",
        "all",
        "mcp",
    }
)
_COMMAND_KEYS = ("command", "cmd", "script", "commandLine", "command_line")
_REQUEST_KEYS = ("method", "action", "operation")  # a request's verb: POST, PUT, delete ...
_COMMAND_WORDS = 3  # a command's program, subcommand and one more word name what it does
# The verbs of the shell's short programs, which their names do not spell.
_PROGRAMS = {"cp": "copy", "mv": "move", "rm": "remove delete", "cat": "read", "mkdir": "create", "ln": "link"}
_TEST_RUN = lazy_pattern(r"\b(?:pytest|test|tests|jest|vitest|mocha|unittest|tox|rspec|phpunit|ctest)\b", re.I)
_TEST_WORDS = frozenset({"test", "tests", "pass", "passes", "passed", "passing", "green", "suite"})
_WORD = lazy_pattern(r"[a-z0-9]+")
_NAME_WORD = lazy_pattern(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+")


def words(text: str) -> set[str]:
    """The lowercase words of `text`."""
    return set(_WORD.findall(text.lower()))


def tool_forms(name: str) -> frozenset[str]:
    """The words a reply about tool `name` would use: each word of the name (`send_email`,
    `sendEmail`: send, email) with its inflections (sends, sending, sent, emailed, ...); words
    that name no particular tool ("get", "tool", "data") and words shorter than three letters
    are left out."""
    forms: set[str] = set()
    for word in _NAME_WORD.findall(name):
        word = word.lower()
        if len(word) < 3 or word in _GENERIC:
            continue
        forms.update(_inflections(word))
    return frozenset(forms)


def _inflections(word: str) -> Iterable[str]:
    stem = word[:-1] if word.endswith("e") else word
    forms = [word, word + "s", word + "es", stem + "ed", stem + "ing"]
    if word.endswith("y"):
        forms += [word[:-1] + "ied", word[:-1] + "ies"]
    if len(word) > 2 and word[-1] not in "aeiouwxy" and word[-2] in "aeiou" and word[-3] not in "aeiou":
        forms += [word + word[-1] + "ed", word + word[-1] + "ing"]  # log: logged, ship: shipped
    forms += _IRREGULAR.get(word, "").split()
    return forms


def command_of(call: ToolCall) -> str | None:
    """The command a shell call runs (its `command`, `cmd`, ... argument), or None."""
    arguments = call.arguments or {}
    return next((arguments[key] for key in _COMMAND_KEYS if isinstance(arguments.get(key), str)), None)


def call_forms(call: ToolCall) -> frozenset[str]:
    """The words a reply about a call would use besides its tool's name: a request's verb
    (`"method": "POST"`: post, posted, ...), a shell command's first words with their inflections
    (`git push origin`: git, push, pushed, origin, ...; `cp`: copy, copied, ...), and for a test
    run (`pytest`, `npm test`, ...) the words of tests passing (test, tests, pass, passed, ...)."""
    arguments = call.arguments or {}
    forms: set[str] = set()
    for key in _REQUEST_KEYS:
        if isinstance(arguments.get(key), str):
            forms |= tool_forms(arguments[key][:40])
    command = command_of(call)
    if command is None:
        return frozenset(forms)
    for word in command[:200].split()[:_COMMAND_WORDS]:
        program = word.rsplit("/", 1)[-1]
        forms |= tool_forms(program)
        for verb in _PROGRAMS.get(program, "").split():
            forms |= tool_forms(verb)
    if _TEST_RUN.search(command[:200]):
        forms |= _TEST_WORDS
    return frozenset(forms)
