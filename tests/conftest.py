"""The fixtures every folder of tests shares: an empty home folder for every test (no test ever
reads the real one), a writer of OpenAI Chat session files, a copy of a sample session, a real
`llm` logs.db, and a throwaway PostgreSQL server with a database of its own for each test that
asks for one (a test asking for the server or the logs.db is slow: `-m "not slow"` leaves it out).
Under pytest-xdist each worker starts its own server, once, when one of its tests first asks."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

pytest.register_assert_rewrite("tests.helpers")  # the helpers' asserts explain their failures too

from tests.helpers.llm_cli import build_logs_db
from tests.helpers.postgres_cluster import PostgresServer, running_server, server_binaries
from tests.helpers.samples import SESSIONS


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by marker
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test asking for the PostgreSQL server or llm's logs.db is slow."""
    for item in items:
        if {"postgres_server", "logs_db"} & set(item.fixturenames):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def empty_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test runs with an empty home folder of its own: `inspector` with no path finds no
    session, and no test can read the real one's sessions (`~/.claude`, `~/.codex`, `~/.gemini`,
    `~/.qwen`, `llm`'s folder). Every variable that moves one of those folders points inside it too."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("USERPROFILE", str(home))
    monkeypatch.setattr(Path, "home", classmethod(lambda cls: home))
    for name, inside in (
        ("CLAUDE_CONFIG_DIR", ".claude"),
        ("CODEX_HOME", ".codex"),
        ("GEMINI_CLI_HOME", ""),
        ("QWEN_HOME", ".qwen"),
        ("QWEN_RUNTIME_DIR", ".qwen"),
        ("COPILOT_HOME", ".copilot"),
        ("CONTINUE_GLOBAL_DIR", ".continue"),
        ("LLM_USER_PATH", ".config/io.datasette.llm"),
        ("XDG_CONFIG_HOME", ".config"),
        ("XDG_DATA_HOME", ".local/share"),
        ("XDG_CACHE_HOME", ".cache"),
        ("XDG_STATE_HOME", ".local/state"),
        ("APPDATA", "AppData/Roaming"),
    ):
        monkeypatch.setenv(name, str(home / inside))
    for name in ("OPENCODE_DB", "KILO_DB"):  # a database named outside the data folder
        monkeypatch.delenv(name, raising=False)
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


@pytest.fixture
def session_copy(tmp_path: Path) -> Path:
    """The memory-agent sample (five unexecuted save_memory replies) copied into tmp_path, so
    nothing is written into the package."""
    return Path(shutil.copy(SESSIONS / "memory-agent.openai.json", tmp_path / "memory-agent.openai.json"))


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
