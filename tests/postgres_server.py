"""The tests' PostgreSQL server: a session-scoped fixture starting a throwaway server
(`postgres_cluster.running_server`) and stopping it at the end, and a database of its own for each
test (`postgres_db`). Tests are skipped, saying why, on a machine without the server binaries
(`.ci/run` installs them)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from postgres_cluster import PostgresServer, running_server, server_binaries


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A PostgreSQL server of the test session's own, stopped at the end."""
    binaries = server_binaries()
    if binaries is None:
        pytest.skip("PostgreSQL's initdb and pg_ctl are not installed (apt-get install postgresql)")
    with running_server(binaries) as server:
        yield server


@pytest.fixture
def postgres_db(postgres_server: PostgresServer) -> str:
    """The URL of a new, empty database on the test session's server."""
    return postgres_server.database()
