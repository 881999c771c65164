"""A count and its words agree: one record is named in the singular, with a verb that agrees,
and any other count in the plural."""

from __future__ import annotations

import pytest

from inspector.support.counted_words import counted

ONE = "message that is not a user's or an assistant's"
MANY = "messages that are not a user's or an assistant's"


@pytest.mark.parametrize(
    ("count", "line"),
    [
        (1, "1 message that is not a user's or an assistant's"),
        (2, "2 messages that are not a user's or an assistant's"),
        (1234, "1,234 messages that are not a user's or an assistant's"),
    ],
)
def test_the_words_agree_with_the_count(count, line):
    assert counted(count, ONE, MANY) == line
