"""Whether a reply ends by announcing a tool action: "Let me search for that now.", "I'll save this
to your journal.", "Now I'll run the tests.", "Running the tests now...".

Only the reply's last sentence is read (before at most two fillers such as "One moment." or "I'll
report back."): it must start in the last `WINDOW` characters and be at most 200 long, and only
the last `TAIL` characters are ever read, so a reply of any length costs the same; a few substring
tests turn most replies away before any regular expression runs. The sentence must open with the
announcement ("Sure, let me", "I'll", "I will", "I'm going to", "Let's", after at most three
interjections such as "OK," or "Now"), name an action a tool does (search, look up, check, run,
save, write, fetch, open, send, book, fix, try again...), and hold no hedge.

Precision first. Not announcements: questions and offers ("Shall I search for it?"), conditions
("If you want, I'll save it.", "I'll book it once you confirm."), deferrals ("I'll check later",
"tomorrow", "next time"), modals ("I could run it"), closings ("Let me know...", "I'll be here",
"Let me explain:" and what follows), a reply ending in code or a quoted line, verbs that need no
tool (explain, summarise, think, remember, help) and idioms ("check back", "call it a day").
"""

from __future__ import annotations

import re
import unicodedata

from inspector.support.lazy_pattern import lazy_pattern
from inspector.support.leading_space import SPACE, always_matching

TAIL = 600
_LONGEST = 200  # characters: a longer sentence is no announcement
WINDOW = 280  # characters: an announcement starts in the reply's last WINDOW (fillers after it included)
_FILLERS_AT_MOST = 2
# A sentence ending so is no announcement (a question, or code); the end of a reply that ends so is
# left as it is by `_without_trailing_symbols`, so such a reply is turned away before any other test.
_NO_ANNOUNCEMENT_ENDS = ("?", "```")

# Each action as (base form, -ing form), then the phrases that need more words.
_VERBS = (
    ("search", "searching"),
    ("check", "checking"),
    ("double-check", "double-checking"),
    ("verify", "verifying"),
    ("run", "running"),
    ("rerun", "rerunning"),
    ("re-run", "re-running"),
    ("execute", "executing"),
    ("test", "testing"),
    ("save", "saving"),
    ("store", "storing"),
    ("record", "recording"),
    ("log", "logging"),
    ("write", "writing"),
    ("create", "creating"),
    ("update", "updating"),
    ("edit", "editing"),
    ("modify", "modifying"),
    ("delete", "deleting"),
    ("remove", "removing"),
    ("fetch", "fetching"),
    ("retrieve", "retrieving"),
    ("pull", "pulling"),
    ("grab", "grabbing"),
    ("download", "downloading"),
    ("upload", "uploading"),
    ("open", "opening"),
    ("read", "reading"),
    ("call", "calling"),
    ("query", "querying"),
    ("find", "finding"),
    ("browse", "browsing"),
    ("scan", "scanning"),
    ("list", "listing"),
    ("install", "installing"),
    ("compile", "compiling"),
    ("build", "building"),
    ("deploy", "deploying"),
    ("send", "sending"),
    ("email", "emailing"),
    ("book", "booking"),
    ("schedule", "scheduling"),
    ("reserve", "reserving"),
    ("cancel", "cancelling"),
    ("calculate", "calculating"),
    ("compute", "computing"),
    ("inspect", "inspecting"),
    ("investigate", "investigating"),
    ("analyze", "analyzing"),
    ("analyse", "analysing"),
    ("fix", "fixing"),
    ("patch", "patching"),
    ("apply", "applying"),
    ("commit", "committing"),
    ("push", "pushing"),
    ("restart", "restarting"),
    ("trigger", "triggering"),
    ("invoke", "invoking"),
    ("submit", "submitting"),
    ("navigate", "navigating"),
    ("visit", "visiting"),
    ("click", "clicking"),
    ("retry", "retrying"),
    ("gather", "gathering"),
    ("collect", "collecting"),
    ("export", "exporting"),
    ("import", "importing"),
    ("convert", "converting"),
    ("plot", "plotting"),
    ("clone", "cloning"),
    ("refresh", "refreshing"),
    ("reload", "reloading"),
    ("lookup", "looking up"),
    ("set up", "setting up"),
    ("dig into", "digging into"),
    ("look up", "looking up"),
    ("look into", "looking into"),
    ("look for", "looking for"),
    ("look through", "looking through"),
)
_PHRASES = (
    r"look(?:ing)?\s+(?:it|that|this|them|those|these|the\s+\w+)\s+up",
    r"(?:take|taking)\s+a\s+(?:quick\s+|closer\s+|deeper\s+)?look",
    r"(?:try|trying)\s+(?:(?:it|that|this|once)\s+)?again",
    r"(?:try|trying)\s+(?:something\s+else|a\s+different|another|an\s+alternative|the\s+other)",
    r"(?:add|adding)(?!\s+that\s+(?!(?:to|now|for|in|into|as|there|here|right|too)\b)\w)",  # not "I'll add that it..."
    r"(?:note|noting|jot|jotting)\s+(?:it|that|this)\s+down",
    r"make\s+a\s+note",
    r"(?:use|using)\s+(?:the\s+[\w-]+\s+tool|`)",
    r"see\s+what\s+(?:I|we)\s+can\s+(?:find|dig\s+up|pull\s+up|turn\s+up)",
    r"get(?:ting)?\s+(?:right\s+)?on\s+(?:it|that|this)",
    r"do(?:ing)?\s+(?:it|that|this|so)\s+(?:now|right\s+(?:away|now)|immediately|straight\s+away)",
)
# Verb uses that are no tool action: "check back", "run you through", "read it back", "write back",
# "check my understanding", "run with that", "open by saying", "call it a day".
_NOT_AN_ACTION = (
    r"(?!\s+(?:back|in\s+with|you\s+through|through\s+(?:it|this|that|the\s+steps)|it\s+back|that\s+back"
    r"|(?:my|our)\s+understanding|with\s+(?:that|this|it)|by|it\s+a\s+day)\b)"
)


def _alternation(words: list[str]) -> str:
    """Words as a regular expression alternation, longest first, spaces matching any white space."""
    return "|".join(re.escape(word).replace(r"\ ", r"\s+") for word in sorted(set(words), key=len, reverse=True))


_BASE = _alternation([base for base, _ in _VERBS])
_GERUND = _alternation([gerund for _, gerund in _VERBS])
_ACTION = rf"(?:(?:{'|'.join(_PHRASES)})|(?:{_BASE}|{_GERUND}){_NOT_AN_ACTION})\b"
_LEAD = (
    r"(?:(?:ok(?:ay)?|alright|all\s+right|sure(?:\s+thing)?|great|got\s+it|understood|perfect|right|good|now|next"
    r"|first(?:\s+of\s+all)?|so|yes|no\s+problem|certainly|absolutely|of\s+course|sounds\s+good|thanks|thank\s+you"
    r"|cool|hmm|ah|oh|done|on\s+it)\b[,!.:;]*\s+(?:[-–—]\s+)?)"
)
# Each subject holds a word `_may_announce` looks for.
_SUBJECT = r"(?:let\s+me|let'?s|let\s+us|i'll|i\s+will|(?:i'm|i\s+am)\s+(?:now\s+)?(?:going|about)\s+to)"
_STEP = (
    r"(?:\s+(?:now|just|quickly|first|also|then|next|immediately|actually|instead|right\s+away|go\s+ahead\s+and"
    r"|proceed\s+to|try\s+to|need\s+to|have\s+to|start\s+by|begin\s+by|continue\s+by))"
)
_INTENT = lazy_pattern(rf"{_LEAD}{{0,3}}{_SUBJECT}{_STEP}{{0,3}}\s+{_ACTION}", re.I)
# "Running the tests now...", "I'm checking that for you right now."
_UNDER_WAY = lazy_pattern(rf"{_LEAD}{{0,3}}(?:i'?m\s+|i\s+am\s+)?(?:now\s+)?(?:{_GERUND})\b", re.I)
_NOW = lazy_pattern(r"\bnow\b", re.I)
_HEDGE = lazy_pattern(
    r"\b(?:if\s+(?:you|needed|necessary|required|desired|so|possible|that'?s|that\s+is|preferred|wanted|any)"
    r"|once\s+(?:you|we|I\s+have|I'?ve)|when\s+you|whenever|after\s+you|as\s+soon\s+as|unless|until|would|could|might"
    r"|maybe|perhaps|probably|possibly|together|later|tomorrow|next\s+(?:time|week|month|session)|some\s*time|eventually"
    r"|(?:by\s+)?(?:the\s+)?end\s+of\s+(?:the\s+)?(?:day|week|month)"
    r"|in\s+the\s+future|soon|at\s+some\s+point|in\s+a\s+(?:bit|while)|on\s+your\s+(?:go|signal|command|confirmation)"
    r"|with\s+your\s+(?:permission|approval|go-ahead|ok|okay)|want\s+me|should\s+I|can\s+I|shall\s+I"
    r"|you(?:'ll|\s+(?:can|could|should|might|may|will|need)))\b",
    re.I,
)
_REPORT_BACK = (
    r"i'?ll\s+(?:report\s+back|get\s+back\s+to\s+you|update\s+you|let\s+you\s+know\s+(?:what|how)[\w\s']*"
    r"|share\s+(?:the\s+)?(?:results|findings|what\s+I\s+find))"
    r"(?:\s+(?:shortly|soon|in\s+a\s+moment|with\s+\w+(?:\s+\w+)?|once\s+(?:it'?s\s+)?done"
    r"|when\s+(?:it'?s\s+)?done))?"
)
_FILLER = lazy_pattern(
    r"(?:(?:just\s+)?(?:one|a)\s+(?:moment|sec(?:ond)?|minute|min)|hang\s+(?:on|tight)|stand\s+by|hold\s+on"
    r"|(?:please\s+)?(?:wait|hold(?:\s+on)?|bear\s+with\s+me)|be\s+right\s+back|stay\s+tuned"
    r"|thanks\s+for\s+(?:your\s+)?(?:patience|waiting)|(?:this|it)\s+(?:won't|will\s+not|shouldn't)\s+take\s+long"
    r"|(?:this|it)\s+(?:may|might|will|could|should)\s+take\s+(?:a\s+)?(?:moment|minute|bit|while|few\s+\w+)"
    rf"|{_REPORT_BACK})[\s.!…]*",
    re.I,
)
# What ends a sentence, read backwards from the reply's end: a full stop, a question or exclamation
# mark, an ellipsis, a colon followed by white space, or a line end; a clause after a semicolon or a
# dash counts as a sentence ("The path was wrong — let me fix that.").
_LAST_BOUNDARY = lazy_pattern(r".*(?:[.!?…:;—–]\s|\n)", re.S)
_MARKDOWN = always_matching(r"[*_#\-+•\s]*(?:\d+[.)]\s+)?[*_]*")


def may_end_announcing(text: str) -> bool:
    """Whether `text` may end with an announcement (`final_announcement` may find one): it ends
    with no question or fence, and its last `WINDOW` characters hold a word every announcement does."""
    return not text.endswith(_NO_ANNOUNCEMENT_ENDS) and _may_announce(text[-WINDOW:])


def final_announcement(text: str) -> tuple[int, str] | None:
    """The reply's closing announcement of a tool action, with where it starts in `text`, or None.
    Read backwards: the last sentence, or the one before up to two fillers; a few searches of the
    last `TAIL` characters, and one anchored match that fails at once on most sentences."""
    if not may_end_announcing(text):
        return None
    start = max(0, len(text) - TAIL)
    tail = _without_trailing_symbols(text[start:])
    end = len(tail)
    for _ in range(_FILLERS_AT_MOST + 1):
        if not end or tail.endswith(_NO_ANNOUNCEMENT_ENDS, 0, end):
            return None
        opening = _sentence_start(tail, end)
        if opening < 0 and (start > 0 or end > _LONGEST):  # longer than an announcement
            return None
        opening = SPACE.match(tail, max(opening, 0)).end()
        sentence = tail[opening:end]
        if not _FILLER.fullmatch(_plain(sentence)):
            break
        end = len(tail[:opening].rstrip())
    else:
        return None
    if len(sentence) > _LONGEST or start + opening < len(text) - WINDOW or _quoted(tail, opening):
        return None
    words = _MARKDOWN.match(sentence).end()
    return (start + opening, sentence) if _announces(_plain(sentence[words:])) else None


def _sentence_start(tail: str, end: int) -> int:
    """Where the sentence that ends at `end` starts (after the last boundary before it), or -1
    when no boundary comes in the `_LONGEST` characters before it. One match whose greedy start
    runs to `end` and steps back to the last boundary: the cost is the sentence's length."""
    found = _LAST_BOUNDARY.match(tail, max(0, end - _LONGEST - 2), end)
    return found.end() if found else -1


def _may_announce(ending: str) -> bool:
    """Whether the end of a reply holds a word that every announcement does: a few substring
    tests, so that most replies are never split into sentences. A word with a capital or an
    apostrophe is looked for only when that one character is there: a one-character test is a
    `memchr`, several times cheaper than a word's, and most replies hold no "L", "N" or apostrophe."""
    return (
        "let" in ending
        or "will" in ending
        or "about to" in ending
        or ("L" in ending and "Let" in ending)
        or ("'" in ending and "'ll" in ending)
        or ("\u2019" in ending and "\u2019ll" in ending)
        or (
            "ing" in ending  # ("going to" holds it: most replies' ends lack it, and are searched once less)
            and (
                "going to" in ending
                or "now" in ending
                or ("N" in ending and "Now" in ending)
                or "..." in ending
                or "\u2026" in ending
            )
        )
    )


def _announces(sentence: str) -> bool:
    """Whether a sentence opens by announcing a tool action, with no hedge."""
    announces = _INTENT.match(sentence) or (
        "ing" in sentence
        and (sentence.endswith(("...", "…")) or _NOW.search(sentence) is not None)
        and _UNDER_WAY.match(sentence)
    )
    return bool(announces) and not _HEDGE.search(sentence)


def _plain(sentence: str) -> str:
    """Curly apostrophes as straight ones (the same length, so offsets hold)."""
    return sentence.replace("\u2019", "'") if "\u2019" in sentence else sentence


def _quoted(tail: str, start: int) -> bool:
    """Whether the line holding `start` is a quoted line (`> ...`)."""
    line = tail.rfind("\n", 0, start) + 1
    return tail[line:start].lstrip().startswith(">") or tail.startswith(">", start)


def _without_trailing_symbols(text: str) -> str:
    """`text` without the white space, emoji and Markdown emphasis at its end."""
    if text[-1:].isalnum() or text.endswith((".", "!", "?", ":")):
        return text  # (most replies)
    end = len(text)
    while end and (
        text[end - 1].isspace()
        or text[end - 1] in "*_~\ufe0f\u200d"
        or unicodedata.category(text[end - 1]) == "So"
        or 0x1F3FB <= ord(text[end - 1]) <= 0x1F3FF
    ):
        end -= 1
    return text[:end]
