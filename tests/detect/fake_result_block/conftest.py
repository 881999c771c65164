"""The fixture of the `fake-result-block` tests: a session of two replies that each leak a Hermes call
and invent its result."""

from __future__ import annotations

import pytest

from tests.helpers.fake_result_block import ENDING_REPLY, HERMES_REPLY, WEATHER


@pytest.fixture
def weather_session(write_session):
    """A session of two weather questions, each answered by a leaked Hermes call and the result the
    model invented for it (the second reply ends on it)."""
    return write_session(
        [
            {"role": "user", "content": "What's the weather in Oslo?"},
            {"role": "assistant", "content": HERMES_REPLY},
            {"role": "user", "content": "And Bergen?"},
            {"role": "assistant", "content": ENDING_REPLY},
        ],
        [WEATHER],
    )
