"""Reading a Boardroom server's own figures over HTTP: ``/metrics`` and ``/healthz``.

The load tool judges the server by what the server measures itself: its memory
(``process_resident_memory_bytes``), its CPU time (``process_cpu_seconds_total``)
and how late its event loop wakes up (the histogram
``boardroom_event_loop_lag_seconds``). Two readings, at the start and the end of
the measured window, give the lag's 99th percentile over the window from the
bucket counts that grew between them (:func:`lag_between`).

HTTP goes through the standard library (``urllib``): ``client/`` does not use
aiohttp. :meth:`ServerProbe.read` blocks; the runner calls it in a thread.

>>> samples = parse_prometheus_text('''# HELP x A metric.
... x_bucket{le="0.5",path="/ws"} 3.0
... x_bucket{le="+Inf",path="/ws"} 4.0
... ''')
>>> [(s.name, s.labels["le"], s.value) for s in samples]
[('x_bucket', '0.5', 3.0), ('x_bucket', '+Inf', 4.0)]
"""

from __future__ import annotations

import json
import math
import os
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeVar
from urllib.parse import urlsplit, urlunsplit

from boardroom.client.loadtest.errors import ProbeError

RSS_METRIC = "process_resident_memory_bytes"
CPU_METRIC = "process_cpu_seconds_total"
LAG_HISTOGRAM = "boardroom_event_loop_lag_seconds"
STAGE_METRIC = "boardroom_stage_cpu_seconds_total"
"""The server's CPU time by stage of the relay path (``stage`` label)."""
MOVES_METRIC = "boardroom_moves_total"
STAGES = ("decode", "rules", "store", "encode", "write")
"""The stages the server times (server/stage_clock.py), in the order a move meets them."""
HTTP_TIMEOUT = 10.0
"""Seconds to wait for ``/metrics``: a server under load answers late, not never."""


_DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))
"""An opener that ignores ``http_proxy`` and the like: the figures must come from
the server itself, as the load clients reach it (they use no proxy either)."""


@dataclass(frozen=True)
class Sample:
    """One line of the Prometheus text format: ``name{labels} value``."""

    name: str
    labels: Mapping[str, str]
    value: float


def parse_prometheus_text(text: str) -> list[Sample]:
    """The samples of a Prometheus text exposition (comments and blank lines
    skipped; an optional timestamp after the value is ignored).

    Label values are unescaped (``\\\\``, ``\\"``, ``\\n``). ValueError names the
    line that is not in the format.
    """
    samples = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        try:
            samples.append(_parse_line(line))
        except (ValueError, IndexError):
            raise ValueError(f"line {number} is not a Prometheus sample: {raw!r}") from None
    return samples


def _parse_line(line: str) -> Sample:
    brace = line.find("{")
    space = line.find(" ")
    labels: dict[str, str] = {}
    if brace != -1 and (space == -1 or brace < space):
        name = line[:brace]
        position = brace + 1
        while line[position] != "}":
            equals = line.index("=", position)
            key = line[position:equals].strip().lstrip(",").strip()
            if line[equals + 1] != '"':
                raise ValueError("label value not quoted")
            value, position = _read_quoted(line, equals + 2)
            labels[key] = value
            while line[position] in ", ":
                position += 1
        rest = line[position + 1 :].split()
    else:
        name, *rest = line.split()
    if not name or not rest:
        raise ValueError("no name or no value")
    return Sample(name, labels, _parse_value(rest[0]))


def _read_quoted(line: str, position: int) -> tuple[str, int]:
    """The label value starting at ``position`` (after its opening quote), and the
    position after its closing quote."""
    chars: list[str] = []
    while True:
        char = line[position]
        if char == '"':
            return "".join(chars), position + 1
        if char == "\\":
            position += 1
            chars.append({"n": "\n"}.get(line[position], line[position]))
        else:
            chars.append(char)
        position += 1


def _parse_value(text: str) -> float:
    special = {"+Inf": math.inf, "-Inf": -math.inf, "NaN": math.nan}
    return special[text] if text in special else float(text)


Buckets = tuple[tuple[float, float], ...]
_T = TypeVar("_T")
"""A histogram's cumulative buckets: ``(upper bound, samples at or under it)``,
by increasing bound, the last one ``+Inf``."""


@dataclass(frozen=True)
class ServerReading:
    """What ``/metrics`` said at one moment (``at``: ``time.monotonic()``)."""

    at: float
    rss_bytes: float | None
    cpu_seconds: float | None
    lag_buckets: Buckets
    lag_count: float
    lag_sum: float
    stage_cpu: Mapping[str, float] = field(default_factory=dict)
    """CPU seconds by stage of the relay path (empty: the server does not say)."""
    moves: float | None = None
    """Moves played since the server started."""

    @classmethod
    def summed(cls, readings: Sequence[ServerReading]) -> ServerReading:
        """Several processes' readings as one server's: memory, CPU time and the lag
        histogram's counts added up (a figure one of them lacks is None); the time
        of the last. One reading is returned as it is."""
        if len(readings) == 1:
            return readings[0]
        bounds: dict[float, float] = {}
        for reading in readings:
            for bound, count in reading.lag_buckets:
                bounds[bound] = bounds.get(bound, 0.0) + count
        rss = [reading.rss_bytes for reading in readings]
        cpu = [reading.cpu_seconds for reading in readings]
        moves = [reading.moves for reading in readings]
        stages: dict[str, float] = {}
        if all(reading.stage_cpu for reading in readings):
            for reading in readings:
                for stage, seconds in reading.stage_cpu.items():
                    stages[stage] = stages.get(stage, 0.0) + seconds
        return cls(
            at=max(reading.at for reading in readings),
            rss_bytes=None if None in rss else sum(value or 0.0 for value in rss),
            cpu_seconds=None if None in cpu else sum(value or 0.0 for value in cpu),
            lag_buckets=tuple(sorted(bounds.items())),
            lag_count=sum(reading.lag_count for reading in readings),
            lag_sum=sum(reading.lag_sum for reading in readings),
            stage_cpu=stages,
            moves=None if None in moves else sum(value or 0.0 for value in moves),
        )

    @classmethod
    def from_samples(cls, samples: Sequence[Sample], at: float) -> ServerReading:
        """The figures the load tool uses, out of every sample; a figure the server
        does not export is None (or no buckets)."""
        singles = {sample.name: sample.value for sample in samples if not sample.labels}
        buckets = sorted(
            (_parse_value(sample.labels["le"]), sample.value)
            for sample in samples
            if sample.name == LAG_HISTOGRAM + "_bucket" and "le" in sample.labels
        )
        return cls(
            at=at,
            rss_bytes=singles.get(RSS_METRIC),
            cpu_seconds=singles.get(CPU_METRIC),
            lag_buckets=tuple(buckets),
            lag_count=singles.get(LAG_HISTOGRAM + "_count", 0.0),
            lag_sum=singles.get(LAG_HISTOGRAM + "_sum", 0.0),
            stage_cpu={
                sample.labels["stage"]: sample.value
                for sample in samples
                if sample.name == STAGE_METRIC and "stage" in sample.labels
            },
            moves=singles.get(MOVES_METRIC),
        )


def histogram_quantile(q: float, buckets: Buckets) -> float | None:
    """The upper bound of the bucket holding the ``q``-quantile (0 < q <= 1) of a
    cumulative histogram: the quantile is at most this. ``math.inf`` when it lies
    above the last finite bound; None for an empty histogram.

    >>> histogram_quantile(0.99, ((0.001, 90.0), (0.005, 99.0), (0.01, 100.0), (math.inf, 100.0)))
    0.005
    """
    if not buckets or buckets[-1][1] <= 0:
        return None
    rank = math.ceil(q * buckets[-1][1])
    for bound, cumulative in buckets:
        if cumulative >= rank:
            return bound
    return math.inf


def bucket_deltas(before: Buckets, after: Buckets) -> Buckets:
    """The cumulative buckets of the samples added between two readings of the same
    histogram (bounds missing from ``before`` count from zero)."""
    earlier = dict(before)
    return tuple((bound, count - earlier.get(bound, 0.0)) for bound, count in after)


@dataclass(frozen=True)
class LagFigures:
    """The event loop's lag between two readings."""

    samples: int
    p99_upper_ms: float | None
    """The 99th percentile is at most this (a bucket bound); inf: above the last."""
    max_upper_ms: float | None
    """The greatest lag is at most this (a bucket bound); inf: above the last."""
    mean_ms: float | None


def lag_between(before: ServerReading, after: ServerReading) -> LagFigures:
    """The lag the server measured between ``before`` and ``after``."""
    samples = after.lag_count - before.lag_count
    deltas = bucket_deltas(before.lag_buckets, after.lag_buckets)
    p99 = histogram_quantile(0.99, deltas)
    greatest = histogram_quantile(1.0, deltas)
    mean = (after.lag_sum - before.lag_sum) / samples * 1000 if samples > 0 else None
    return LagFigures(
        samples=int(samples),
        p99_upper_ms=None if p99 is None else p99 * 1000,
        max_upper_ms=None if greatest is None else greatest * 1000,
        mean_ms=mean,
    )


def cpu_share(before: ServerReading, after: ServerReading) -> float | None:
    """The server's CPU time between the readings over the wall time between them
    (1.0: one core busy throughout); None if the server does not say."""
    if before.cpu_seconds is None or after.cpu_seconds is None or after.at <= before.at:
        return None
    return (after.cpu_seconds - before.cpu_seconds) / (after.at - before.at)


def cpu_per_move(before: ServerReading, after: ServerReading) -> dict[str, float] | None:
    """The server's CPU time per move between the readings, in microseconds:
    ``total`` (the process's), each stage's (:data:`STAGES`) and ``other``, the
    total less the stages (the parts add up to the total). None when the server
    does not export its stages, or played no move in between."""
    if (
        before.cpu_seconds is None
        or after.cpu_seconds is None
        or before.moves is None
        or after.moves is None
        or not after.stage_cpu
        or after.moves <= before.moves
    ):
        return None
    moves = after.moves - before.moves
    per_move = {"total": (after.cpu_seconds - before.cpu_seconds) / moves * 1e6}
    for stage in STAGES:
        spent = after.stage_cpu.get(stage, 0.0) - before.stage_cpu.get(stage, 0.0)
        per_move[stage] = spent / moves * 1e6
    per_move["other"] = per_move["total"] - sum(per_move[stage] for stage in STAGES)
    return per_move


class Probe(Protocol):
    """Something that reads a server's figures now (blocking)."""

    def read(self) -> ServerReading:
        """The figures now; :class:`ProbeError` if they cannot be read."""
        ...


@dataclass
class ProcessProbe:
    """Reads the memory and CPU time of process ``pid`` on this machine from
    ``/proc`` (Linux): for the echo server, which has no ``/metrics``."""

    pid: int

    def read(self) -> ServerReading:
        """Raises :class:`ProbeError` where ``/proc`` does not have the process."""
        try:
            text = Path(f"/proc/{self.pid}/stat").read_text(encoding="ascii")
            # After the command in parentheses (which may hold spaces), fields from
            # the third on: utime and stime are the 14th and 15th, rss the 24th.
            fields = text.rsplit(")", 1)[1].split()
            ticks, page = os.sysconf("SC_CLK_TCK"), os.sysconf("SC_PAGE_SIZE")
            cpu = (int(fields[11]) + int(fields[12])) / ticks
            rss = int(fields[21]) * page
        except (OSError, ValueError, IndexError, AttributeError) as error:
            raise ProbeError(f"cannot read process {self.pid}'s figures: {error}") from None
        return ServerReading(
            at=time.monotonic(),
            rss_bytes=float(rss),
            cpu_seconds=cpu,
            lag_buckets=(),
            lag_count=0.0,
            lag_sum=0.0,
        )


@dataclass
class ServerProbe:
    """Reads ``/metrics`` and ``/healthz`` of the server whose WebSocket is ``ws_url``
    (the HTTP base is the same address without the final ``/ws``)."""

    ws_url: str
    base: str = field(init=False)

    def __post_init__(self) -> None:
        parts = urlsplit(self.ws_url)
        scheme = {"ws": "http", "wss": "https"}.get(parts.scheme, parts.scheme)
        path = parts.path[: -len("/ws")] if parts.path.endswith("/ws") else parts.path
        self.base = urlunsplit((scheme, parts.netloc, path.rstrip("/"), "", ""))

    def read(self) -> ServerReading:
        """GET ``/metrics`` now. Raises :class:`ProbeError`."""
        text = self._get("/metrics")
        try:
            samples = parse_prometheus_text(text)
        except ValueError as error:
            raise ProbeError(f"{self.base}/metrics is not Prometheus text: {error}") from None
        return ServerReading.from_samples(samples, time.monotonic())

    def health(self) -> dict[str, Any]:
        """GET ``/healthz`` now, as a dict. Raises :class:`ProbeError`."""
        text = self._get("/healthz")
        try:
            body = json.loads(text)
        except ValueError:
            raise ProbeError(f"{self.base}/healthz did not answer JSON: {text[:80]!r}") from None
        if not isinstance(body, dict):
            raise ProbeError(f"{self.base}/healthz did not answer a JSON object")
        return body

    def _get(self, path: str) -> str:
        url = self.base + path
        try:
            with _DIRECT.open(url, timeout=HTTP_TIMEOUT) as response:
                body: bytes = response.read()
                return body.decode("utf-8", errors="replace")
        except urllib.error.HTTPError as error:
            raise ProbeError(f"{url} answered HTTP {error.code}") from None
        except (urllib.error.URLError, OSError, TimeoutError) as error:
            reason = getattr(error, "reason", None) or error
            raise ProbeError(f"cannot read {url}: {reason}") from None


HEALTH_SUMS = ("connections", "rooms", "sessions")
"""The ``/healthz`` figures that add up over a cluster's processes."""


@dataclass(frozen=True)
class ServersProbe:
    """Reads several servers (the processes of one cluster) as one: their memory,
    CPU time and loop-lag histograms added up, and their ``/healthz`` counts."""

    probes: Sequence[ServerProbe]

    def read(self) -> ServerReading:
        """Every server's ``/metrics`` now, summed. Raises :class:`ProbeError`."""
        return ServerReading.summed([self._each(probe, probe.read) for probe in self.probes])

    def health(self) -> dict[str, Any]:
        """The first server's ``/healthz`` (its event loop, its lag), with the counts
        of all of them (``per_server``: each one's). Raises :class:`ProbeError`."""
        bodies = [self._each(probe, probe.health) for probe in self.probes]
        if len(bodies) == 1:
            return bodies[0]
        merged = dict(bodies[0])
        for name in HEALTH_SUMS:
            counts = [body.get(name) for body in bodies]
            if all(isinstance(count, int) for count in counts):
                merged[name] = sum(count for count in counts if isinstance(count, int))
        lags = [body.get("event_loop_lag_p99_ms") for body in bodies]
        if all(isinstance(lag, int | float) for lag in lags):
            merged["event_loop_lag_p99_ms"] = max(lag for lag in lags if lag is not None)
        merged["per_server"] = bodies
        return merged

    def _each(self, probe: ServerProbe, read: Callable[[], _T]) -> _T:
        if len(self.probes) == 1:
            return read()
        try:
            return read()
        except ProbeError as error:
            raise ProbeError(f"{probe.ws_url}: {error}") from None
