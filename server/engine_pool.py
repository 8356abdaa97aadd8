"""The engine pool: AI searches run in worker processes, never on the event loop.

:class:`EnginePool` is the server's thin adapter around
:func:`boardroom.shared.engine.run_search_request`. A room hands it a compact
:class:`~boardroom.shared.engine.SearchRequest` and gets back a move it can play, as a
:class:`PoolSearchOutcome`:

- warmed: by the end of :meth:`~EnginePool.start` every worker has imported the
  engine and the pool's task, built the kernels of the common games and loaded the compiled exact
  solver (compiling it into numba's disk cache the first time on a machine, a few
  seconds, logged), so the first AI move pays no start-up;
- bounded: at most ``max_queue`` searches waiting or running, and one per ``key``
  (a room id); beyond that :meth:`~EnginePool.search` refuses at once (so do a
  session's and an address's shares of the queue);
- ordered: a search waits for a worker in the pure
  :class:`~boardroom.server.core.engine_queue.EngineQueue`, by priority (a seated
  person's AI opponent first, then hints, AI matches, analyses), and within one by
  fair share between sessions and addresses, not first come; ``reserved`` workers
  beyond ``workers`` run only seated players' AI moves (that module says why);
- deadlines: a worker's answer is awaited for the time limit plus a margin, counted
  from when a worker takes the search; after that the caller gets a fallback move
  and the worker finishes on its own (it stays counted busy until it is free);
- crashes: a dead worker (``BrokenProcessPool``) breaks the whole executor, which
  is replaced by a fresh, warmed one, and the search is sent again, once. If that
  fails too, the answer is :func:`centre_first_move`, computed without a search.

A bad request (unknown game, illegal move string, bad limits) is the caller's
fault: the :class:`boardroom.shared.errors.BoardroomError` propagates unchanged. The pool's
own errors::

    EnginePoolError
    ├── EngineBusyError         the queue is full, or this key already has a search
    └── EngineUnavailableError  not started, closed, or no legal move to fall back on
"""

from __future__ import annotations

import asyncio
import enum
import itertools
import logging
import multiprocessing
import os
import pickle
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing.synchronize import Barrier
from types import TracebackType
from typing import Any, Self

from boardroom.server.core.engine_queue import (
    DEFAULT_AGING_SECONDS,
    SERVER,
    EnginePriority,
    EngineQueue,
    Submitter,
)
from boardroom.shared.engine import (
    SearchRequest,
    SearchResult,
    plan_search,
    run_search_request,
    solvers,
)
from boardroom.shared.engine.analysis import PositionValue
from boardroom.shared.engine.kernel import kernel_for
from boardroom.shared.engine.remote import PositionRequest, run_position_request
from boardroom.shared.engine.search import quick_move
from boardroom.shared.errors import BoardroomError
from boardroom.shared.games import GridGame, Move, game_specs, get_game

logger = logging.getLogger(__name__)

SearchTask = Callable[[SearchRequest], SearchResult]
"""What a worker runs: a module-level function (or picklable object), so that it
crosses to spawned workers by reference. :func:`run_search_request` in production."""

WARM_GAMES = tuple(spec.name for spec in game_specs() if spec.warm_up)
"""Games whose searches every worker prepares at start-up: the registry's specs that
ask for it (a family's boards vary in size: each is prepared on first use)."""
DEADLINE_MARGIN = 1.0
"""Seconds a search may overrun its time limit before the fallback move is played:
covers pickling, process hops and the engine's clock checks, with room to spare on
a loaded machine, since a fallback move is a poor one."""
UNTIMED_DEADLINE = 30.0
"""Outer deadline of a search with no clock (depth-only requests, level ``random``)."""
WARM_UP_TIMEOUT = 60.0
"""Seconds a fresh pool may take to start: spawned workers import the engine and
warm up in 0.1-0.2 s on an idle 2-core machine, plus about 1 s to load the compiled
solver from numba's cache (3-5 s each to compile it, the first time on a machine);
a minute means something is wrong."""


class EnginePoolError(Exception):
    """Root of the errors the engine pool raises."""


class EngineBusyError(EnginePoolError):
    """Refused at once: the queue is full, or the key already has a search running."""


class EngineUnavailableError(EnginePoolError):
    """No search possible: the pool is not started or is closed, or there is no move."""


class FallbackReason(enum.Enum):
    """Why a search was answered with the fallback move instead of the engine's."""

    CRASHED = "crashed"
    """A worker died on the first attempt and again on the retry."""
    TIMEOUT = "timeout"
    """The worker did not answer within the outer deadline."""
    ERROR = "error"
    """The worker raised an unexpected exception (an engine bug; it is logged)."""


@dataclass(frozen=True, slots=True)
class PoolSearchOutcome:
    """How one pooled search ended: the engine's answer, or a fallback move.

    Exactly one of ``result`` (the worker's answer) and ``fallback_move`` (a legal
    move chosen without a search) is set; ``fallback_reason`` says why the engine
    did not answer. ``retried`` is True when a crash sent the search to a fresh pool.
    ``dispatch_seconds`` is what the pool added: the wall time of the call minus
    the worker's own ``result.elapsed`` (waiting for a worker, pickling, process hops,
    any restart); for a fallback, the whole wall time.
    """

    result: SearchResult | None
    fallback_move: Move | None
    retried: bool
    dispatch_seconds: float
    fallback_reason: FallbackReason | None = None

    @property
    def move(self) -> Move:
        """The move to play, whichever way it was found."""
        if self.result is not None:
            return self.result.move
        if self.fallback_move is None:
            raise EngineUnavailableError("the outcome holds no move")
        return self.fallback_move


@dataclass(frozen=True, slots=True)
class EnginePoolMetrics:
    """A snapshot of the pool's counters, for ``/metrics``."""

    searches: int
    """Searches accepted (a retried search counts once)."""
    failures: int
    """Searches answered with a fallback move, for any reason."""
    timeouts: int
    """Of the failures, searches that overran their outer deadline."""
    restarts: int
    """Executors replaced after a crash."""
    refused: int
    """Searches refused with :class:`EngineBusyError`."""
    queue_depth: int
    """Searches accepted and not yet answered (waiting for a worker or running)."""
    busy_workers: int
    """Workers running a task, including overrunning searches already answered."""
    last_search_seconds: float
    """Wall time of the last answered search."""
    total_search_seconds: float
    """Wall time of all answered searches."""
    waiting: int = 0
    """Searches waiting for a worker (of ``queue_depth``)."""


def centre_first_move(game_name: str, moves: str) -> Move:
    """The answer when no worker can give one, cheap (no search): the legal move
    nearest the centre on a k-in-a-row board, the move the game's evaluation
    likes best otherwise (:func:`boardroom.shared.engine.search.quick_move`).

    >>> get_game("tictactoe").format_move(centre_first_move("tictactoe", "b2"))
    'b1'
    >>> get_game("connect4").format_move(centre_first_move("connect4", "444444"))
    '3'
    """
    game = get_game(game_name)
    position = game.from_moves(moves)
    if not game.legal_moves(position):
        raise EngineUnavailableError(f"no legal move in {game_name} after {moves!r}")
    # The engine's own order without any search: centre first on a k-in-a-row
    # board, the evaluation's favourite elsewhere (every registered game).
    return quick_move(game, position)


# -- in the worker processes -------------------------------------------------------

_warm_barrier: Barrier | None = None
_native_warm_up = "no warm-up"


@dataclass(frozen=True, slots=True)
class WorkerReady:
    """What a worker's warm-up task answers: its process id, and how its exact
    solver got ready (``solvers.warm_up``'s text, with the compile or load time)."""

    pid: int
    solver: str


def _init_worker(barrier: Barrier, games: tuple[str, ...], engine: str) -> None:
    """Run once in each new worker, before its first task: import the engine,
    build the kernels (a depth-1 search per game does both) and load the compiled
    solver (its first game that supports it warms the one machine code of all),
    unless ``engine`` is ``"python"``, which this worker's searches then use."""
    global _warm_barrier, _native_warm_up
    _warm_barrier = barrier
    if engine == "python":
        os.environ[solvers.ENGINE_ENV] = "python"  # read at each search, in this process
    # Ctrl-C is for the server, which shuts the pool down; workers just stop with it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _exit_with_parent()
    # Searches are throughput work and the event loop is latency work: when the
    # cores are short, the loop (and the players' own programs) go first.
    os.nice(WORKER_NICENESS)
    for name in games:
        run_search_request(SearchRequest(name, "", depth=1))
    if not solvers.native_wanted():
        _native_warm_up = f"pure-Python solver ({solvers.ENGINE_ENV}=python)"
        return
    for name in games:
        game = get_game(name)
        if isinstance(game, GridGame) and solvers.backend(kernel_for(game)) == "native":
            _native_warm_up = solvers.warm_up(kernel_for(game))
            break


PARENT_CHECK_SECONDS = 1.0
WORKER_NICENESS = 10
"""How much lower the workers' scheduling priority is than the server's
(``nice``): enough that a busy pool yields the cores to the event loop, so a
search never delays a move relayed between two people (docs/benchmarks.md)."""


def _exit_with_parent() -> None:
    """End this worker soon after the server dies, however it died.

    A server killed with SIGKILL cannot shut its pool down, and an idle worker
    waits on its task queue for ever: without this, every crash would leave
    orphans holding memory (and the database directory busy). A daemon thread
    notices that the parent changed (the orphan was re-parented) and exits.
    """
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


class _UnpicklableWorkerError(RuntimeError):
    """Stands in for a worker exception that cannot be pickled back to the server."""


def _run_task(task: Callable[[Any], Any], request: Any) -> Any:
    """Run ``task`` in the worker, making sure that whatever it raises can cross back.

    An exception that fails to unpickle in the server is taken by the executor for a
    dead worker, and breaks the whole pool (``boardroom.shared.errors.IllegalMoveError`` is one:
    its keyword-only arguments are not in ``args``). It is sent as a plain message
    instead; the server then builds the fallback move, which re-raises the rules'
    error in-process when the request itself was at fault.
    """
    try:
        return task(request)
    except Exception as error:
        try:
            pickle.loads(pickle.dumps(error))  # noqa: S301 - our own bytes, just made
        except Exception:
            raise _UnpicklableWorkerError(f"{type(error).__name__}: {error}") from None
        raise


def _warm_worker(task: Callable[[Any], Any]) -> WorkerReady:
    """The warm-up task. Each blocks until every worker runs one: without that, one
    fast worker could take them all while another is still importing. It is handed
    the pool's ``task`` so that unpickling it imports the task's module now, not
    within the first search's deadline (a module outside the engine, as the tests'
    tasks are, can take seconds to import on a busy machine)."""
    del task  # received, and so imported: that is all it is for
    if _warm_barrier is not None:
        _warm_barrier.wait(timeout=WARM_UP_TIMEOUT)
    return WorkerReady(os.getpid(), _native_warm_up)


# -- in the server -----------------------------------------------------------------


class EnginePool:
    """A bounded, warmed pool of engine workers. Use ``async with EnginePool(...) as pool``,
    or :meth:`start` and :meth:`close`; all methods run on the event loop's thread.

    ``start_method`` is ``"spawn"`` (the default: fresh interpreters, on every OS; start
    speed hardly matters, as workers start at start-up and after a crash only) or
    ``"forkserver"`` (POSIX; forks from a clean helper process, faster). ``"fork"`` is
    refused: the server would fork after it has started threads (the executor's
    manager thread, the database thread) and its event loop, and a forked child
    inherits locks that other threads held (and may hang on them), the loop, and
    open sockets. Under spawn, a script that starts a pool needs the usual
    ``if __name__ == "__main__":`` guard (the ``boardroom`` entry point has it).

    ``task`` runs in the workers; it must pickle by reference (tests pass their own).
    ``reserved`` workers are started beyond ``workers`` for seated players' AI moves
    only (the server's ``--engine-reserve``); ``aging_seconds``: see
    :class:`~boardroom.server.core.engine_queue.EngineQueue`.
    ``engine`` is the server's ``--engine``: ``"auto"`` leaves the solver to the
    workers' environment (compiled where it runs), ``"python"`` makes them use the
    pure one and skip loading the compiled one (about 0.7 s per worker, more on a
    busy machine).
    """

    def __init__(
        self,
        *,
        workers: int,
        max_queue: int,
        start_method: str = "spawn",
        task: SearchTask = run_search_request,
        deadline_margin: float = DEADLINE_MARGIN,
        warm_games: tuple[str, ...] = WARM_GAMES,
        engine: str = "auto",
        reserved: int = 0,
        aging_seconds: float = DEFAULT_AGING_SECONDS,
    ) -> None:
        if workers < 1 or max_queue < 1:
            raise ValueError(f"workers={workers}, max_queue={max_queue}: both must be 1 or more")
        self._queue = EngineQueue(
            workers=workers, max_queue=max_queue, reserved=reserved, aging_seconds=aging_seconds
        )
        if start_method not in ("spawn", "forkserver"):
            raise ValueError(f"start_method={start_method!r}: use 'spawn' or 'forkserver'")
        if engine not in solvers.ENGINE_BUILDS:
            raise ValueError(f"engine={engine!r}: use {' or '.join(solvers.ENGINE_BUILDS)}")
        for name in warm_games:
            get_game(name)  # an unknown name fails here, not as a broken pool at start()
        self._context = multiprocessing.get_context(start_method)
        self._workers = self._queue.slots
        self._task = task
        self._margin = deadline_margin
        self._warm_games = warm_games
        self._engine = engine
        self._executor: ProcessPoolExecutor | None = None
        self._closed = False
        # A search is handed over only when the queue gives it a worker's slot, so its
        # deadline does not run while it waits behind other rooms' searches.
        self._tickets = itertools.count()
        self._waiters: dict[int, asyncio.Future[None]] = {}
        self._restart_lock = asyncio.Lock()
        self._keys: set[str] = set()
        self._busy = 0
        self._searches = self._failures = self._timeouts = self._restarts = self._refused = 0
        self._last_seconds = self._total_seconds = 0.0

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    async def start(self) -> None:
        """Start every worker and wait, without blocking the loop, until each has
        warmed up. Safe to cancel (the half-started workers are shut down)."""
        async with self._restart_lock:
            if self._closed:
                raise EngineUnavailableError("the engine pool is closed")
            if self._executor is None:
                self._executor = await self._new_executor()

    async def close(self) -> None:
        """Shut the workers down; idempotent. Running searches are answered (each is
        bounded by its deadline) and waited for, so no worker outlives the pool;
        searches still waiting for a worker fail with :class:`EngineUnavailableError`."""
        if self._closed:
            return
        self._closed = True
        waiters, self._waiters = self._waiters, {}
        for waiter in waiters.values():
            if not waiter.done():
                waiter.set_exception(EngineUnavailableError("the engine pool was closed"))
        async with self._restart_lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            await asyncio.to_thread(executor.shutdown, wait=True, cancel_futures=True)

    def metrics(self) -> EnginePoolMetrics:
        """The counters as they stand."""
        return EnginePoolMetrics(
            searches=self._searches,
            failures=self._failures,
            timeouts=self._timeouts,
            restarts=self._restarts,
            refused=self._refused,
            queue_depth=self._queue.accepted,
            busy_workers=self._busy,
            waiting=self._queue.waiting,
            last_search_seconds=self._last_seconds,
            total_search_seconds=self._total_seconds,
        )

    async def search(
        self,
        request: SearchRequest,
        *,
        key: str | None = None,
        priority: EnginePriority = EnginePriority.SEATED,
        submitter: Submitter = SERVER,
    ) -> PoolSearchOutcome:
        """Search ``request`` in a worker and return a move to play. It waits for a
        worker at ``priority``, in turn with the other ``submitter`` s' searches.

        Raises :class:`EngineBusyError` at once when ``max_queue`` searches are
        already waiting or running (or the submitter's share of them), or when
        ``key`` (a room id) already has one;
        :class:`EngineUnavailableError` before :meth:`start` or after :meth:`close`;
        :class:`~boardroom.shared.errors.BoardroomError` for a bad request. Safe to cancel: the
        search is dropped (a worker already on it finishes it, and the answer is lost).
        """
        if self._executor is None:
            raise EngineUnavailableError("the engine pool is not running")
        plan = plan_search(request.level, request.depth, request.time_limit)
        deadline = UNTIMED_DEADLINE if plan.time_limit is None else plan.time_limit + self._margin
        if key is not None and key in self._keys:
            self._refused += 1
            raise EngineBusyError(f"{key!r} already has a search running; wait for its move")
        self._admit(priority, submitter)
        self._searches += 1
        if key is not None:
            self._keys.add(key)
        started = time.perf_counter()
        try:
            result, retried, reason = await self._with_retry(
                request, deadline, order=(priority, submitter)
            )
            fallback = (
                None if result is not None else centre_first_move(request.game, request.moves)
            )
        finally:
            self._queue.release(priority, submitter)
            if key is not None:
                self._keys.discard(key)
        wall = time.perf_counter() - started
        self._last_seconds = wall
        self._total_seconds += wall
        if result is None:
            self._failures += 1
            if reason is FallbackReason.TIMEOUT:
                self._timeouts += 1
            logger.warning("engine fallback (%s) for %s", reason and reason.value, request)
        searched = result.elapsed if result is not None else 0.0
        return PoolSearchOutcome(result, fallback, retried, max(wall - searched, 0.0), reason)

    async def analyse(
        self, request: PositionRequest, *, submitter: Submitter = SERVER
    ) -> PositionValue:
        """Value one position of a game under analysis in a worker (its search
        takes at most ``request.longest``: the budget, more on Connect Four). It
        waits for a free worker like a search, at the lowest priority
        (``ANALYSIS``), so an analysis holds no worker longer than one position
        and the AI's moves in play go first.

        Raises :class:`EngineBusyError` at once when ``max_queue`` requests are
        waiting or running; :class:`EngineUnavailableError` when the pool is not
        running, or when the position could not be valued (a worker crashed on
        it twice, or overran): the caller stops that analysis;
        :class:`~boardroom.shared.errors.BoardroomError` for a bad request.
        """
        if self._executor is None:
            raise EngineUnavailableError("the engine pool is not running")
        order = (EnginePriority.ANALYSIS, submitter)
        self._admit(*order)
        try:
            # Connect Four's values are proven beyond the review's budget (typically
            # in milliseconds): its deadline is the engine's cap, not the budget.
            deadline = request.longest + self._margin
            value, _, reason = await self._with_retry(
                request, deadline, runs=run_position_request, order=order
            )
        finally:
            self._queue.release(*order)
        if value is None:
            assert reason is not None
            raise EngineUnavailableError(f"no value for {request} ({reason.value})")
        found: PositionValue = value
        return found

    def _admit(self, priority: EnginePriority, submitter: Submitter) -> None:
        """Count one search in, or raise :class:`EngineBusyError` with the queue's reason."""
        refusal = self._queue.admit(priority, submitter)
        if refusal is not None:
            self._refused += 1
            raise EngineBusyError(refusal)

    async def _with_retry(
        self,
        request: Any,
        deadline: float,
        *,
        runs: Callable[[Any], Any] | None = None,
        order: tuple[EnginePriority, Submitter] = (EnginePriority.SEATED, SERVER),
    ) -> tuple[Any, bool, FallbackReason | None]:
        """Run ``request`` in a worker (``runs``: see :meth:`_attempt`), once more on
        a fresh pool if a worker died: (its answer or None, whether it was retried,
        why there is no answer)."""
        retried = False
        while True:
            try:
                answer = await self._attempt(request, deadline, runs=runs, order=order)
                return answer, retried, None
            except BrokenProcessPool:
                if retried:
                    return None, retried, FallbackReason.CRASHED
                retried = True
            except TimeoutError:
                return None, retried, FallbackReason.TIMEOUT
            except (BoardroomError, EnginePoolError):
                raise
            except Exception:
                logger.exception("engine worker failed on %s", request)
                return None, retried, FallbackReason.ERROR

    async def _attempt(
        self,
        request: Any,
        deadline: float,
        *,
        runs: Callable[[Any], Any] | None,
        order: tuple[EnginePriority, Submitter],
    ) -> Any:
        """One try: wait for a free worker (in the queue, at ``order``), then for its
        answer until ``deadline``. ``runs`` runs the request in the worker (default:
        the pool's search task)."""
        ticket = await self._take_slot(*order)
        executor = self._executor
        try:
            if self._restart_lock.locked():  # a restart is under way: wait for the new pool
                async with self._restart_lock:
                    executor = self._executor
            if executor is None:
                raise EngineUnavailableError("the engine pool was closed")
            work = self._task if runs is None else runs
            future = asyncio.wrap_future(executor.submit(_run_task, work, request))
        except BaseException as error:
            self._slot_free(ticket)
            if isinstance(error, BrokenProcessPool) and executor is not None:
                await self._replace(executor)  # broken while idle: no search saw it yet
            raise
        self._busy += 1
        future.add_done_callback(lambda done: self._worker_free(ticket, done))
        try:
            # shield: on timeout or cancellation the worker goes on, and keeps its slot.
            return await asyncio.wait_for(asyncio.shield(future), deadline)
        except BrokenProcessPool:
            logger.warning("an engine worker died during %s", request)
            await self._replace(executor)
            raise
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if future.cancelled() and task is not None and not task.cancelling():
                raise EngineUnavailableError("the engine pool closed during the search") from None
            raise

    async def _take_slot(self, priority: EnginePriority, submitter: Submitter) -> int:
        """Wait in the queue until a worker's slot is this search's: its ticket.
        Cancelled while waiting, it leaves the queue (its room closed)."""
        if self._closed:
            raise EngineUnavailableError("the engine pool was closed")
        ticket = next(self._tickets)
        waiter = asyncio.get_running_loop().create_future()
        self._waiters[ticket] = waiter
        self._queue.wait(ticket, priority, submitter, now=time.monotonic())
        self._start_waiting()
        try:
            await waiter
        except BaseException:
            self._waiters.pop(ticket, None)
            if not self._queue.cancel(ticket):  # given a slot as it was cancelled
                self._slot_free(ticket)
            raise
        return ticket

    def _start_waiting(self) -> None:
        """Hand every free slot to the search the queue says is next."""
        now = time.monotonic()
        while (ticket := self._queue.start_next(now=now)) is not None:
            waiter = self._waiters.pop(ticket, None)
            if waiter is not None and not waiter.done():
                waiter.set_result(None)
            # else: its caller is gone (cancelled, or the pool closed); it frees the slot.

    def _slot_free(self, ticket: int) -> None:
        self._queue.finished(ticket)
        self._start_waiting()

    def _worker_free(self, ticket: int, future: asyncio.Future[Any]) -> None:
        self._busy -= 1
        self._slot_free(ticket)
        if not future.cancelled():
            future.exception()  # an overrun search's error has nobody else to read it

    async def _replace(self, broken: ProcessPoolExecutor) -> None:
        """Replace a broken executor by a fresh, warmed one, once however many searches
        saw it break. On failure the broken one stays, and the next search tries again."""
        async with self._restart_lock:
            if self._executor is not broken or self._closed:
                return
            broken.shutdown(wait=False, cancel_futures=True)
            try:
                self._executor = await self._new_executor()
            except Exception:
                logger.exception("could not restart the engine pool")
                return
            self._restarts += 1
            logger.warning("engine pool restarted (%d restarts)", self._restarts)

    async def _new_executor(self) -> ProcessPoolExecutor:
        executor = ProcessPoolExecutor(
            max_workers=self._workers,
            mp_context=self._context,
            initializer=_init_worker,
            initargs=(self._context.Barrier(self._workers), self._warm_games, self._engine),
        )
        try:
            # Each submit may start a process (milliseconds of fork and exec): off the loop.
            submitted: list[Future[WorkerReady]] = await asyncio.to_thread(
                lambda: [executor.submit(_warm_worker, self._task) for _ in range(self._workers)]
            )
            warm_ups = (asyncio.wrap_future(future) for future in submitted)
            ready = await asyncio.wait_for(asyncio.gather(*warm_ups), WARM_UP_TIMEOUT)
        except BaseException:
            executor.shutdown(wait=False, cancel_futures=True)
            raise
        for worker in ready:
            logger.info("engine worker %d ready: %s", worker.pid, worker.solver)
        return executor
