"""Detector `claimed-execution`: the assistant says a tool ran, and no call of it was made.

Seed 004: the harness could not parse the model's call, nothing ran, and the next replies said
"The `run_code` tool was used..." and "The Python script has executed successfully...", with
made-up output. A reply is flagged when one of its sentences claims, in the past tense, that a
tool, script, command, search or test ran or gave output ("I ran the tests", "the search returned
3 results", "the script has executed successfully and printed hello") while the session holds no
structured call of the tool named in that sentence (a catalogue name, or a backticked name next to
"tool"/"function") before the reply, or, when none is named, of any tool in the same phase: since
the latest system message, as agent harnesses open each phase with one (a `set_state`
call of the planning phase does not back "the script has executed" in the solving phase). No fix:
only the person can tell what really happened.

Precision first. Not claims: intents ("I will run it now", "Let me run", "I'm going to call"),
questions, conditionals and modals ("if", "once", "should", "would", "may"), negations ("No tool
was used", "I haven't run it"), what the user ran ("When you ran it, your script printed..."),
present-tense explanations ("this function returns None"), code blocks and quoted lines. The
verbs are few on purpose (ran, executed, used, returned, printed, "I've run"): a reply without one
costs a few substring searches and is never split into sentences.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from operator import attrgetter

from inspector.detect.context import ScanContext
from inspector.detect.contract import Detector
from inspector.model import ASSISTANT, SYSTEM, WARNING, Finding, Turn
from inspector.support.lazy_pattern import lazy_pattern

KIND = "claimed-execution"

_SUBJECT = r"(?<!binary )(?<!linear )(?:tool|command|script|code|program|query|search|lookup|tests?|test suite|cell|snippet|request)"
# The words one of which every `_SUBJECT` holds, lowered.
_SUBJECT_WORDS = (
    "tool",
    "command",
    "script",
    "code",
    "program",
    "query",
    "search",
    "lookup",
    "test",
    "cell",
    "snippet",
    "request",
)
_GAP = r"(?:\s+[^\s.!?,;:]+){0,3}?"
_ADVERB = r"(?:\s+(?:just|already|now|also|then|successfully))?"
_FIRST_PERSON = lazy_pattern(
    rf"\bI(?:'ve|\s+have|\s+had)?{_ADVERB}\s+(?:ran|executed)\b(?!\s+(?:into|out|across)\b)"
    r"|\bI've run\b"
    rf"|\bI(?:'ve|\s+have|\s+had)?{_ADVERB}\s+used\s+(?:the\s+)?(?:`\w+`|\w+\s+(?:tool|api)\b)",
    re.I,
)
_OTHER = lazy_pattern(
    rf"\b{_SUBJECT}\b{_GAP}\s+(?:has|have|had|was|were){_ADVERB}(?:\s+been)?{_ADVERB}\s+(?:used|ran|executed)\b"
    rf"|\b(?:{_SUBJECT}|it)\b{_GAP}\s+(?:executed|ran)\s+(?:successfully|without\s+(?:any\s+)?errors?)\b"
    rf"|\b{_SUBJECT}\b{_GAP}\s+(?:returned|printed)\b",
    re.I,
)
_HEDGE = lazy_pattern(
    r"\b(?:if|once|unless|whether|will|would|should|could|might|may|can|cannot|let\s+me|going\s+to"
    r"|about\s+to|supposed\s+to|not|never|no|expect|assuming)\b|n't\b|'ll\b",
    re.I,
)
_YOU = lazy_pattern(r"\byou(?:r|'ve|'re|'d)?\b", re.I)
_NAMED = lazy_pattern(r"`(\w+)`\s+(?:tool|function)\b|\b(?:tool|function)\s+`(\w+)`|\b(\w+_\w+)\s+tool\b", re.I)
_NOT_PROSE = lazy_pattern(r"```.*?(?:```|\Z)|^[ \t]*>[^\n]*", re.S | re.M)
_NAME = attrgetter("name")
_SENTENCE = lazy_pattern(r"\S(?:[^.!?\n]|[.!?](?=[^\s.!?]))*[.!?]*")


def detect(context: ScanContext) -> Iterator[Finding]:
    """A finding for each assistant reply holding a claim of a tool run that no earlier call backs."""
    called: set[str] = set()
    uncalled = [spec.name for spec in context.catalogue]
    phase_has_call = every_tool_ran = False
    catalogue_names: re.Pattern[str] | None = None
    for turn in context.exchange_turns:
        if turn.role == SYSTEM:
            phase_has_call = every_tool_ran = False
        # Once every catalogue tool has run in the phase (most turns of a long session), only a name
        # from outside the catalogue, which needs a backtick or an underscore, can leave a claim
        # unsupported: that test is made here, as a call per turn would cost more than it.
        elif (
            turn.role == ASSISTANT
            and (not every_tool_ran or "`" in turn.text or "_" in turn.text)
            and _worth_reading(turn.text, phase_has_call, uncalled)
        ):
            for start, sentence in claims(turn.text):
                if catalogue_names is None:
                    catalogue_names = _names_pattern(context)
                tool = _claimed_tool(sentence, catalogue_names)
                supported = tool in called if tool else phase_has_call
                if not supported:
                    yield _finding(turn, tool, start, sentence)
                    break
        if not turn.tool_calls or (phase_has_call and called.issuperset(map(_NAME, turn.tool_calls))):
            continue  # nothing this turn's calls could change (most turns of a long session)
        ran = [call.name for call in turn.tool_calls if context.ran(call)]
        if ran:
            phase_has_call = True
            if not called.issuperset(ran):
                called.update(ran)
                uncalled = [name for name in uncalled if name not in called]
            every_tool_ran = not uncalled


def _worth_reading(text: str, phase_has_call: bool, uncalled: list[str]) -> bool:
    """Whether `text` could hold an unsupported claim. Once a tool has run in the phase, only a
    claim naming a tool that never ran can be; a name from outside the catalogue needs a backtick
    or an underscore, so a reply with neither and no uncalled catalogue name is skipped (when that
    check is cheaper than looking for the verbs: single characters are found fastest)."""
    if (
        phase_has_call
        and len(uncalled) < 4
        and "`" not in text
        and "_" not in text
        and not (uncalled and any(name in text for name in uncalled))
    ):
        return False
    return _has_claim_verb(text)


def claims(text: str) -> Iterator[tuple[int, str]]:
    """The sentences of `text` (outside code blocks and quoted lines) that claim a tool ran or
    gave output, each with where it starts."""
    prose = _NOT_PROSE.sub(lambda match: "\n" * len(match.group()), text) if "`" in text or ">" in text else text
    for match in _SENTENCE.finditer(prose):
        sentence = match.group()
        if sentence.endswith("?") or not _has_claim_verb(sentence):
            continue
        first = _FIRST_PERSON.search(sentence)
        if first and not _HEDGE.search(sentence, 0, first.end()):
            yield match.start(), sentence
            continue
        other = _OTHER.search(sentence) if _may_name_a_subject(sentence) else None
        if other and not _HEDGE.search(sentence, 0, other.end()) and not _YOU.search(sentence, 0, other.end()):
            yield match.start(), sentence


def _may_name_a_subject(sentence: str) -> bool:
    """Whether `sentence` holds a word that every claim `_OTHER` finds names (its subject, or "it"
    with "successfully" or "without"): one substring test per word, where the pattern would try
    every word of the sentence. Text beyond ASCII is always searched: the pattern's case folding
    matches a few letters outside it (`ſ` for `s`, `ı` for `i`)."""
    if not sentence.isascii():
        return True
    lowered = sentence.lower()
    return any(word in lowered for word in _SUBJECT_WORDS) or (
        "it" in lowered and ("successfully" in lowered or "without" in lowered)
    )


def _has_claim_verb(text: str) -> bool:
    """Whether `text` holds one of the verbs every claim pattern needs: one fast pass per verb,
    so the patterns run on few replies and few sentences."""
    return (
        "ran" in text
        or "xecuted" in text
        or "used" in text
        or "eturned" in text
        or "rinted" in text
        or "I've run" in text
    )


def _names_pattern(context: ScanContext) -> re.Pattern[str] | None:
    names = sorted((spec.name for spec in context.catalogue if spec.name), key=len, reverse=True)
    if not names:
        return None
    return re.compile(r"(?<![\w-])(?:" + "|".join(map(re.escape, names)) + r")(?![\w-])")


def _claimed_tool(sentence: str, catalogue_names: re.Pattern[str] | None) -> str | None:
    """The tool a claim names: a catalogue tool, else a backticked or snake_case name next to "tool"."""
    known = catalogue_names.search(sentence) if catalogue_names else None
    if known:
        return known.group()
    named = _NAMED.search(sentence)
    return next(name for name in named.groups() if name) if named else None


def _finding(turn: Turn, tool: str | None, start: int, sentence: str) -> Finding:
    quoted = sentence if len(sentence) <= 120 else sentence[:120] + "…"
    if tool:
        message = (
            f'The reply says the {tool} tool ran or gave output ("{quoted}"), but no {tool} call was made before it.'
        )
    else:
        message = f'The reply says a tool ran or gave output ("{quoted}"), but no tool was called before it.'
    return Finding.at(
        turn, KIND, WARNING, message, (start, start + len(sentence)), tool, payload={"claim": sentence}, executed=False
    )


DETECTOR = Detector(KIND, WARNING, detect)
