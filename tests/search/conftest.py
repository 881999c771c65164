"""What the search tests share: each agent's real sample placed where the agent keeps it under
the test's empty home folder (`tests.helpers.home_sessions.EVERY_AGENT`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.home_sessions import every_agent_s_session


@pytest.fixture
def placed(empty_home: Path) -> dict[str, Path]:
    """Every agent's sample where that agent keeps it, by agent."""
    return every_agent_s_session(empty_home)
