"""Real Redis and PostgreSQL servers for the cluster tests, started by the tests.

Each is Debian's own program (``make test`` installs the packages, as it does
Chromium), run from a temporary folder on a free port of 127.0.0.1, and stopped
when the test session ends: nothing is shared with another test run or with a
server the machine may already have.

- :func:`start_redis` runs ``redis-server`` with no persistence: the cluster's
  Redis holds only what the live processes rebuild (docs/operations.md).
- :func:`start_postgres` runs ``initdb`` and ``postgres`` in a folder of its own,
  with ``fsync`` and ``synchronous_commit`` left at PostgreSQL's defaults (on), so
  the store's durability is tested as it runs in production. PostgreSQL refuses
  to run as root; as root (CI) the server runs as the ``postgres`` user that
  Debian's package makes.

Where a program is missing, :func:`require` fails the test with the command
that installs it.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

# The benchmark starts the same programs; what both need is written once, there.
from boardroom.client.bench.services import free_port, postgres_bin, stop_postgres, stop_process

START_TIMEOUT_S = 30.0
SHARED_DATABASE = "boardroom_tests"
"""The one database of a test PostgreSQL server; each test has a schema of it."""


INSTALLED_BY = {
    "redis-server": ("redis-server", "Debian's redis-server"),
    "postgres": ("postgres", "Debian's postgresql"),
    "caddy": ("caddy", "Debian's caddy"),
}
"""Each program a test may need: how it is looked for, and the package that has it."""


def require(program: str) -> None:
    """Fail the calling test, saying how to install ``program``, if it is missing.

    A failure, not a skip: ``make test`` and ``make test-fast`` install the
    packages first (``make services``), so a missing program is a broken set-up,
    and a suite that skipped the cluster would pass without testing it."""
    name, package = INSTALLED_BY[program]
    found = postgres_bin() is not None if program == "postgres" else shutil.which(name)
    if not found:
        pytest.fail(f"{name} is not installed: `make services` ({package})")


def _wait_for_port(port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server stopped as it started:\n{log.read_text()[-2000:]}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
            return
        time.sleep(0.05)
    process.kill()
    raise RuntimeError(f"the server did not listen on {port} in {START_TIMEOUT_S} s")


@dataclass(frozen=True)
class RedisServer:
    """A running ``redis-server``: its address for ``--cluster``."""

    port: int
    process: subprocess.Popen[bytes]

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"


@contextlib.contextmanager
def start_redis(port: int | None = None) -> Iterator[RedisServer]:
    """Run a fresh ``redis-server`` on ``port`` (a free one if None) until the
    block ends; a test restarts Redis empty by stopping one and starting
    another on the same port."""
    require("redis-server")
    with tempfile.TemporaryDirectory(prefix="boardroom-redis-") as folder:
        port = free_port() if port is None else port
        log = Path(folder) / "redis.log"
        command = [
            "redis-server",
            "--port", str(port),
            "--bind", "127.0.0.1",
            "--save", "",
            "--appendonly", "no",
            "--dir", folder,
            "--logfile", str(log),
        ]  # fmt: skip
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        try:
            _wait_for_port(port, process, log)
            yield RedisServer(port, process)
        finally:
            stop_process(process)


@dataclass(frozen=True)
class PostgresServer:
    """A running PostgreSQL server with an empty database per :meth:`new_database`."""

    port: int
    process: subprocess.Popen[bytes]
    user: str
    _shared_made: bool = False

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """An empty database of the caller's own, as a URL: a new schema of the
        server's one test database, named by ``search_path`` in the URL (a
        schema costs nothing; a ``CREATE DATABASE`` copies a template, about
        0.25 s a test). Tables the store makes go into that schema."""
        schema = f"t{os.urandom(6).hex()}"
        programs = postgres_bin()
        assert programs is not None
        psql = [str(programs / "psql"), "-h", "127.0.0.1", "-p", str(self.port), "-U", self.user]
        if not self._shared_made:
            subprocess.run([str(programs / "createdb"), *psql[1:], SHARED_DATABASE],
                           check=True, capture_output=True)  # fmt: skip
            object.__setattr__(self, "_shared_made", True)
        subprocess.run([*psql, "-d", SHARED_DATABASE, "-q", "-c", f"CREATE SCHEMA {schema}"],
                       check=True, capture_output=True)  # fmt: skip
        return f"{self.url(SHARED_DATABASE)}?search_path={schema}"

    def new_whole_database(self) -> str:
        """A new empty database of its own (``CREATE DATABASE``), for a test that
        changes a database-wide setting; its address."""
        name = f"boardroom_{os.urandom(6).hex()}"
        programs = postgres_bin()
        assert programs is not None
        subprocess.run(
            [str(programs / "createdb"), "-h", "127.0.0.1", "-p", str(self.port),
             "-U", self.user, name],
            check=True,
            capture_output=True,
        )  # fmt: skip
        return self.url(name)


def _as_postgres_user() -> tuple[list[str], str]:
    """The prefix that runs a command as a user PostgreSQL accepts, and that user."""
    if os.geteuid() != 0:
        return [], pwd.getpwuid(os.geteuid()).pw_name
    return ["runuser", "-u", "postgres", "--"], "postgres"


def _wait_until_ready(
    programs: Path, port: int, user: str, process: subprocess.Popen[bytes], log: Path
) -> None:
    # PostgreSQL listens before it accepts connections ("the database system is
    # starting up"): a createdb made at once then fails, now and then.
    deadline = time.monotonic() + START_TIMEOUT_S
    ready = [str(programs / "pg_isready"), "-q", "-h", "127.0.0.1", "-p", str(port), "-U", user]
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server stopped as it started:\n{log.read_text()[-2000:]}")
        if subprocess.run(ready, check=False).returncode == 0:
            return
        time.sleep(0.05)
    raise RuntimeError(f"PostgreSQL on {port} was not ready in {START_TIMEOUT_S} s")


@contextlib.contextmanager
def start_postgres() -> Iterator[PostgresServer]:
    """Run ``initdb`` and a fresh PostgreSQL on a free port until the block ends."""
    require("postgres")
    programs = postgres_bin()
    assert programs is not None
    prefix, user = _as_postgres_user()
    with tempfile.TemporaryDirectory(prefix="boardroom-postgres-") as folder:
        data = Path(folder) / "data"
        data.mkdir()
        log = Path(folder) / "postgres.log"
        log.touch()
        if prefix:
            shutil.chown(folder, user)
            shutil.chown(data, user)
            shutil.chown(log, user)
        subprocess.run(
            [*prefix, str(programs / "initdb"), "-D", str(data), "-U", user,
             "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C"],
            check=True,
            capture_output=True,
        )  # fmt: skip
        port = free_port()
        # The socket folder is the data folder: /var/run/postgresql may not exist
        # (or belong to another server) on a test machine.
        command = [
            *prefix, str(programs / "postgres"), "-D", str(data), "-p", str(port),
            "-h", "127.0.0.1", "-k", str(data), "-c", "max_connections=200",
        ]  # fmt: skip
        with log.open("ab") as out:
            process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
        try:
            _wait_for_port(port, process, log)
            _wait_until_ready(programs, port, user, process, log)
            yield PostgresServer(port, process, user)
        finally:
            stop_postgres(process, data)  # immediate: the folder goes with it
