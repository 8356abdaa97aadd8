"""The server's engine pool, on real spawned worker processes.

Workers are made to crash, hang or overrun with the tasks of ``tests/pool_tasks.py``:
a spawned worker imports them by reference, as it imports ``run_search_request`` in
production (it can: pytest's default import mode puts ``tests/`` on ``sys.path``, and
spawned workers inherit ``sys.path``).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import signal
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from harness import wait_until
from pool_tasks import CRASH_SEED, CrashOnce, HangOnce, crash_on_marked_seed, sleep_then_search

from boardroom.server.core.engine_queue import EnginePriority, Submitter
from boardroom.server.engine_pool import (
    WORKER_NICENESS,
    EngineBusyError,
    EnginePool,
    EngineUnavailableError,
    FallbackReason,
    centre_first_move,
)
from boardroom.shared.engine import SearchRequest
from boardroom.shared.errors import IllegalMoveError, SearchLimitsError, UnknownGameError
from boardroom.shared.games import get_game

pytestmark = [pytest.mark.e2e, pytest.mark.usefixtures("compiled_solver_ready")]
"""Every test here but the fallback move's starts real worker processes (about 10 s
in all), which load the compiled solver: the session has put it in numba's cache."""


def assert_legal(request: SearchRequest, move: int) -> None:
    game = get_game(request.game)
    assert move in game.legal_moves(game.from_moves(request.moves)), (request, move)


@pytest.fixture(autouse=True)
async def debug_loop() -> None:
    """asyncio debug mode: calls from the wrong thread raise, slow callbacks are logged."""
    asyncio.get_running_loop().set_debug(True)


@pytest.fixture
async def pool() -> AsyncIterator[EnginePool]:
    async with EnginePool(workers=2, max_queue=4) as pool:
        yield pool


async def test_a_warmed_pool_answers_every_game_with_a_legal_move(pool: EnginePool) -> None:
    """Right after start(), searches for tic-tac-toe, Connect Four and gomoku come back
    from workers with legal moves, and the first one pays no pool start-up."""
    requests = [
        SearchRequest("connect4", "4453", level="easy", seed=1),
        SearchRequest("tictactoe", "b2 a1 c3", level="perfect"),
        SearchRequest("gomoku", "h8 h9", depth=1),
    ]
    first = await pool.search(requests[0])
    # Generous: the benchmark measures dispatch properly (budget 5 ms).
    assert first.dispatch_seconds < 1.0
    outcomes = [first] + [await pool.search(request) for request in requests[1:]]
    for request, outcome in zip(requests, outcomes, strict=True):
        assert outcome.result is not None and outcome.fallback_move is None
        assert not outcome.retried
        assert_legal(request, outcome.move)
    assert outcomes[1].result is not None and outcomes[1].result.move_text == "a3"
    metrics = pool.metrics()
    assert (metrics.searches, metrics.failures, metrics.queue_depth) == (3, 0, 0)
    assert metrics.total_search_seconds >= metrics.last_search_seconds > 0


async def test_the_event_loop_keeps_ticking_while_every_worker_searches(pool: EnginePool) -> None:
    """Two one-second searches occupy both workers; a ticker on the loop never stalls."""
    gaps: list[float] = []

    async def tick() -> None:
        last = time.perf_counter()
        while True:
            await asyncio.sleep(0.005)  # the subject: a ticker that measures the loop's gaps
            now = time.perf_counter()
            gaps.append(now - last)
            last = now

    ticker = asyncio.create_task(tick())
    request = SearchRequest("gomoku", "h8 h9", time_limit=1.0)
    started = time.perf_counter()
    outcomes = await asyncio.gather(pool.search(request), pool.search(request))
    searched = time.perf_counter() - started
    ticker.cancel()
    for outcome in outcomes:
        assert outcome.result is not None
        assert_legal(request, outcome.move)
    assert searched >= 0.9
    assert len(gaps) > 50
    # A search run on the loop would stall it for its whole second; a busy shared
    # machine alone has delayed a tick by 0.47 s (seen once under -n 2 beside
    # another suite), so the line is drawn well between the two.
    assert max(gaps) < 0.7, f"event loop stalled for {max(gaps):.3f} s"


async def test_a_request_the_rules_refuse_raises_their_error_and_breaks_nothing(
    pool: EnginePool,
) -> None:
    """An unknown game or an illegal move string raises the rules' own error (the
    IllegalMoveError does not pickle; the worker must not take the pool down with it)."""
    with pytest.raises(UnknownGameError):
        await pool.search(SearchRequest("chess", "e4"))
    with pytest.raises(IllegalMoveError, match="b2"):
        await pool.search(SearchRequest("tictactoe", "b2 b2"))
    with pytest.raises(SearchLimitsError):
        await pool.search(SearchRequest("tictactoe", "", level="grandmaster"))
    assert (await pool.search(SearchRequest("tictactoe", "b2"))).result is not None
    metrics = pool.metrics()
    assert (metrics.restarts, metrics.queue_depth, metrics.busy_workers) == (0, 0, 0)


async def test_a_search_beyond_the_queue_bound_is_refused() -> None:
    """With max_queue searches waiting or running, one more raises EngineBusyError at
    once; the queued ones are all answered, and the pool takes searches again after."""
    request = SearchRequest("connect4", "", time_limit=0.3)
    async with EnginePool(workers=1, max_queue=2) as pool:
        queued = [asyncio.create_task(pool.search(request)) for _ in range(2)]
        await asyncio.sleep(0)  # one turn of the loop: both tasks enter the pool
        assert pool.metrics().queue_depth == 2
        with pytest.raises(EngineBusyError):
            await pool.search(request)
        for outcome in await asyncio.gather(*queued):
            assert outcome.result is not None
        assert (await pool.search(request)).result is not None
        assert pool.metrics().refused == 1


async def test_a_seated_players_search_overtakes_ai_matches_on_the_reserved_worker() -> None:
    """One worker busy with an AI match and more queued behind it: a seated player's
    AI move takes the reserved worker and is answered before any AI match, and the
    AI matches' share of the queue is bounded."""
    flood = Submitter("flooder", "10.0.0.1")
    match = SearchRequest("gomoku", "h8 h9", time_limit=1.0)
    async with EnginePool(workers=1, max_queue=8, reserved=1) as pool:
        matches = [
            asyncio.create_task(
                pool.search(match, priority=EnginePriority.AI_MATCH, submitter=flood)
            )
            for _ in range(2)
        ]
        await wait_until(lambda: pool.metrics().busy_workers == 1)
        assert pool.metrics().waiting == 1  # the second AI match: the other worker is kept
        with pytest.raises(EngineBusyError, match="searches queued"):
            await pool.search(match, priority=EnginePriority.AI_MATCH, submitter=flood)
        seated = asyncio.create_task(
            pool.search(SearchRequest("tictactoe", "b2", level="easy", seed=1))
        )
        done, _ = await asyncio.wait([seated, *matches], return_when=asyncio.FIRST_COMPLETED)
        assert done == {seated}
        assert (await seated).result is not None
        for outcome in await asyncio.gather(*matches):
            assert outcome.result is not None


async def test_a_search_cancelled_while_it_waits_leaves_the_queue() -> None:
    """A room that closes cancels its search: waiting, it leaves the queue at once
    (the next search does not wait behind it); the pool goes on."""
    slow = SearchRequest("gomoku", "h8 h9", time_limit=0.5)
    async with EnginePool(workers=1, max_queue=4) as pool:
        running = asyncio.create_task(pool.search(slow))
        await wait_until(lambda: pool.metrics().busy_workers == 1)
        queued = asyncio.create_task(pool.search(slow))
        await wait_until(lambda: pool.metrics().waiting == 1)
        queued.cancel()
        with pytest.raises(asyncio.CancelledError):
            await queued
        metrics = pool.metrics()
        assert (metrics.waiting, metrics.queue_depth) == (0, 1)
        assert (await running).result is not None
        assert (await pool.search(SearchRequest("tictactoe", "b2"))).result is not None
        assert (pool.metrics().queue_depth, pool.metrics().busy_workers) == (0, 0)


async def test_a_second_search_for_the_same_key_is_refused_until_the_first_ends(
    pool: EnginePool,
) -> None:
    """One search per room: the same key twice raises EngineBusyError while the first
    runs; another key is served meanwhile; the key works again once its search ends."""
    request = SearchRequest("connect4", "", time_limit=0.3)
    first = asyncio.create_task(pool.search(request, key="room-1"))
    await asyncio.sleep(0)  # one turn of the loop: the first search takes its key
    with pytest.raises(EngineBusyError, match="room-1"):
        await pool.search(request, key="room-1")
    other = await pool.search(SearchRequest("tictactoe", "b2", level="perfect"), key="room-2")
    assert other.result is not None
    assert (await first).result is not None
    assert (await pool.search(request, key="room-1")).result is not None


async def test_a_crashed_worker_is_replaced_and_the_search_retried(tmp_path: Path) -> None:
    """A worker that dies mid-search breaks the executor: the pool is replaced by a
    warmed one, the search goes through on the retry, and later searches work too."""
    request = SearchRequest("connect4", "4453", level="medium", seed=2)
    task = CrashOnce(str(tmp_path / "crashed"))
    async with EnginePool(workers=2, max_queue=4, task=task) as pool:
        outcome = await pool.search(request)
        assert outcome.retried
        assert outcome.result is not None and outcome.fallback_move is None
        assert_legal(request, outcome.move)
        again = await pool.search(request)
        assert again.result is not None and not again.retried
        assert again.move == outcome.move  # seeded: the same search both times
        metrics = pool.metrics()
        assert (metrics.restarts, metrics.failures) == (1, 0)


async def test_searches_in_flight_when_a_worker_dies_are_retried_on_one_new_pool(
    tmp_path: Path,
) -> None:
    """One worker's death fails every search in flight: each is retried, and the pool
    is replaced once, not once per search."""
    request = SearchRequest("connect4", "", time_limit=0.3)
    task = CrashOnce(str(tmp_path / "crashed"))
    async with EnginePool(workers=2, max_queue=4, task=task) as pool:
        outcomes = await asyncio.gather(pool.search(request), pool.search(request))
        assert all(outcome.result is not None for outcome in outcomes)
        assert any(outcome.retried for outcome in outcomes)
        assert pool.metrics().restarts == 1


KILL_TEST_MARGIN = 30.0
"""The deadline margin of the test that kills the workers: its first attempt hangs
until the test has seen it start and killed it, and that must happen within the
deadline, however slowly a loaded machine runs the test."""


async def test_a_worker_killed_from_outside_mid_search_is_replaced(tmp_path: Path) -> None:
    """SIGKILL to the workers during a search: the search is retried on a fresh pool."""
    request = SearchRequest("gomoku", "h8 h9", time_limit=1.0)
    started = tmp_path / "started"
    before = set(multiprocessing.active_children())
    async with EnginePool(
        workers=2, max_queue=4, task=HangOnce(str(started)), deadline_margin=KILL_TEST_MARGIN
    ) as pool:
        workers = set(multiprocessing.active_children()) - before
        assert len(workers) == 2
        search = asyncio.create_task(pool.search(request))
        await wait_until(started.exists)  # a worker is on the request, and stays on it
        for worker in workers:
            assert worker.pid is not None
            os.kill(worker.pid, signal.SIGKILL)
        outcome = await search
        assert outcome.retried and outcome.result is not None
        assert_legal(request, outcome.move)
        assert pool.metrics().restarts == 1


async def test_a_worker_that_crashes_twice_gives_a_fallback_move_and_the_game_goes_on() -> None:
    """When the retry crashes too, the answer is the centre-first legal move, marked as
    a fallback; the pool is replaced again and the next search is the engine's."""
    request = SearchRequest("tictactoe", "b2 a1", level="perfect", seed=CRASH_SEED)
    async with EnginePool(workers=2, max_queue=4, task=crash_on_marked_seed) as pool:
        outcome = await pool.search(request)
        assert outcome.result is None
        assert outcome.fallback_reason is FallbackReason.CRASHED and outcome.retried
        assert outcome.move == centre_first_move("tictactoe", "b2 a1")
        assert_legal(request, outcome.move)
        after = await pool.search(SearchRequest("tictactoe", "b2 a1", level="perfect"))
        assert after.result is not None
        metrics = pool.metrics()
        assert (metrics.restarts, metrics.failures) == (2, 1)


async def test_a_search_that_overruns_its_deadline_gives_the_fallback_move() -> None:
    """The outer deadline (time limit plus margin) expires: the caller gets the fallback
    move at once, while the worker stays counted busy until it really finishes."""
    request = SearchRequest("connect4", "44", time_limit=0.1)
    async with EnginePool(
        workers=1, max_queue=2, task=sleep_then_search, deadline_margin=0.2
    ) as pool:
        started = time.perf_counter()
        outcome = await pool.search(request)
        assert time.perf_counter() - started < 0.9
        assert outcome.fallback_reason is FallbackReason.TIMEOUT
        assert outcome.move == centre_first_move("connect4", "44")
        metrics = pool.metrics()
        assert (metrics.timeouts, metrics.failures, metrics.busy_workers) == (1, 1, 1)
        assert metrics.queue_depth == 0


async def test_close_stops_the_workers_and_later_searches_are_refused() -> None:
    """close() shuts every worker down and may be called twice; a search before
    start() or after close() raises EngineUnavailableError."""
    request = SearchRequest("tictactoe", "", level="easy", seed=1)
    before = set(multiprocessing.active_children())
    pool = EnginePool(workers=2, max_queue=2)
    with pytest.raises(EngineUnavailableError):
        await pool.search(request)
    await pool.start()
    assert (await pool.search(request)).result is not None
    await pool.close()
    await pool.close()
    assert set(multiprocessing.active_children()) <= before
    with pytest.raises(EngineUnavailableError):
        await pool.search(request)


def test_the_fallback_move_is_the_legal_move_nearest_the_centre() -> None:
    """Centre first: the centre cell or column when free, else its nearest neighbour."""
    assert centre_first_move("tictactoe", "") == get_game("tictactoe").parse_move(
        get_game("tictactoe").new(), "b2"
    )
    assert get_game("connect4").format_move(centre_first_move("connect4", "")) == "4"
    assert get_game("connect4").format_move(centre_first_move("connect4", "444444")) == "3"
    assert get_game("gomoku").format_move(centre_first_move("gomoku", "h8")) == "h7"
    with pytest.raises(EngineUnavailableError):
        centre_first_move("tictactoe", "a1 b1 a2 b2 a3")


@pytest.mark.parametrize("moves", ["", "d3 c3 e6", "d3 c3 e6 d2 d1 e1 b2 c1"])
def test_the_fallback_move_is_legal_in_a_game_without_a_grid(moves: str) -> None:
    """Othello, searched by the generic alpha-beta, gets a legal fallback too (the
    one in the last case is the forced pass)."""
    othello = get_game("othello")
    position = othello.from_moves(moves)
    assert centre_first_move("othello", moves) in othello.legal_moves(position)


def _spawned_children() -> list[int]:
    """Pids of this process's children started by multiprocessing's spawn (the workers)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes()
        except OSError:
            continue  # gone meanwhile
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        if parent == os.getpid() and b"spawn_main" in command:
            pids.append(int(entry.name))
    return pids


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")
async def test_workers_run_at_a_lower_priority_than_the_server(pool: EnginePool) -> None:
    """Each worker is niced by WORKER_NICENESS, so busy searches yield to the event loop."""
    workers = _spawned_children()
    assert len(workers) == 2
    own = os.getpriority(os.PRIO_PROCESS, 0)
    for pid in workers:
        assert os.getpriority(os.PRIO_PROCESS, pid) == min(own + WORKER_NICENESS, 19)


async def test_each_worker_says_which_solver_it_readied(caplog: pytest.LogCaptureFixture) -> None:
    """``engine="auto"`` (the server's default) readies the compiled solver in each
    worker before the pool takes searches; ``engine="python"`` skips it, and the
    pure solver answers the same request. An unknown build is refused at once."""
    caplog.set_level(logging.INFO, logger="boardroom.server.engine_pool")
    request = SearchRequest("connect4", "4444", level="perfect", seed=3)
    moves = []
    for engine, solver in (("auto", "native solver"), ("python", "pure-Python solver")):
        caplog.clear()
        async with EnginePool(workers=1, max_queue=2, engine=engine) as pool:
            ready = [r.getMessage() for r in caplog.records if " ready: " in r.getMessage()]
            assert len(ready) == 1 and solver in ready[0], ready
            outcome = await pool.search(request)
            assert outcome.result is not None
            moves.append(outcome.result.move)
    assert moves[0] == moves[1]  # a book move: both builds give the same
    with pytest.raises(ValueError, match="engine='fortran'"):
        EnginePool(workers=1, max_queue=1, engine="fortran")
