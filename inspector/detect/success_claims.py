"""Reading a reply for claims that something was done: "I've emailed Priya the chart", "Done — the
file is saved", "Your table is booked" (for `claimed-success`), and for words that admit a
failure ("couldn't", "failed", "error", "sorry", "declined", "nothing was", ...); the words a call gives a reply are
`task_words`'.

A claim is a sentence, outside code blocks and quoted lines, and not a question, in which "I" or
"we" (with "have", "just", "already", ...) is followed by a completion verb in the past ("sent",
"saved", "created", or a tool's own verb: "booked" for `book_table`), or "is", "was", "has been"
... is followed by one, or that starts with "Done", "All set", "Success", ..., or that is a few
words ending with one ("Email sent!"), or that says tests, a build or "it" now pass or work ("All
tests pass", "The build succeeded", "It works now"), or that opens with a past verb and no
subject ("Saved the report to out.md", "Message posted to #ops!"), or that says a task "went
through" or "went out". Intents, conditionals and
modals before the verb ("I'll", "if", "once", "should", "let me") make it no claim. Linear time:
one pass per pattern over the text, one hedge search per sentence.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import NamedTuple

from inspector.detect.task_words import IRREGULAR_PAST, ONLY_PAST
from inspector.support.lazy_pattern import lazy_pattern

# Past forms that say a task was carried out; a tool's own words add theirs (`task_words`), among
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
        "started",
        "restarted",
        "stopped",
        "launched",
        "switched",
        "rebooted",
        "reloaded",
        "cleaned",
        "cleared",
        "migrated",
        "connected",
        "linked",
    ]
)

_PRONOUNS = frozenset({"i", "we", "you", "they", "he", "she", "it", "please", "let"})
_NOT_PROSE = lazy_pattern(r"```.*?(?:```|\Z)|^[ \t]*>[^\n]*", re.S | re.M)
_SENTENCE = lazy_pattern(r"\S(?:[^.!?\n]|[.!?](?=[^\s.!?]))*[.!?]*")
_ADVERBS = r"(?:\s+(?:just|already|now|also|successfully|all|been|gone\s+ahead\s+and|went\s+ahead\s+and)){0,3}"
_FIRST_PERSON = lazy_pattern(rf"\b(?:I|we)(?:'ve|'d|\s+have|\s+had)?{_ADVERBS}\s+(\w+)", re.I)
_STATE = lazy_pattern(rf"(?:\b(?:has|have|had|was|were|is|are|got|successfully)|(?<=\w)'s){_ADVERBS}\s+(\w+)", re.I)
# A word standing alone at the start of a sentence: "Done.", "All set!", "Done — the file is saved".
_OPENING = lazy_pattern(r"(?:all\s+(?:done|set)|done|sent|saved|success|completed|finished)\s*(?:[.!,:;—–-]|$)", re.I)
# Said of a task that was carried out, whatever it was: "The payment went through", "The email went out".
_WENT = lazy_pattern(r"\b(?:went|gone|got)\s+through\b|\bwent\s+out\b", re.I)
_HEDGE = lazy_pattern(
    r"\b(?:if|once|unless|whether|will|would|should|could|might|may|can|shall|must|let\s+me"
    r"|going\s+to|about\s+to|want\s+(?:me\s+)?to|try|trying|please)\b"
    r"|'ll\b",
    re.I,
)
_ADMISSION = lazy_pattern(
    r"\b(?:not|no|never|cannot|unable|fail(?:s|ed|ure|ing)?|errors?|erred|sorry|apologi[sz]e|apologies"
    r"|unfortunately|problems?|issues?|trouble|wrong|rejected|denied|refused|invalid|missing|retry"
    r"|again|unsuccessful(?:ly)?|bounced|blocked|timed?\s*out|unavailable|broken|declined"
    r"|nothing\s+(?:was|were|is|has|have|got))\b|n't\b",
    re.I,
)
_PASSING = lazy_pattern(
    r"\b(?:tests?|specs?|checks?|builds?|suite|pipeline|ci|everything|it)"
    r"(?:\s+(?:now|all|still))?\s+(?:pass(?:es|ed)?|succeed(?:s|ed)?|works?|worked|(?:is|are)\s+(?:passing|green|working))\b",
    re.I,
)
_YOU = lazy_pattern(r"\b(?:you|they|he|she)\b", re.I)
_SHORT = 40  # characters: a short sentence ending with a completion verb is a claim


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
    went = _WENT.search(sentence)
    if went is not None and not _HEDGE.search(sentence, 0, went.end()):
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
        if (verb in COMPLETED or verb in verbs) and (verb.endswith("ed") or verb in ONLY_PAST or verb == "done"):
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


def past_forms(forms: Iterable[str]) -> frozenset[str]:
    """The forms among `forms` that can be a verb in the past (for `claims`' `verbs`)."""
    return frozenset(form for form in forms if form.endswith("ed") or form in IRREGULAR_PAST or form in COMPLETED)
