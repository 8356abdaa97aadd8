"""The Prometheus metrics of one server, and the event-loop lag monitor."""

from __future__ import annotations

import asyncio
import enum
import time

import pytest
from harness import wait_until
from prometheus_client.parser import text_string_to_metric_families
from prometheus_client.samples import Sample

from boardroom.server.metrics import LoopLagMonitor, ServerMetrics
from boardroom.shared.protocol.errors import ErrorCode


def samples(metrics: ServerMetrics) -> list[Sample]:
    """Every sample of the rendered exposition, parsed back."""
    body, _ = metrics.render()
    return [s for family in text_string_to_metric_families(body.decode()) for s in family.samples]


def value(metrics: ServerMetrics, name: str, **labels: str) -> float:
    """The value of the one sample called ``name`` with exactly ``labels``."""
    found = [s.value for s in samples(metrics) if s.name == name and s.labels == labels]
    assert len(found) == 1, f"{name}{labels}: {len(found)} samples"
    return found[0]


class _State(enum.Enum):  # stands in for the store's GameState
    WAITING = "waiting"
    PLAYING = "playing"
    FINISHED = "finished"


def test_render_returns_the_exposition_and_its_content_type() -> None:
    body, content_type = ServerMetrics().render()
    assert isinstance(body, bytes)
    assert content_type.startswith("text/plain")
    assert b"boardroom_connections_open" in body


def test_every_metric_is_exposed_under_the_boardroom_prefix() -> None:
    """Ours are under boardroom_; the standard process_ family is the process's own."""
    body = ServerMetrics().render()[0].decode()
    # The text format shows each counter's and histogram's `_created` timestamp as a
    # gauge family of its own: left out here, they only repeat the names below.
    names = {
        family.name
        for family in text_string_to_metric_families(body)
        if not family.name.endswith("_created") and not family.name.startswith("process_")
    }
    assert "process_resident_memory_bytes" in body
    assert names == {
        "boardroom_connections_open",
        "boardroom_connections",
        "boardroom_connections_refused",
        "boardroom_rate_limited",
        "boardroom_http_rate_limited",
        "boardroom_messages",
        "boardroom_errors",
        "boardroom_moves",
        "boardroom_rooms",
        "boardroom_games",
        "boardroom_engine_queue_depth",
        "boardroom_engine_busy_workers",
        "boardroom_engine_waiting",
        "boardroom_engine_search_seconds",
        "boardroom_engine_fallbacks",
        "boardroom_engine_restarts",
        "boardroom_event_loop_lag_seconds",
        "boardroom_stage_cpu_seconds",
    }


def test_events_show_in_the_render_with_their_labels() -> None:
    m = ServerMetrics()
    m.connection_opened()
    m.connection_opened()
    m.connection_closed()
    m.connection_refused("too_many_connections")
    m.count_message("move")
    m.count_message("move")
    m.count_error(ErrorCode.ILLEGAL_MOVE)
    m.count_move()
    m.count_rate_limited()
    m.count_http_rate_limited()
    m.count_http_rate_limited()
    m.observe_search(0.003)
    m.count_fallback("timeout")
    m.observe_loop_lag(0.002)

    assert value(m, "boardroom_connections_open") == 1
    assert value(m, "boardroom_connections_total") == 2
    assert value(m, "boardroom_connections_refused_total", reason="too_many_connections") == 1
    assert value(m, "boardroom_messages_total", type="move") == 2
    assert value(m, "boardroom_errors_total", code="illegal_move") == 1
    assert value(m, "boardroom_moves_total") == 1
    assert value(m, "boardroom_rate_limited_total") == 1
    assert value(m, "boardroom_http_rate_limited_total") == 2
    assert value(m, "boardroom_engine_fallbacks_total", reason="timeout") == 1
    assert value(m, "boardroom_engine_search_seconds_count") == 1
    assert value(m, "boardroom_engine_search_seconds_bucket", le="0.005") == 1
    assert value(m, "boardroom_engine_search_seconds_bucket", le="0.0025") == 0
    assert value(m, "boardroom_event_loop_lag_seconds_bucket", le="0.0025") == 1
    assert value(m, "boardroom_event_loop_lag_seconds_bucket", le="0.001") == 0


def test_histogram_buckets_span_the_documented_ranges() -> None:
    rendered = samples(ServerMetrics())

    def bounds(name: str) -> list[float]:
        return sorted(float(s.labels["le"]) for s in rendered if s.name == name + "_bucket")

    search = bounds("boardroom_engine_search_seconds")
    lag = bounds("boardroom_event_loop_lag_seconds")
    assert search[0] == 0.001 and search[-2] == 5.0 and search[-1] == float("inf")
    assert lag[0] == 0.0005 and lag[-2] == 1.0 and lag[-1] == float("inf")


def test_closed_label_sets_are_exposed_at_zero_before_any_event() -> None:
    m = ServerMetrics()
    assert value(m, "boardroom_messages_total", type="hello") == 0
    assert value(m, "boardroom_errors_total", code="rate_limited") == 0
    for status in ("waiting", "playing", "finished"):
        assert value(m, "boardroom_rooms", status=status) == 0
        assert value(m, "boardroom_games", state=status) == 0


def test_an_undefined_message_type_is_counted_as_unknown() -> None:
    m = ServerMetrics()
    for kind in ("no_such_type", "another", ""):
        m.count_message(kind)
    assert value(m, "boardroom_messages_total", type="unknown") == 3
    assert not [s for s in samples(m) if s.labels.get("type") == "no_such_type"]


def test_rooms_and_games_are_set_whole() -> None:
    m = ServerMetrics()
    m.set_rooms({"waiting": 2, "playing": 5})
    m.set_games({_State.PLAYING: 7, _State.FINISHED: 40})
    assert value(m, "boardroom_rooms", status="waiting") == 2
    assert value(m, "boardroom_rooms", status="playing") == 5
    assert value(m, "boardroom_rooms", status="finished") == 0
    assert value(m, "boardroom_games", state="playing") == 7
    assert value(m, "boardroom_games", state="finished") == 40
    # A status that empties is reset, not left at its old value.
    m.set_rooms({"playing": 1})
    assert value(m, "boardroom_rooms", status="waiting") == 0


def test_an_unknown_status_is_a_value_error() -> None:
    m = ServerMetrics()
    with pytest.raises(ValueError, match="paused"):
        m.set_rooms({"paused": 1})
    with pytest.raises(ValueError, match="expected one of waiting, playing, finished"):
        m.set_games({"lost": 1})


def test_engine_levels_and_restarts_follow_the_pool() -> None:
    m = ServerMetrics()
    m.set_engine(queue_depth=3, busy_workers=2, restarts=0, waiting=1)
    assert value(m, "boardroom_engine_queue_depth") == 3
    assert value(m, "boardroom_engine_waiting") == 1
    assert value(m, "boardroom_engine_busy_workers") == 2
    assert value(m, "boardroom_engine_restarts_total") == 0
    m.set_engine(queue_depth=0, busy_workers=0, restarts=2)
    m.set_engine(queue_depth=0, busy_workers=0, restarts=2)  # unchanged: no growth
    assert value(m, "boardroom_engine_restarts_total") == 2
    assert value(m, "boardroom_engine_queue_depth") == 0
    # A new pool counts from zero again: its restarts add to the total.
    m.set_engine(queue_depth=0, busy_workers=0, restarts=1)
    assert value(m, "boardroom_engine_restarts_total") == 3


def test_two_servers_in_one_process_do_not_collide() -> None:
    first, second = ServerMetrics(), ServerMetrics()
    first.count_move()
    first.connection_opened()
    assert value(first, "boardroom_moves_total") == 1
    assert value(second, "boardroom_moves_total") == 0
    assert value(second, "boardroom_connections_open") == 0
    assert first.registry is not second.registry


# -- LoopLagMonitor ---------------------------------------------------------------------


def test_percentiles_are_nearest_rank_over_the_recent_window() -> None:
    monitor = LoopLagMonitor(None, samples=100)
    assert monitor.percentile(99) == 0.0 and monitor.max_recent == 0.0
    for i in range(1, 201):  # the window keeps 101..200 (milliseconds)
        monitor.record(i / 1000)
    assert monitor.sample_count == 100
    assert monitor.percentile(0) == pytest.approx(0.101)
    assert monitor.percentile(50) == pytest.approx(0.150)
    assert monitor.percentile(99) == pytest.approx(0.199)
    assert monitor.percentile(100) == monitor.max_recent == pytest.approx(0.200)
    with pytest.raises(ValueError, match="percentile"):
        monitor.percentile(101)


def test_recorded_lags_reach_the_observer() -> None:
    seen: list[float] = []
    LoopLagMonitor(seen.append).record(0.25)
    assert seen == [0.25]
    m = ServerMetrics()
    LoopLagMonitor(m).record(0.25)
    assert value(m, "boardroom_event_loop_lag_seconds_count") == 1


@pytest.mark.parametrize("interval", [0.0, -1.0, float("nan"), float("inf")])
def test_a_bad_interval_is_a_value_error(interval: float) -> None:
    with pytest.raises(ValueError, match="interval"):
        LoopLagMonitor(None, interval)


async def test_a_blocking_call_shows_as_lag_and_the_monitor_stops_cleanly() -> None:
    m = ServerMetrics()
    monitor = LoopLagMonitor(m, interval=0.01)
    monitor.start()
    assert monitor.running
    with pytest.raises(RuntimeError, match="already running"):
        monitor.start()
    await wait_until(lambda: monitor.sample_count >= 1)  # its timer is set: lag can show
    time.sleep(0.05)  # the subject: holds the event loop, as a search on the loop would
    await wait_until(lambda: monitor.max_recent >= 0.04)
    lagged = monitor.sample_count
    await wait_until(lambda: monitor.sample_count > lagged)  # and it goes on measuring
    await monitor.stop()
    assert not monitor.running
    assert monitor.max_recent >= 0.04
    assert monitor.percentile(100) == monitor.max_recent
    assert monitor.sample_count >= 3
    assert value(m, "boardroom_event_loop_lag_seconds_count") == monitor.sample_count
    # Stopped means stopped: no more samples, and stopping again is harmless.
    count = monitor.sample_count
    await asyncio.sleep(0.03)  # the subject: three intervals pass, and nothing is sampled
    assert monitor.sample_count == count
    await monitor.stop()


async def test_an_idle_loop_shows_little_lag() -> None:
    monitor = LoopLagMonitor(None, interval=0.005)
    monitor.start()
    await wait_until(lambda: monitor.sample_count >= 5)
    await monitor.stop()
    assert monitor.sample_count >= 5
    # Generous: a loaded CI machine may delay a wake-up, but not by a blocking 50 ms.
    assert monitor.percentile(50) < 0.02


async def test_the_monitor_can_be_restarted_after_stopping() -> None:
    monitor = LoopLagMonitor(None, interval=0.005)
    monitor.start()
    await wait_until(lambda: monitor.sample_count >= 1)
    await monitor.stop()
    before = monitor.sample_count
    monitor.start()
    await wait_until(lambda: monitor.sample_count > before)  # measuring again
    await monitor.stop()
    assert monitor.sample_count >= 2


def test_starting_without_a_running_loop_is_a_runtime_error() -> None:
    with pytest.raises(RuntimeError):
        LoopLagMonitor(None).start()
