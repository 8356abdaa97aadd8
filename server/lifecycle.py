"""The game server's resources, each started and stopped by one ``cleanup_ctx`` entry.

:func:`add_resources` gives an application its config and metrics, and appends
one entry per resource, in the order they start::

    _database_lock  one server per SQLite file (boardroom.server.single_server); a PostgreSQL
                    database serves every process of a cluster
    _store          the database, opened and migrated (boardroom.server.store)
    _engine_pool    the AI's worker processes, started and warmed (boardroom.server.engine_pool)
    _hub            the rooms and sessions, the games in progress restored (boardroom.server.hub);
                    with --cluster, this process joined to the others (boardroom.server.cluster)
    _lag_monitor    the event loop's lag, for /healthz and /metrics (boardroom.server.metrics)
    _ready          the garbage collector tuned for serving, and "server ready" logged

The features append theirs after these (class mode, tournaments, leaderboards).
aiohttp enters the entries in order and, when the application is cleaned up,
exits only those that entered, the last first. So a start-up that fails part way
gives back what it had taken, in reverse order, provided the runner is cleaned up
after its failed ``setup()`` too (``boardroom.server.cli`` and ``tests/harness.py`` do;
``tests/e2e/test_e2e_start_up.py`` holds them to it).

Each key below is set by the entry that starts its resource, before any later
entry runs, so a feature's entry reads the hub or the store from here. The keys
live beside the code that fills them: a feature needs nothing from
:mod:`boardroom.server.app`, which imports the features.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator

from aiohttp import web

from boardroom.server.cluster.node import CLUSTER, ClusterNode
from boardroom.server.config import ServerConfig
from boardroom.server.engine_pool import EnginePool
from boardroom.server.gc_tuning import tune_for_serving
from boardroom.server.hub import GameServer
from boardroom.server.metrics import LoopLagMonitor, ServerMetrics
from boardroom.server.player_directory import PlayerDirectory
from boardroom.server.recorder import GameRecorder
from boardroom.server.single_server import DatabaseLock
from boardroom.server.store import Store, open_store

# The server's start and stop are logged as the app's, as they were when the app
# started its resources itself (docs/operations.md shows these lines).
logger = logging.getLogger("boardroom.server.app")

CONFIG = web.AppKey("config", ServerConfig)
"""The settings, from :func:`add_resources` on."""
METRICS = web.AppKey("metrics", ServerMetrics)
"""The Prometheus metrics, from :func:`add_resources` on (the door and the HTTP
rate limit count into them before start-up)."""
STORE = web.AppKey[Store]("store")
"""The open database, from its entry on."""
POOL = web.AppKey("pool", EnginePool)
"""The engine's worker pool, started and warmed, from its entry on."""
HUB = web.AppKey("hub", GameServer)
"""The rooms and sessions, the games in progress restored, from its entry on."""
LAG = web.AppKey("lag", LoopLagMonitor)
"""The event loop's lag monitor, running, from its entry on."""

_RESTORED_ROOMS = web.AppKey("restored_rooms", int)
"""How many rooms the hub brought back at start-up, for the "server ready" line."""
_READY = web.AppKey("ready", bool)
"""Set once "server ready" is logged: "server stopped" is said of such a server only."""


def add_resources(app: web.Application, config: ServerConfig) -> None:
    """Set :data:`CONFIG` and :data:`METRICS` on ``app`` and append the resources'
    entries (the module docstring). Call before anything that appends entries
    needing them (the features)."""
    app[CONFIG] = config
    app[METRICS] = ServerMetrics()
    app.cleanup_ctx.extend(
        (_database_lock, _store, _engine_pool, _hub, _lag_monitor, _ready),
    )


async def _database_lock(app: web.Application) -> AsyncIterator[None]:
    # DatabaseInUseError at once if another server holds the file: nothing else starts.
    # A PostgreSQL database takes no lock: every process of a cluster shares it.
    database = app[CONFIG].database
    lock = DatabaseLock(database)
    lock.acquire()
    try:
        yield
    finally:
        lock.release()
        if app.get(_READY, False):
            # The store's own name for it: a URL's password left out.
            logger.info("server stopped", extra={"database": app[STORE].path})


async def _store(app: web.Application) -> AsyncIterator[None]:
    store = open_store(app[CONFIG].database)  # a file, or a postgresql:// URL
    await store.open()  # a failed open closes what it opened
    app[STORE] = store
    try:
        yield
    finally:
        await store.close()  # after every write under way


async def _engine_pool(app: web.Application) -> AsyncIterator[None]:
    config = app[CONFIG]
    pool = EnginePool(
        workers=config.workers,
        max_queue=config.engine_queue,
        engine=config.engine,
        reserved=config.engine_reserve,
    )
    await pool.start()  # a failed start shuts down the workers it started
    app[POOL] = pool
    try:
        yield
    finally:
        await pool.close()


async def _hub(app: web.Application) -> AsyncIterator[None]:
    recorder = GameRecorder(app[STORE])
    hub = GameServer(
        app[CONFIG],
        recorder=recorder,
        players=PlayerDirectory(
            app[STORE],
            class_mode=app[CONFIG].class_mode,
            new_players=app[CONFIG].new_players_per_address,
            new_player_seconds=app[CONFIG].new_player_seconds,
        ),
        engine=app[POOL],
        metrics=app[METRICS],
    )
    node: ClusterNode | None = None
    if app[CONFIG].cluster:
        config = app[CONFIG]
        node = ClusterNode(config.cluster, config.cluster_name, class_name=config.class_name)
        await node.connect()  # Redis unreachable, or another class's home: the start fails
        hub.elsewhere = node
        app[CLUSTER] = node
    try:
        app[_RESTORED_ROOMS] = await hub.start(restore=None if node is None else node.claim_room)
        if node is not None:
            await node.serve(hub)
        app[HUB] = hub
        yield
    finally:
        await hub.stop()
        if node is not None:
            await node.close()


async def _lag_monitor(app: web.Application) -> AsyncIterator[None]:
    lag = LoopLagMonitor(app[METRICS])
    lag.start()
    app[LAG] = lag
    try:
        yield
    finally:
        await lag.stop()


async def _ready(app: web.Application) -> AsyncIterator[None]:
    tune_for_serving()  # after the start-up's allocations, which it freezes
    config = app[CONFIG]
    logger.info(
        "server ready",
        extra={
            "database": app[STORE].path,
            "workers": config.workers,
            "restored_rooms": app[_RESTORED_ROOMS],
        },
    )
    app[_READY] = True
    yield
