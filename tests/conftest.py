"""The fixtures every folder of tests shares: an empty home folder for every test (no test ever
reads the real one), a writer of OpenAI Chat session files, a real `llm` logs.db, and a throwaway
PostgreSQL server with a database of its own for each test that asks for one. A test that asks for
the server or the logs.db is slow (left out by `-m "not slow"`), and under pytest-xdist
(`--dist loadgroup`) the tests sharing one runs on one worker, so each starts once."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

pytest.register_assert_rewrite("tests.helpers")  # the helpers' asserts explain their failures too

from tests.helpers.llm_cli import build_logs_db
from tests.helpers.postgres_cluster import PostgresServer, running_server, server_binaries


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by marker
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test asking for the PostgreSQL server or llm's logs.db is slow; the tests sharing one (every
    server test, a module's logs.db) go to one worker, so each starts once."""
    for item in items:
        if "postgres_server" in item.fixturenames:
            item.add_marker(pytest.mark.slow)
            item.add_marker(pytest.mark.xdist_group("postgres"))
        if "logs_db" in item.fixturenames:
            item.add_marker(pytest.mark.slow)
            item.add_marker(pytest.mark.xdist_group(item.module.__name__))


@pytest.fixture(autouse=True)
def empty_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test runs with an empty home folder of its own: `inspector` with no path finds no
    session, and no test can read the real one's sessions (`~/.claude`, `~/.codex`, `~/.gemini`,
    `llm`'s folder). Every variable that moves one of those folders points inside it too."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("USERPROFILE", str(home))
    monkeypatch.setattr(Path, "home", classmethod(lambda cls: home))
    for name, inside in (
        ("CLAUDE_CONFIG_DIR", ".claude"),
        ("CODEX_HOME", ".codex"),
        ("GEMINI_CLI_HOME", ""),
        ("LLM_USER_PATH", ".config/io.datasette.llm"),
        ("XDG_CONFIG_HOME", ".config"),
        ("XDG_DATA_HOME", ".local/share"),
        ("XDG_CACHE_HOME", ".cache"),
        ("XDG_STATE_HOME", ".local/state"),
        ("APPDATA", "AppData/Roaming"),
    ):
        monkeypatch.setenv(name, str(home / inside))
    return home


@pytest.fixture
def write_session(tmp_path: Path) -> Callable[..., Path]:
    """Write an OpenAI Chat session file `{"messages", "tools"}` and return its path."""

    def write(messages: list, tools: list | None = None, name: str = "session.json") -> Path:
        path = tmp_path / name
        document: dict = {"messages": messages}
        if tools is not None:
            document["tools"] = tools
        path.write_text(json.dumps(document, indent=2), encoding="utf-8")
        return path

    return write


@pytest.fixture(scope="module")
def logs_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real `llm` logs.db (one per test module): a thread with a fake save_memory result, and one
    with a real call that ran."""
    return build_logs_db(tmp_path_factory.mktemp("llm"))


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A PostgreSQL server of the test session's own (of each worker's, under pytest-xdist), stopped
    at the end. Tests asking for it are skipped, saying why, on a machine without the server
    binaries (`.ci/run` installs them)."""
    binaries = server_binaries()
    if binaries is None:
        pytest.skip("PostgreSQL's initdb and pg_ctl are not installed (apt-get install postgresql)")
    with running_server(binaries) as server:
        yield server


@pytest.fixture
def postgres_db(postgres_server: PostgresServer) -> str:
    """The URL of a new, empty database on the test session's server."""
    return postgres_server.database()
