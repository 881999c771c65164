"""A count and the words for what was counted, agreeing with it: "1 message that is not a user's
or an assistant's", "2 messages that are not a user's or an assistant's". Readers word the records they kept but
could not read (a session's `problems`) through `counted`, and reports and commands their counts
("1 session", "2 new items"), giving both phrases in full, so a verb or a pronoun after the noun
agrees too."""

from __future__ import annotations


def counted(count: int, one: str, many: str) -> str:
    """`count` followed by `one` (the phrase for a single record) when it is 1, else by `many`."""
    return f"{count:,} {one if count == 1 else many}"
