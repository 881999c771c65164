"""Reading a reply for claims that something was done: "I've emailed Priya the chart", "Done — the
file is saved", "Your table is booked" (for `claimed-success`), and for words that admit a
failure ("couldn't", "failed", "error", "sorry", ...), and the words a tool's name gives a reply
(`send_email`: send, sent, email, emailed, ...), and a shell call's command (`git push`: git,
push, pushed, ...; a test run: test, tests, pass, passed, ...).

A claim is a sentence, outside code blocks and quoted lines, and not a question, in which "I" or
"we" (with "have", "just", "already", ...) is followed by a completion verb in the past ("sent",
"saved", "created", or a tool's own verb: "booked" for `book_table`), or "is", "was", "has been"
... is followed by one, or that starts with "Done", "All set", "Success", ..., or that is a few
words ending with one ("Email sent!"), or that says tests, a build or "it" now pass or work ("All
tests pass", "The build succeeded", "It works now"), or that opens with a past verb and no subject
("Saved the report to out.md", "Message posted to #ops!"). Intents, conditionals and modals before the verb ("I'll",
"if", "once", "should", "let me") make it no claim. Linear time: one pass per pattern over the text, one hedge search per sentence.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import NamedTuple

from inspector.model import ToolCall

# Past forms that say a task was carried out; a tool's own words add theirs (`tool_forms`), among
# them the verbs of looking things up ("read", "searched", "found"), which alone claim nothing.
COMPLETED = frozenset(
    [
        "done",
        "completed",
        "finished",
        "sent",
        "emailed",
        "mailed",
        "texted",
        "messaged",
        "saved",
        "stored",
        "written",
        "wrote",
        "created",
        "made",
        "added",
        "updated",
        "uploaded",
        "posted",
        "published",
        "scheduled",
        "booked",
        "reserved",
        "delivered",
        "submitted",
        "deleted",
        "removed",
        "recorded",
        "logged",
        "deployed",
        "installed",
        "moved",
        "renamed",
        "copied",
        "generated",
        "fixed",
        "applied",
        "shared",
        "forwarded",
        "ordered",
        "paid",
        "cancelled",
        "canceled",
        "notified",
        "filed",
        "registered",
        "committed",
        "pushed",
        "merged",
        "opened",
        "closed",
        "charged",
        "refunded",
        "issued",
        "transferred",
        "replied",
        "invited",
        "assigned",
        "edited",
        "changed",
        "modified",
        "configured",
        "enabled",
        "disabled",
        "archived",
        "exported",
        "imported",
        "downloaded",
        "attached",
        "signed",
        "approved",
        "confirmed",
        "set",
        "put",
        "placed",
        "drafted",
        "arranged",
        "passed",
        "succeeded",
        "built",
        "ran",
    ]
)

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
_IRREGULAR_PAST = frozenset(form for forms in _IRREGULAR.values() for form in forms.split())
# The past forms that are no present or imperative too ("sent", not "set" or "read").
_ONLY_PAST = _IRREGULAR_PAST - _IRREGULAR.keys()
_PRONOUNS = frozenset({"i", "we", "you", "they", "he", "she", "it", "please", "let"})
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

_NOT_PROSE = re.compile(r"```.*?(?:```|\Z)|^[ \t]*>[^\n]*", re.S | re.M)
_SENTENCE = re.compile(r"\S(?:[^.!?\n]|[.!?](?=[^\s.!?]))*[.!?]*")
_ADVERBS = r"(?:\s+(?:just|already|now|also|successfully|all|been|gone\s+ahead\s+and|went\s+ahead\s+and)){0,3}"
_FIRST_PERSON = re.compile(rf"\b(?:I|we)(?:'ve|'d|\s+have|\s+had)?{_ADVERBS}\s+(\w+)", re.I)
_STATE = re.compile(rf"(?:\b(?:has|have|had|was|were|is|are|got|successfully)|(?<=\w)'s){_ADVERBS}\s+(\w+)", re.I)
# A word standing alone at the start of a sentence: "Done.", "All set!", "Done — the file is saved".
_OPENING = re.compile(r"(?:all\s+(?:done|set)|done|sent|saved|success|completed|finished)\s*(?:[.!,:;—–-]|$)", re.I)
_HEDGE = re.compile(
    r"\b(?:if|once|unless|whether|will|would|should|could|might|may|can|shall|must|let\s+me"
    r"|going\s+to|about\s+to|want\s+(?:me\s+)?to|try|trying|please)\b"
    r"|'ll\b",
    re.I,
)
_ADMISSION = re.compile(
    r"\b(?:not|no|never|cannot|unable|fail(?:s|ed|ure|ing)?|errors?|erred|sorry|apologi[sz]e|apologies"
    r"|unfortunately|problems?|issues?|trouble|wrong|rejected|denied|refused|invalid|missing|retry"
    r"|again|unsuccessful(?:ly)?|bounced|blocked|timed?\s*out|unavailable|broken)\b|n't\b",
    re.I,
)
_PASSING = re.compile(
    r"\b(?:tests?|specs?|checks?|builds?|suite|pipeline|ci|everything|it)"
    r"(?:\s+(?:now|all|still))?\s+(?:pass(?:es|ed)?|succeed(?:s|ed)?|works?|worked|(?:is|are)\s+(?:passing|green|working))\b",
    re.I,
)
_COMMAND_KEYS = ("command", "cmd", "script", "commandLine", "command_line")
_REQUEST_KEYS = ("method", "action", "operation")  # a request's verb: POST, PUT, delete ...
_COMMAND_WORDS = 3  # a command's program, subcommand and one more word name what it does
# The verbs of the shell's short programs, which their names do not spell.
_PROGRAMS = {"cp": "copy", "mv": "move", "rm": "remove delete", "cat": "read", "mkdir": "create", "ln": "link"}
_TEST_RUN = re.compile(r"\b(?:pytest|test|tests|jest|vitest|mocha|unittest|tox|rspec|phpunit|ctest)\b", re.I)
_TEST_WORDS = frozenset({"test", "tests", "pass", "passes", "passed", "passing", "green", "suite"})
_YOU = re.compile(r"\b(?:you|they|he|she)\b", re.I)
_SHORT = 40  # characters: a short sentence ending with a completion verb is a claim
_WORD = re.compile(r"[a-z0-9]+")
_NAME_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+")


class Claim(NamedTuple):
    """A sentence claiming something was done, where it starts, and whether it is bare: "Done.",
    "All set!", "Email sent!" say nothing of what else was done, so they stand for the last task."""

    start: int
    sentence: str
    bare: bool


def claims(text: str, verbs: frozenset[str]) -> Iterator[Claim]:
    """The sentences of `text` that claim something was done; `verbs` are the completion verbs (in
    the past) that count, besides `COMPLETED`."""
    prose = _NOT_PROSE.sub(lambda match: "\n" * len(match.group()), text) if "`" in text or ">" in text else text
    for match in _SENTENCE.finditer(prose):
        sentence = match.group()
        if sentence.endswith("?"):
            continue
        bare = _is_bare_claim(sentence, verbs)
        if bare or _is_claim(sentence, verbs):
            yield Claim(match.start(), sentence, bare)


def _is_bare_claim(sentence: str, verbs: frozenset[str]) -> bool:
    """ "Done", "All set", "Success" opening a sentence, a past verb with no subject opening it
    ("Saved the report", "Message posted"), or a few words ending with a completion verb ("Email
    sent!", "Meeting booked.")."""
    if _OPENING.match(sentence):
        return True
    elliptic = _elliptic_end(sentence, verbs)
    if elliptic is not None:
        return not _HEDGE.search(sentence, 0, elliptic)
    said = sentence.split() if len(sentence) <= _SHORT else ()
    if not 2 <= len(said) <= 4 or _HEDGE.search(sentence):
        return False
    last = said[-1].rstrip(".!").lower()
    return last in COMPLETED or last in verbs


def _is_claim(sentence: str, verbs: frozenset[str]) -> bool:
    end = _claim_end(sentence, verbs)
    if end is None:
        passing = _PASSING.search(sentence)
        end = passing.end() if passing is not None else None
    return end is not None and not _HEDGE.search(sentence, 0, end)


def _elliptic_end(sentence: str, verbs: frozenset[str]) -> int | None:
    """Where a completion verb in the past that opens the sentence, or follows its first word
    when that is no pronoun, ends ("Saved the report", "Message posted"); None when none does."""
    said = sentence[:80].split(None, 2)[:2]
    for index, word in enumerate(said):
        verb = word.rstrip(".!,:;").lower()
        if (verb in COMPLETED or verb in verbs) and (verb.endswith("ed") or verb in _ONLY_PAST or verb == "done"):
            return sentence.find(word) + len(word)
        if index == 0 and verb in _PRONOUNS:
            return None
    return None


def _claim_end(sentence: str, verbs: frozenset[str]) -> int | None:
    """Where the first completion verb after "I" or "we", or after "is"/"has been" (in a sentence
    not about what the user did: "you have uploaded"), ends; None when there is none."""
    ends = []
    first = _first_completion(_FIRST_PERSON, sentence, verbs)
    if first is not None:
        ends.append(first)
    state = _first_completion(_STATE, sentence, verbs)
    if state is not None and not _YOU.search(sentence, 0, state):
        ends.append(state)
    return min(ends) if ends else None


def _first_completion(pattern: re.Pattern[str], sentence: str, verbs: frozenset[str]) -> int | None:
    for match in pattern.finditer(sentence):
        verb = match.group(1).lower()
        if verb in COMPLETED or verb in verbs:
            return match.end()
    return None


def admits_failure(text: str, tool_words: frozenset[str]) -> bool:
    """Whether `text` has a word admitting a failure ("couldn't", "failed", "error", "sorry",
    "not", "again", ...); words of the tools' own names (`create_issue`: "issue") do not count."""
    return any(match.group().lower() not in tool_words for match in _ADMISSION.finditer(text))


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


def past_forms(forms: Iterable[str]) -> frozenset[str]:
    """The forms among `forms` that can be a verb in the past (for `claims`' `verbs`)."""
    return frozenset(form for form in forms if form.endswith("ed") or form in _IRREGULAR_PAST or form in COMPLETED)
