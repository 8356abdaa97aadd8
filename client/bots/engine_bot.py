"""Our own engine as a remote bot (``--engine LEVEL``).

Searches run in a process pool, never on the event loop (the connection's
heartbeats and the other games go on while one searches), and get what the
server's AI gets: the level's own time limit, cut to a share of the bot's clock
in a room with one. What crosses to a worker is a
:class:`~boardroom.shared.engine.SearchRequest` (game name, move string, limits).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import random
import signal
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from boardroom.client.bots.brains import Brain, BrainSource
from boardroom.client.bots.errors import BotFailedError, BotLoadError, FailureKind
from boardroom.client.bots.state import GameState
from boardroom.shared.engine import SearchRequest, parse_level, plan_search, run_search_request
from boardroom.shared.errors import BoardroomError
from boardroom.shared.games import game_specs
from boardroom.shared.i18n import _

CLOCK_SHARE = 0.1
"""Share of the time left that one search may use with a clock: the server AI's
rule (``CLOCK_SHARE`` in ``server/room_host.py``), so ``--engine`` plays as the
AI of the same level would."""
MIN_SEARCH_SECONDS = 0.05
"""The least a search is given, however little time is left (as the server AI)."""


def engine_time_limit(level: str, time_left: float | None) -> float | None:
    """Seconds one search may take: None (the level's own limit) without a clock,
    else the level's limit cut to a tenth of ``time_left``.

    >>> [engine_time_limit("hard", left) for left in (None, 60.0, 2.0)]
    [None, 1.0, 0.2]
    """
    if time_left is None:
        return None
    level_limit = plan_search(level, None, None).time_limit
    budget = max(MIN_SEARCH_SECONDS, time_left * CLOCK_SHARE)
    return budget if level_limit is None else min(level_limit, budget)


def _worker_ignores_interrupts() -> None:
    # Ctrl-C at the terminal reaches every process of the foreground group; the
    # first one must let the games in progress finish, so workers ignore it and
    # the parent decides when they stop.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class EngineBrains(BrainSource):
    """``--engine LEVEL``: the engine at ``level`` plays every game, with up to
    ``workers`` searches at once (one per game played in parallel)."""

    def __init__(self, level: str, *, workers: int = 1) -> None:
        try:
            self.level = parse_level(level).value
        except BoardroomError as error:
            raise BotLoadError(f"--engine: {error}") from None
        self.name = f"engine-{self.level}"
        self.workers = max(1, min(workers, os.cpu_count() or 1))
        self._pool: ProcessPoolExecutor | None = None

    async def open(self) -> None:
        """Start the workers and warm them, so the first move pays no start-up."""
        self._pool = self._new_pool()
        loop = asyncio.get_running_loop()
        # Any game warms a worker (imports the engine): the first of the menu is small.
        warm = SearchRequest(game_specs()[0].name, "", level="random")
        await asyncio.gather(
            *(
                loop.run_in_executor(self._pool, run_search_request, warm)
                for _ in range(self.workers)
            )
        )

    def new_brain(self, label: str) -> EngineBrain:
        return EngineBrain(self)

    async def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            # Waited for (off the loop): a search in progress ends within its time
            # limit. Left running, the pool's own thread could still be writing to
            # its wake-up pipe when the interpreter closed it at exit, which printed
            # a traceback after the bot's one-line error (seen under load).
            await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)

    async def search(self, request: SearchRequest) -> str:
        """The engine's move for ``request``, from a worker; a worker that died is
        replaced (and the move fails as ``crashed``)."""
        if self._pool is None:
            self._pool = self._new_pool()
        loop = asyncio.get_running_loop()
        try:
            result = await loop.run_in_executor(self._pool, run_search_request, request)
        except BrokenProcessPool:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
            raise BotFailedError(FailureKind.CRASHED, _("an engine worker process died")) from None
        except BoardroomError as error:
            raise BotFailedError(
                FailureKind.RAISED, _("the engine refused the search: {error}", error=error)
            ) from None
        return result.move_text

    def _new_pool(self) -> ProcessPoolExecutor:
        # spawn, not fork: a forked child would inherit the event loop and sockets.
        return ProcessPoolExecutor(
            self.workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_worker_ignores_interrupts,
        )


class EngineBrain(Brain):
    """One game of the engine: nothing to keep between moves but ``rng``, which
    seeds each move's search when given (a match that replays move for move)."""

    def __init__(self, source: EngineBrains, rng: random.Random | None = None) -> None:
        self.source = source
        self.rng = rng

    async def choose(self, state: GameState, *, timeout: float | None, time_ms: int) -> str:
        level = self.source.level
        request = SearchRequest(
            state.game,
            state.move_string,
            level=level,
            time_limit=engine_time_limit(level, state.time_left),
            seed=None if self.rng is None else self.rng.getrandbits(32),
        )
        return await self.source.search(request)
