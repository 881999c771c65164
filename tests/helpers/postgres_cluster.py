"""A throwaway PostgreSQL server (for the tests' fixtures in `tests/conftest.py` and the benchmark):
Debian's `initdb` and `pg_ctl` (`/usr/lib/postgresql/*/bin/`) run into a temporary folder, the
server listening on a free port of 127.0.0.1 (trust authentication) and on a Unix socket in that
folder, stopped and removed at the end. `initdb` refuses to run as root: as root both run as the
`postgres` user, who owns the folder. No pytest here: the benchmark stays small."""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from itertools import count
from pathlib import Path

import psycopg

_numbers = count(1)


class PostgresServer:
    """A running server: `url(db)` names one of its databases; `database()` makes a new one."""

    def __init__(self, port: int) -> None:
        self.port = port

    def url(self, database: str = "postgres") -> str:
        """The URL of `database` on this server."""
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def database(self) -> str:
        """Create an empty database; its URL."""
        name = f"test_{os.getpid()}_{next(_numbers)}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}" TEMPLATE template0')
        return self.url(name)


def server_binaries() -> Path | None:
    """The folder of the newest installed PostgreSQL's `initdb` and `pg_ctl`, if any."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[-3]))
    return Path(found[-1]).parent if found else None


def free_port() -> int:
    """A TCP port of 127.0.0.1 nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def running_server(binaries: Path) -> Iterator[PostgresServer]:
    """A new server made with the `initdb` and `pg_ctl` in `binaries`, stopped and removed on leaving
    (the benchmark uses it too)."""
    folder = Path(tempfile.mkdtemp(prefix="inspector-postgres-"))
    as_user: list[str] = []
    if os.geteuid() == 0:  # initdb refuses root: the server runs as `postgres`, who owns the folder
        owner = pwd.getpwnam("postgres")
        os.chown(folder, owner.pw_uid, owner.pw_gid)
        as_user = ["runuser", "-u", "postgres", "--"]
    data, port = folder / "data", free_port()

    def run(*command: str) -> None:
        subprocess.run([*as_user, *command], check=True, capture_output=True, timeout=60)

    try:
        run(
            str(binaries / "initdb"),
            "-D",
            str(data),
            "-A",
            "trust",
            "-U",
            "postgres",
            "-E",
            "UTF8",
            "--locale=C",
            "--no-sync",
        )
        options = f"-p {port} -h 127.0.0.1 -k {folder} -F -c fsync=off -c full_page_writes=off"
        run(
            str(binaries / "pg_ctl"),
            "-D",
            str(data),
            "-o",
            options,
            "-l",
            str(folder / "log"),
            "-w",
            "-t",
            "30",
            "start",
        )
        yield PostgresServer(port)
    finally:
        subprocess.run(
            [*as_user, str(binaries / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"],
            capture_output=True,
            timeout=60,
        )
        shutil.rmtree(folder, ignore_errors=True)
