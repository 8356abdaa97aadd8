"""The server's Prometheus metrics, and a monitor of the event loop's lag.

:class:`ServerMetrics` owns its own ``CollectorRegistry`` rather than the
process-wide default one, so several servers (tests start many in one process)
never collide. Events are counted as they happen (``connection_opened``,
``count_move``, ...); levels that other parts already keep (rooms by status,
games in the store by state, the engine pool's counters) are copied in by the
``set_*`` methods just before :meth:`ServerMetrics.render` answers ``/metrics``.

Every name starts with ``boardroom_``. Label values come from closed sets (the
protocol's message types and error codes, room statuses, a few reasons), never from
what a client sends, so a client cannot make the number of series grow.

:class:`LoopLagMonitor` measures how late the event loop wakes up, for the
``event_loop_lag_seconds`` histogram, ``/healthz`` and the benchmarks.
"""

from __future__ import annotations

import asyncio
import enum
import math
from collections import deque
from collections.abc import Callable, Iterator, Mapping

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, ProcessCollector
from prometheus_client.core import CounterMetricFamily, Metric
from prometheus_client.exposition import CONTENT_TYPE_LATEST, generate_latest
from prometheus_client.registry import Collector

from boardroom.server import stage_clock
from boardroom.shared.protocol import CLIENT_MESSAGES
from boardroom.shared.protocol.errors import ErrorCode

ROOM_STATUSES = ("waiting", "playing", "finished")
"""Values of the ``status`` label of ``boardroom_rooms``."""

GAME_STATES = ("waiting", "playing", "finished")
"""Values of the ``state`` label of ``boardroom_games`` (the store's game states)."""

UNKNOWN_MESSAGE_TYPE = "unknown"
"""``type`` label of a received message whose type the protocol does not define."""

ENGINE_SEARCH_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
"""Seconds: from a 1 ms tic-tac-toe search to the longest think time a level allows."""

LOOP_LAG_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)
"""Seconds: fine below the 10 ms p99 budget, coarse above it up to a second."""

_PREFIX = "boardroom_"


def _label(value: str | enum.Enum) -> str:
    """A label value: an enum's value (``GameState.PLAYING`` -> ``"playing"``)."""
    return str(value.value) if isinstance(value, enum.Enum) else str(value)


class _StageCollector(Collector):
    """``boardroom_stage_cpu_seconds_total{stage}``: the stage clock's sums, read
    when ``/metrics`` is rendered."""

    def collect(self) -> Iterator[Metric]:
        family = CounterMetricFamily(
            _PREFIX + "stage_cpu_seconds",
            "CPU time of the relay path's stages since start, by stage (thread CPU "
            "time: decode, rules, encode, write on the event loop; store on the "
            "SQLite thread).",
            labels=["stage"],
        )
        for stage, seconds in stage_clock.cpu_seconds().items():
            family.add_metric([stage], seconds)
        yield family


class ServerMetrics:
    """All metrics of one server, in a registry of its own.

    The metric objects are public attributes (``metrics.moves_total.inc()`` works);
    the methods below are the usual way to feed them and name the label values.
    """

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        # This process's memory, CPU time and open files (process_resident_memory_bytes
        # ...): what the load test reads for memory per connection. Linux only; a
        # no-op elsewhere.
        ProcessCollector(registry=r)

        # -- connections ------------------------------------------------------------
        # The gauge cannot be named `boardroom_connections`: the counter below
        # already owns that family name (prometheus_client strips `_total`).
        self.connections = Gauge(
            _PREFIX + "connections_open", "WebSocket connections open now.", registry=r
        )
        self.connections_total = Counter(
            _PREFIX + "connections_total",
            "WebSocket connections accepted since start (refused ones are not counted).",
            registry=r,
        )
        self.connections_refused_total = Counter(
            _PREFIX + "connections_refused_total",
            "Connections refused at the door, by reason: too_many_connections (over the "
            "per-address cap), handshake_timeout (closed for sending no request in time).",
            ["reason"],
            registry=r,
        )
        self.rate_limited_total = Counter(
            _PREFIX + "rate_limited_total",
            "Messages refused because their connection sent too many too fast.",
            registry=r,
        )
        self.http_rate_limited_total = Counter(
            _PREFIX + "http_rate_limited_total",
            "HTTP API requests answered 429 because their address made too many too fast.",
            registry=r,
        )
        # -- traffic ----------------------------------------------------------------
        self._message_counters: dict[str, Counter] = {}
        """Each known message type's child of ``messages_total``, once labelled."""
        self.messages_total = Counter(
            _PREFIX + "messages_total",
            "Messages received from clients, by type ('unknown' for undefined types).",
            ["type"],
            registry=r,
        )
        self.errors_total = Counter(
            _PREFIX + "errors_total",
            "Error replies sent to clients, by code.",
            ["code"],
            registry=r,
        )
        self.moves_total = Counter(
            _PREFIX + "moves_total", "Moves played (by people, bots and the engine).", registry=r
        )
        # The stage clock's sums (process-wide: boardroom.server.stage_clock).
        r.register(_StageCollector())
        # -- rooms and games --------------------------------------------------------
        self.rooms = Gauge(
            _PREFIX + "rooms", "Rooms held in memory, by status.", ["status"], registry=r
        )
        self.games = Gauge(
            _PREFIX + "games", "Games in the store, by state.", ["state"], registry=r
        )
        # -- engine -----------------------------------------------------------------
        self.engine_queue_depth = Gauge(
            _PREFIX + "engine_queue_depth",
            "Engine searches accepted and not yet answered.",
            registry=r,
        )
        self.engine_busy_workers = Gauge(
            _PREFIX + "engine_busy_workers", "Engine workers running a search.", registry=r
        )
        self.engine_waiting = Gauge(
            _PREFIX + "engine_waiting",
            "Engine searches waiting for a worker (of the queue depth).",
            registry=r,
        )
        self.engine_search_seconds = Histogram(
            _PREFIX + "engine_search_seconds",
            "Wall time of engine searches, dispatch included.",
            buckets=ENGINE_SEARCH_BUCKETS,
            registry=r,
        )
        self.engine_fallbacks_total = Counter(
            _PREFIX + "engine_fallbacks_total",
            "Engine searches answered with a fallback move, by reason.",
            ["reason"],
            registry=r,
        )
        self.engine_restarts_total = Counter(
            _PREFIX + "engine_restarts_total",
            "Engine worker pools replaced after a crash.",
            registry=r,
        )
        # -- event loop -------------------------------------------------------------
        self.event_loop_lag_seconds = Histogram(
            _PREFIX + "event_loop_lag_seconds",
            "How late the event loop woke up beyond a scheduled sleep.",
            buckets=LOOP_LAG_BUCKETS,
            registry=r,
        )

        self._restarts_seen = 0
        # Create the series of every closed label set now, at zero, so that a
        # dashboard's rate() and a test both see them before the first event.
        for kind in (*CLIENT_MESSAGES, UNKNOWN_MESSAGE_TYPE):
            self.messages_total.labels(type=kind)
        for code in ErrorCode:
            self.errors_total.labels(code=code.value)
        self.set_rooms({})
        self.set_games({})

    # -- events ---------------------------------------------------------------------

    def connection_opened(self) -> None:
        """A WebSocket connection was accepted."""
        self.connections.inc()
        self.connections_total.inc()

    def connection_closed(self) -> None:
        """An accepted connection ended (call once per :meth:`connection_opened`)."""
        self.connections.dec()

    def connection_refused(self, reason: str | enum.Enum) -> None:
        """A connection was refused at the door (server/admission.py), for ``reason``."""
        self.connections_refused_total.labels(reason=_label(reason)).inc()

    def count_message(self, kind: str) -> None:
        """A message of type ``kind`` was received. A type the protocol does not
        define is counted as ``unknown``: the label never takes a client's text."""
        counter = self._message_counters.get(kind)
        if counter is None:
            label = kind if kind in CLIENT_MESSAGES else UNKNOWN_MESSAGE_TYPE
            counter = self.messages_total.labels(type=label)
            if label != UNKNOWN_MESSAGE_TYPE:
                # Kept: labels() takes a lock and checks its arguments, on every message.
                self._message_counters[kind] = counter
        counter.inc()

    def count_error(self, code: str | enum.Enum) -> None:
        """An error reply with ``code`` (an :class:`ErrorCode`) was sent."""
        self.errors_total.labels(code=_label(code)).inc()

    def count_move(self) -> None:
        """A move was played and broadcast."""
        self.moves_total.inc()

    def count_rate_limited(self) -> None:
        """A message was refused by the connection's rate limiter."""
        self.rate_limited_total.inc()

    def count_http_rate_limited(self) -> None:
        """An HTTP request was answered 429 by the per-address rate limit."""
        self.http_rate_limited_total.inc()

    def observe_search(self, seconds: float) -> None:
        """An engine search (or its fallback) took ``seconds`` of wall time."""
        self.engine_search_seconds.observe(seconds)

    def count_fallback(self, reason: str | enum.Enum) -> None:
        """An engine search was answered with a fallback move, for ``reason``."""
        self.engine_fallbacks_total.labels(reason=_label(reason)).inc()

    def observe_loop_lag(self, seconds: float) -> None:
        """The event loop woke up ``seconds`` late (see :class:`LoopLagMonitor`)."""
        self.event_loop_lag_seconds.observe(seconds)

    # -- levels, copied in before rendering ----------------------------------------

    def set_rooms(self, counts: Mapping[str, int] | Mapping[enum.Enum, int]) -> None:
        """Set the rooms by status (keys from :data:`ROOM_STATUSES`); a status
        missing from ``counts`` is set to 0. An unknown status is a ValueError."""
        self._set_levels(self.rooms, "status", ROOM_STATUSES, counts)

    def set_games(self, counts: Mapping[str, int] | Mapping[enum.Enum, int]) -> None:
        """Set the games in the store by state (keys from :data:`GAME_STATES`, or the
        store's ``GameState`` members); a state missing from ``counts`` is set to 0.
        An unknown state is a ValueError."""
        self._set_levels(self.games, "state", GAME_STATES, counts)

    def set_engine(
        self, *, queue_depth: int, busy_workers: int, restarts: int, waiting: int = 0
    ) -> None:
        """Copy in the engine pool's levels and its restart counter.

        ``restarts`` is the pool's running total; the metric grows by the difference
        since the last call. A total lower than before means a new pool counting
        from zero, whose restarts are then all new.
        """
        self.engine_queue_depth.set(queue_depth)
        self.engine_busy_workers.set(busy_workers)
        self.engine_waiting.set(waiting)
        new = restarts - self._restarts_seen if restarts >= self._restarts_seen else restarts
        if new > 0:
            self.engine_restarts_total.inc(new)
        self._restarts_seen = restarts

    def render(self) -> tuple[bytes, str]:
        """The exposition text of every metric, and its HTTP ``Content-Type``."""
        return generate_latest(self.registry), CONTENT_TYPE_LATEST

    @staticmethod
    def _set_levels(
        gauge: Gauge,
        label: str,
        known: tuple[str, ...],
        counts: Mapping[str, int] | Mapping[enum.Enum, int],
    ) -> None:
        values = {_label(key): count for key, count in counts.items()}
        unknown = sorted(set(values) - set(known))
        if unknown:
            raise ValueError(
                f"unknown {label} {', '.join(unknown)}: expected one of {', '.join(known)}"
            )
        for value in known:
            gauge.labels(**{label: value}).set(values.get(value, 0))


class LoopLagMonitor:
    """Measures the event loop's lag: how much later than asked a sleep wakes up.

    Every ``interval`` seconds a task asks the loop to wake it ``interval`` seconds
    later; the lag is the time beyond that (``loop.time()`` on waking minus the
    time asked for, never below 0). A callback that holds the loop for 50 ms shows
    as a lag of up to 50 ms. Each lag goes to ``histogram_observer`` (a histogram's
    ``observe``, or a :class:`ServerMetrics`) and into a window of the latest
    ``samples`` lags, from which :meth:`percentile` and :attr:`max_recent` are read.
    """

    def __init__(
        self,
        histogram_observer: Callable[[float], None] | ServerMetrics | None = None,
        interval: float = 0.1,
        *,
        samples: int = 600,
    ) -> None:
        """Raise ValueError unless ``interval`` is finite and > 0 and ``samples`` >= 1.
        With ``histogram_observer`` None the lags are only kept for :meth:`percentile`."""
        if not math.isfinite(interval) or interval <= 0:
            raise ValueError(f"interval must be a finite number of seconds > 0, got {interval}")
        if samples < 1:
            raise ValueError(f"samples must be at least 1, got {samples}")
        self._observe = (
            histogram_observer.observe_loop_lag
            if isinstance(histogram_observer, ServerMetrics)
            else histogram_observer
        )
        self.interval = interval
        self._lags: deque[float] = deque(maxlen=samples)
        self._task: asyncio.Task[None] | None = None

    @property
    def running(self) -> bool:
        """True between :meth:`start` and :meth:`stop`, while the task lives."""
        return self._task is not None and not self._task.done()

    def start(self) -> None:
        """Start measuring on the running loop. RuntimeError if already running
        (or if no loop is running)."""
        if self.running:
            raise RuntimeError("the loop lag monitor is already running")
        self._task = asyncio.get_running_loop().create_task(self._run(), name="loop-lag-monitor")

    async def stop(self) -> None:
        """Stop measuring and wait for the task to end; the samples are kept.
        Does nothing if not running. An error that ended the task early is raised."""
        task, self._task = self._task, None
        if task is None:
            return
        task.cancel()
        # wait() rather than `await task`: the task's cancellation must not look
        # like our own, and a cancellation of stop() itself still propagates.
        await asyncio.wait([task])
        error = None if task.cancelled() else task.exception()
        if error is not None:
            raise error

    def record(self, lag: float) -> None:
        """Keep one measured lag (seconds) and pass it to the observer."""
        self._lags.append(lag)
        if self._observe is not None:
            self._observe(lag)

    def percentile(self, p: float) -> float:
        """The ``p``-th percentile (0..100, nearest rank) of the recent lags, in
        seconds; 0.0 before the first sample. ValueError outside 0..100."""
        if not 0 <= p <= 100:
            raise ValueError(f"percentile must be within 0..100, got {p}")
        if not self._lags:
            return 0.0
        ordered = sorted(self._lags)
        rank = math.ceil(p / 100 * len(ordered))
        return ordered[max(rank, 1) - 1]

    @property
    def max_recent(self) -> float:
        """The largest recent lag in seconds; 0.0 before the first sample."""
        return max(self._lags, default=0.0)

    @property
    def sample_count(self) -> int:
        """How many lags the window holds now."""
        return len(self._lags)

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            due = loop.time() + self.interval
            await asyncio.sleep(self.interval)
            # The loop may run a timer up to its clock resolution early: clamp at 0.
            self.record(max(0.0, loop.time() - due))
