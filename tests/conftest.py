"""Fixtures shared by the test modules, and the markers that say which layer a test is in.

A test under ``tests/e2e`` is marked ``e2e`` and one under ``tests/browser`` is
marked ``browser`` by where it lives, so a new file needs no marker of its own.
A test in a unit folder that takes seconds because it runs whole programs or
processes (a real server, worker processes, a whole benchmark run, a long match
between engine levels) carries ``@pytest.mark.e2e`` itself.
``make test-fast`` leaves both kinds out; ``make test`` runs everything.
"""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from pytest_asyncio import is_async_test
from services import PostgresServer, RedisServer, start_postgres, start_redis

from boardroom.server.store import GameStore, Store, open_store
from boardroom.shared.engine import solvers
from boardroom.shared.engine.kernel import kernel_for
from boardroom.shared.games import GridGame, get_game


def write_bytecode() -> None:
    """Let this process and every process it starts keep compiled bytecode
    (``__pycache__``), even where the environment says not to
    (``PYTHONDONTWRITEBYTECODE``, which some shells and containers set).

    Why: the suite starts hundreds of Python processes (servers, their engine
    workers, the CLI, bots, load tests, two pytest workers), and each one that may
    not read what another compiled compiles Boardroom's sources again, and pytest
    rewrites the asserts of every test module again: with the variable set,
    collecting the suite took 10.9 s of CPU against 3.9 s, and a ``boardroom``
    command started in 1.1 s of CPU against 0.8 s (docs/benchmarks.md, "The test
    suite").
    The files are Python's own cache, ignored by git (``__pycache__/``), and
    checked against their sources' times and sizes on every import.
    """
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    sys.dont_write_bytecode = False


write_bytecode()  # before the pytest workers start: they and their children inherit it

TESTS = Path(__file__).resolve().parent
MARKED_BY_FOLDER = {TESTS / "e2e": pytest.mark.e2e, TESTS / "browser": pytest.mark.browser}
"""Every test under each folder gets the folder's marker."""


ON_THE_SESSION_LOOP = (TESTS / "browser",)
"""Folders whose tests all run on one event loop per process (pytest-asyncio's
session loop, not a loop per test): the browser tests, which share one Chromium
that way (tests/browser/conftest.py)."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    session_loop = pytest.mark.asyncio(loop_scope="session")
    for item in items:
        for folder, marker in MARKED_BY_FOLDER.items():
            if item.path.is_relative_to(folder):
                item.add_marker(marker)
        if is_async_test(item) and any(item.path.is_relative_to(f) for f in ON_THE_SESSION_LOOP):
            item.add_marker(session_loop, append=False)


@pytest.fixture(scope="session")
def compiled_solver_ready() -> None:
    """Load the compiled exact solver in this process, once per session, before the
    first test that asks for it (compiling it into numba's disk cache the first
    time on a machine): a search under a deadline must not pay for that, as the
    server's warmed workers never do, and a pool or server started on the
    compiled solver finds it in the cache.

    Only the tests that run the compiled solver ask for it, most by their
    module's ``pytestmark = pytest.mark.usefixtures("compiled_solver_ready")``:
    the engine's and the bench's tests, the engine pool's, the servers started
    with ``engine="auto"``, a bot at ``--engine perfect``. The others never
    import numba (about 1 s a session with its cache warm, several seconds
    without; docs/benchmarks.md, "Test warm-up")."""
    game = get_game("connect4")
    assert isinstance(game, GridGame)
    solvers.warm_up(kernel_for(game))


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """A database file that does not exist yet, in the test's own directory."""
    return tmp_path / "games.db"


STORES = ["sqlite", "postgres"]
"""The backends of the store: each test that takes :func:`database` or
:func:`store` runs once on each."""


@pytest.fixture(params=STORES)
def database(request: pytest.FixtureRequest, db_path: Path) -> str:
    """A database that holds nothing yet, as ``open_store`` takes it: the SQLite
    file :func:`db_path`, or a new database of the session's PostgreSQL server."""
    if request.param == "sqlite":
        return str(db_path)
    server: PostgresServer = request.getfixturevalue("postgres_server")
    return server.new_database()


@pytest.fixture
async def store(database: str) -> AsyncIterator[Store]:
    """A store open on :func:`database` for the test (SQLite, then PostgreSQL), closed after it."""
    async with open_store(database) as opened:
        yield opened


@pytest.fixture
async def sqlite_store(db_path: Path) -> AsyncIterator[GameStore]:
    """A SQLite store open on :func:`db_path`, for what only SQLite has (its file,
    its pragmas), closed after the test."""
    async with GameStore(db_path) as opened:
        yield opened


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    """A real ``redis-server`` of the test process's own, started at first use
    (tests/services.py); a test that needs a clean one flushes it."""
    with start_redis() as server:
        yield server


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A real PostgreSQL server of the test process's own, started at first use;
    each test makes its own database with :meth:`PostgresServer.new_database`."""
    with start_postgres() as server:
        yield server
